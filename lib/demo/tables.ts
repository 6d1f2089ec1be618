// The fixed garden the demo describes: Kubernetes and machine image versions, the providers'
// cloud profiles, the seeds and the projects. Kept as plain data, apart from the code that turns
// them into Gardener objects, so the cases the dashboard must show can be read (and changed) in
// one place.
import type { Toleration } from "../gardener/types.ts";

export interface VersionDef {
  version: string;
  classification: "preview" | "supported" | "deprecated";
  /** Days from now; negative means already expired. Absent: no expiry. */
  expiresInDays?: number;
  architectures?: string[];
}

// Real Kubernetes lines. The expiry days are picked well inside the buckets the dashboard
// shows (expired, 7, 30, 90 days, later) so the per-profile shift below never moves a version
// into another bucket. Only one version per minor is "supported" (Gardener rejects more), the
// latest version has no expiry (also enforced), and the newest patch of the newest minor is a
// preview. The table is the profile as it is now, after the recent releases (RECENT_RELEASES below).
export const KUBERNETES_VERSIONS: readonly VersionDef[] = [
  { version: "1.34.2", classification: "preview" },
  { version: "1.34.1", classification: "supported" },
  { version: "1.34.0", classification: "deprecated", expiresInDays: 200 },
  { version: "1.33.7", classification: "supported" },
  { version: "1.33.6", classification: "deprecated", expiresInDays: 180 },
  { version: "1.33.5", classification: "deprecated", expiresInDays: 150 },
  { version: "1.33.4", classification: "deprecated", expiresInDays: 150 },
  { version: "1.33.3", classification: "deprecated", expiresInDays: 120 },
  { version: "1.32.10", classification: "supported", expiresInDays: 210 },
  { version: "1.32.9", classification: "deprecated", expiresInDays: 210 },
  { version: "1.32.8", classification: "deprecated", expiresInDays: 120 },
  { version: "1.32.7", classification: "deprecated", expiresInDays: 45 },
  { version: "1.32.6", classification: "deprecated", expiresInDays: 45 },
  { version: "1.32.5", classification: "deprecated", expiresInDays: 25 },
  { version: "1.31.13", classification: "supported", expiresInDays: 60 },
  { version: "1.31.12", classification: "deprecated", expiresInDays: 18 },
  { version: "1.31.11", classification: "deprecated", expiresInDays: 18 },
  { version: "1.31.10", classification: "deprecated", expiresInDays: 4 },
  { version: "1.31.9", classification: "deprecated", expiresInDays: -12 },
  { version: "1.30.14", classification: "deprecated", expiresInDays: 4 },
  { version: "1.30.13", classification: "deprecated", expiresInDays: -40 },
  { version: "1.30.12", classification: "deprecated", expiresInDays: -75 },
  { version: "1.30.11", classification: "deprecated", expiresInDays: -110 },
  { version: "1.30.10", classification: "deprecated", expiresInDays: -150 },
];

const BOTH_ARCHS = ["amd64", "arm64"];
export const AMD64_ONLY = ["amd64"];

export interface ImageDef {
  name: string;
  updateStrategy: "patch" | "minor" | "major";
  versions: readonly VersionDef[];
}

// One image per update strategy: Garden Linux moves within a major ("minor"), SUSE CHost within
// a minor ("patch", with dates as patch numbers like the real images), Ubuntu across majors.
export const MACHINE_IMAGES: readonly ImageDef[] = [
  {
    name: "gardenlinux",
    updateStrategy: "minor",
    versions: [
      { version: "1877.4.0", classification: "supported", architectures: BOTH_ARCHS },
      { version: "1877.3.0", classification: "supported", architectures: BOTH_ARCHS },
      { version: "1877.2.0", classification: "supported", expiresInDays: 160, architectures: BOTH_ARCHS },
      { version: "1592.9.0", classification: "supported", expiresInDays: 75, architectures: BOTH_ARCHS },
      { version: "1592.4.0", classification: "deprecated", expiresInDays: 22, architectures: BOTH_ARCHS },
      { version: "1592.1.0", classification: "deprecated", expiresInDays: 5, architectures: BOTH_ARCHS },
      { version: "1443.10.0", classification: "deprecated", expiresInDays: -30, architectures: AMD64_ONLY },
    ],
  },
  {
    name: "suse-chost",
    updateStrategy: "patch",
    versions: [
      { version: "15.7.20251101", classification: "preview", architectures: BOTH_ARCHS },
      { version: "15.6.20251115", classification: "supported", architectures: BOTH_ARCHS },
      { version: "15.6.20250901", classification: "deprecated", expiresInDays: 100, architectures: BOTH_ARCHS },
      { version: "15.6.20250601", classification: "deprecated", expiresInDays: 40, architectures: BOTH_ARCHS },
      { version: "15.5.20250315", classification: "deprecated", expiresInDays: 12, architectures: BOTH_ARCHS },
      { version: "15.5.20250101", classification: "deprecated", expiresInDays: -20, architectures: AMD64_ONLY },
    ],
  },
  {
    name: "ubuntu",
    updateStrategy: "major",
    versions: [
      { version: "24.4.4", classification: "supported", architectures: BOTH_ARCHS },
      { version: "24.4.3", classification: "deprecated", expiresInDays: 150, architectures: BOTH_ARCHS },
      { version: "24.4.1", classification: "deprecated", expiresInDays: 150, architectures: BOTH_ARCHS },
      { version: "22.4.5", classification: "deprecated", expiresInDays: 70, architectures: AMD64_ONLY },
      { version: "20.4.12", classification: "deprecated", expiresInDays: -45, architectures: AMD64_ONLY },
    ],
  },
];

/**
 * A version made available a few hours before now, as Gardener operators roll out a new patch or
 * image: it is added to the profile (or promoted from preview), and the version it replaces moves
 * from supported to deprecated at the same moment. Shoots that update automatically take it at
 * their first window after the release; those whose window has not come yet have it pending, so
 * "maintain now" takes it at once. The tables above are the profiles after every release; before
 * one, `version` was absent (or a preview) and `replaces` was supported, with its expiry only if
 * it already had one.
 */
export interface ReleaseDef {
  /** "kubernetes", or a machine image's name. */
  subject: string;
  version: string;
  /** What `version` was before the release. */
  was: "absent" | "preview";
  /** The supported version it deprecates, if any. */
  replaces?: string;
  /** Whether `replaces` already had its expiration date before it was deprecated. */
  replacedHadExpiry?: boolean;
  /** Hours before now (on the full hour); less than a day, so some windows came after it and some not. */
  hoursAgo: number;
}

export const RECENT_RELEASES: readonly ReleaseDef[] = [
  { subject: "kubernetes", version: "1.33.7", was: "absent", replaces: "1.33.6", hoursAgo: 9 },
  {
    subject: "kubernetes",
    version: "1.32.10",
    was: "absent",
    replaces: "1.32.9",
    replacedHadExpiry: true,
    hoursAgo: 9,
  },
  { subject: "gardenlinux", version: "1877.4.0", was: "preview", hoursAgo: 5 },
  { subject: "suse-chost", version: "15.6.20251115", was: "absent", replaces: "15.6.20250901", hoursAgo: 14 },
  { subject: "ubuntu", version: "24.4.4", was: "absent", replaces: "24.4.3", hoursAgo: 3 },
];

/** What a pool needs from a machine type; internal, not written into the profile. */
export type MachineKind = "general" | "memory" | "gpu" | "arm";

export interface MachineTypeDef {
  name: string;
  cpu: string;
  memory: string;
  gpu?: string;
  kind: MachineKind;
}

export interface ProfileDef {
  name: string;
  type: string;
  regions: readonly { name: string; zones: readonly string[] }[];
  machineTypes: readonly MachineTypeDef[];
  images: readonly string[];
  /** Kubernetes versions this provider does not offer (providers drop old patches at different times). */
  omitKubernetes: readonly string[];
  /** Machine image versions ("<name>-<version>") this provider does not offer. */
  omitImageVersions: readonly string[];
  /** Days added to every expiry, so the profiles do not expire in lockstep. */
  shiftDays: number;
}

export const PROFILE_DEFS: readonly ProfileDef[] = [
  {
    name: "aws",
    type: "aws",
    regions: [
      { name: "eu-central-1", zones: ["eu-central-1a", "eu-central-1b", "eu-central-1c"] },
      { name: "us-east-1", zones: ["us-east-1a", "us-east-1b", "us-east-1c"] },
      { name: "eu-west-1", zones: ["eu-west-1a", "eu-west-1b", "eu-west-1c"] },
    ],
    machineTypes: [
      { name: "m5.large", cpu: "2", memory: "8Gi", kind: "general" },
      { name: "m5.xlarge", cpu: "4", memory: "16Gi", kind: "general" },
      { name: "m5.2xlarge", cpu: "8", memory: "32Gi", kind: "general" },
      { name: "r5.2xlarge", cpu: "8", memory: "64Gi", kind: "memory" },
      { name: "g4dn.xlarge", cpu: "4", memory: "16Gi", gpu: "1", kind: "gpu" },
      { name: "m6g.large", cpu: "2", memory: "8Gi", kind: "arm" },
      { name: "m6g.xlarge", cpu: "4", memory: "16Gi", kind: "arm" },
    ],
    images: ["gardenlinux", "suse-chost", "ubuntu"],
    omitKubernetes: [],
    omitImageVersions: [],
    shiftDays: 0,
  },
  {
    name: "gcp",
    type: "gcp",
    regions: [
      { name: "europe-west1", zones: ["europe-west1-b", "europe-west1-c", "europe-west1-d"] },
      { name: "asia-southeast1", zones: ["asia-southeast1-a", "asia-southeast1-b", "asia-southeast1-c"] },
      { name: "us-central1", zones: ["us-central1-a", "us-central1-b", "us-central1-c"] },
    ],
    machineTypes: [
      { name: "n2-standard-4", cpu: "4", memory: "16Gi", kind: "general" },
      { name: "n2-standard-8", cpu: "8", memory: "32Gi", kind: "general" },
      { name: "e2-standard-4", cpu: "4", memory: "16Gi", kind: "general" },
      { name: "n2-highmem-8", cpu: "8", memory: "64Gi", kind: "memory" },
      { name: "g2-standard-8", cpu: "8", memory: "32Gi", gpu: "1", kind: "gpu" },
      { name: "t2a-standard-4", cpu: "4", memory: "16Gi", kind: "arm" },
    ],
    images: ["gardenlinux", "ubuntu"],
    omitKubernetes: ["1.30.10", "1.30.11"],
    omitImageVersions: [],
    shiftDays: 1,
  },
  {
    name: "azure",
    type: "azure",
    regions: [
      { name: "westeurope", zones: ["1", "2", "3"] },
      { name: "eastus", zones: ["1", "2", "3"] },
      { name: "northeurope", zones: ["1", "2", "3"] },
    ],
    machineTypes: [
      { name: "Standard_D4s_v5", cpu: "4", memory: "16Gi", kind: "general" },
      { name: "Standard_D8s_v5", cpu: "8", memory: "32Gi", kind: "general" },
      { name: "Standard_E8s_v5", cpu: "8", memory: "64Gi", kind: "memory" },
      { name: "Standard_NC4as_T4_v3", cpu: "4", memory: "28Gi", gpu: "1", kind: "gpu" },
      { name: "Standard_D4ps_v5", cpu: "4", memory: "16Gi", kind: "arm" },
    ],
    images: ["gardenlinux", "suse-chost", "ubuntu"],
    omitKubernetes: ["1.30.12", "1.32.5"],
    // SUSE CHost 15.6 never came to this provider: once 15.5 expires, its pools have nowhere to
    // go under the "patch" strategy, which the forecast shows as stuck clusters.
    omitImageVersions: [
      "suse-chost-15.6.20251115",
      "suse-chost-15.6.20250901",
      "suse-chost-15.6.20250601",
      "suse-chost-15.7.20251101",
    ],
    shiftDays: -1,
  },
];

export type SeedHealth = "ready" | "gardenletUnknown" | "systemComponentsUnhealthy";

export interface SeedDef {
  name: string;
  profile: string;
  region: string;
  /** Where the seed is, to match shoot names like "ml-train-eu". */
  geo: "eu" | "us" | "ap";
  health: SeedHealth;
  taints: readonly { key: string; value?: string }[];
  /** Protected seeds only take shoots from the garden namespace, so no demo shoot lands there. */
  schedulable: boolean;
}

const PAYMENTS_TOLERATION: Toleration = { key: "dedicated", value: "payments" };

export const SEED_DEFS: readonly SeedDef[] = [
  {
    name: "aws-eu1",
    profile: "aws",
    region: "eu-central-1",
    geo: "eu",
    health: "ready",
    taints: [],
    schedulable: true,
  },
  {
    name: "aws-us1",
    profile: "aws",
    region: "us-east-1",
    geo: "us",
    health: "ready",
    taints: [PAYMENTS_TOLERATION],
    schedulable: true,
  },
  {
    name: "gcp-eu1",
    profile: "gcp",
    region: "europe-west1",
    geo: "eu",
    health: "ready",
    taints: [],
    schedulable: true,
  },
  // The gardenlet here stopped reporting: its shoots' conditions all turn Unknown.
  {
    name: "gcp-ap1",
    profile: "gcp",
    region: "asia-southeast1",
    geo: "ap",
    health: "gardenletUnknown",
    taints: [],
    schedulable: true,
  },
  {
    name: "azure-eu1",
    profile: "azure",
    region: "westeurope",
    geo: "eu",
    health: "ready",
    taints: [{ key: "seed.gardener.cloud/protected" }],
    schedulable: false,
  },
  {
    name: "azure-us1",
    profile: "azure",
    region: "eastus",
    geo: "us",
    health: "systemComponentsUnhealthy",
    taints: [],
    schedulable: true,
  },
];

export interface StageDef {
  suffix: string;
  purpose: "production" | "development" | "evaluation";
}

export interface ProjectDef {
  name: string;
  owner: string;
  members: readonly string[];
  description: string;
  purpose: string;
  tolerations?: { defaults?: readonly Toleration[]; whitelist?: readonly Toleration[] };
  /** Shoot names are "<base>-<stage>", then "<base>-<stage>-<n>" once the pairs run out. */
  bases: readonly string[];
  stages: readonly StageDef[];
  /** Preferred maintenance-window UTC offsets: where the team sits. */
  offsets: readonly string[];
}

const PROD: StageDef = { suffix: "prod", purpose: "production" };
const DEV: StageDef = { suffix: "dev", purpose: "development" };

export const PROJECT_DEFS: readonly ProjectDef[] = [
  {
    name: "platform",
    owner: "alice.schmidt@example.com",
    members: ["jonas.weber@example.com", "priya.nair@example.com"],
    description: "Shared platform services: ingress, observability, CI runners and the artifact registry.",
    purpose: "Runs the internal developer platform for all product teams.",
    tolerations: { whitelist: [PAYMENTS_TOLERATION] },
    bases: ["ingress", "monitoring", "logging", "ci-runners", "registry", "gitops", "vault", "dns"],
    stages: [PROD, { suffix: "stage", purpose: "development" }, DEV],
    offsets: ["+0100", "+0200", "+0000"],
  },
  {
    name: "payments",
    owner: "bob.meyer@example.com",
    members: ["carla.rossi@example.com", "david.okafor@example.com"],
    description: "Checkout, ledger and settlement services (PCI DSS scope).",
    purpose: "Payment processing; production clusters run on dedicated seeds.",
    tolerations: { defaults: [PAYMENTS_TOLERATION], whitelist: [PAYMENTS_TOLERATION] },
    bases: ["checkout", "ledger", "fraud-scoring", "card-vault", "invoicing", "settlement", "payouts"],
    stages: [PROD, { suffix: "canary", purpose: "production" }, { suffix: "stage", purpose: "development" }, DEV],
    offsets: ["-0500", "+0000", "+0100"],
  },
  {
    name: "analytics",
    owner: "eva.lindqvist@example.com",
    members: ["farid.haddad@example.com", "grace.tan@example.com"],
    description: "Data pipelines, ML training and reporting.",
    purpose: "Batch and streaming analytics, model training on GPU pools.",
    // A key alone: any value of "dedicated" may be tolerated (so the payments seed too, if asked).
    tolerations: { whitelist: [{ key: "dedicated" }] },
    bases: ["ml-train", "feature-store", "spark", "warehouse-etl", "dashboards", "notebooks", "stream-ingest"],
    stages: [
      { suffix: "eu", purpose: "production" },
      { suffix: "us", purpose: "production" },
      DEV,
      { suffix: "eval", purpose: "evaluation" },
    ],
    offsets: ["+0530", "+0900", "+0100"],
  },
  {
    name: "sandbox",
    owner: "henrik.larsen@example.com",
    members: ["ines.duarte@example.com"],
    description: "Short-lived clusters for experiments, workshops and proofs of concept.",
    purpose: "Anyone may create evaluation clusters here; they are hibernated at night.",
    bases: ["playground", "workshop", "poc-keda", "poc-cilium", "hackathon", "scratch"],
    stages: [{ suffix: "demo", purpose: "evaluation" }, { suffix: "trial", purpose: "evaluation" }, DEV],
    offsets: ["+0000", "-0500", "+0900", "+0530", "+0200"],
  },
];

/**
 * Tolerations some shoots carry besides their project's defaults, by "<project>/<shoot>": set by
 * name, never drawn, so the generated landscape stays the same.
 */
export const SHOOT_TOLERATIONS: Readonly<Record<string, readonly Toleration[]>> = {
  "platform/ingress-prod": [PAYMENTS_TOLERATION],
  "analytics/ml-train-us": [{ key: "dedicated", value: "gpu" }],
};
