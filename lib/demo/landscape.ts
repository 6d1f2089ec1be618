// A deterministic demo Gardener landscape: cloud profiles, seeds, projects, shoots and a short
// maintenance history, all relative to a given `now`. It exists so that every page of the
// dashboard has something worth showing without a real garden cluster: versions that expired or
// expire soon, shoots in every health state, tainted and broken seeds, windows in several time
// zones, and maintenance runs that explain how the shoots got to their current versions.
//
// The generator is pure: no clock, no Math.random(). The same options give byte-identical
// output. Each shoot draws from its own PRNG stream (seeded from the seed option and its index),
// and every "mix" (status, version expiry, project) is spread by index, so shoot i is the same
// whatever the total count, and even the default 64 shoots cover every case.
import { classificationAt, expiryTime } from "../engine/classification.ts";
import { shootStatusLabel } from "../engine/status-label.ts";
import { parseBound, parseTimeWindow, windowDurationSeconds } from "../engine/time-window.ts";
import { compareVersions, parseVersion } from "../engine/version.ts";
import {
  GARDENER_API_VERSION,
  type CloudProfile,
  type Condition,
  type ExpirableVersion,
  type LastError,
  type LastOperation,
  type MachineImage,
  type MachineImageVersion,
  type MachineType,
  type Project,
  type Seed,
  type Shoot,
  type Toleration,
  type Worker,
} from "../gardener/types.ts";

export interface LandscapeOptions {
  /** epoch ms; every date in the landscape is relative to it. */
  now: number;
  /** Number of shoots, default 64, at most 100000. */
  shoots?: number;
  /** PRNG seed, default 1. */
  seed?: number;
}

export interface DemoMaintenanceChange {
  /** "controlPlane", or the worker pool's name. */
  target: string;
  kind: "kubernetes" | "machineImage";
  from: string;
  to: string;
  reason: string;
}

export interface DemoMaintenanceRun {
  namespace: string;
  name: string;
  trigger: "window" | "maintain-now";
  state: "Succeeded" | "Failed";
  /** epoch ms */
  startedAt: number;
  finishedAt: number;
  /** What the run changed. Failed runs were rejected as a whole and changed nothing. */
  changes: DemoMaintenanceChange[];
  description: string;
  failureReason?: string;
}

export interface Landscape {
  cloudProfiles: CloudProfile[];
  seeds: Seed[];
  projects: Project[];
  shoots: Shoot[];
  maintenanceHistory: DemoMaintenanceRun[];
}

export const DEFAULT_SHOOT_COUNT = 64;
export const MAX_SHOOT_COUNT = 100_000;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

// ---------------------------------------------------------------------------------------------
// Randomness and time helpers
// ---------------------------------------------------------------------------------------------

interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Integer in [min, max], both inclusive. */
  int(min: number, max: number): number;
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
  weighted<T>(entries: readonly (readonly [T, number])[]): T;
}

/**
 * sfc32 (Chris Doty-Humphrey's Small Fast Counting generator): tiny and fast, with 128 bits of
 * state. A 32-bit generator such as mulberry32 is not enough here: its per-shoot streams overlap
 * and it can only produce 2^32 distinct uids, so 100000 shoots would share some.
 */
function sfc32(a: number, b: number, c: number, d: number): () => number {
  return () => {
    a >>>= 0;
    b >>>= 0;
    c >>>= 0;
    d >>>= 0;
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4_294_967_296;
  };
}

/** Mixes numbers into one 32-bit seed, so that neighbouring indexes get unrelated streams. */
function hashSeed(...parts: number[]): number {
  let h = 0x811c9dc5;
  for (const part of parts) {
    h = Math.imul(h ^ (part >>> 0), 0x01000193);
    h ^= h >>> 15;
    h = Math.imul(h, 0x85ebca6b);
    h ^= h >>> 13;
  }
  return h >>> 0;
}

/** A generator for one purpose (stream) of one item, independent of every other one. */
function createRng(...parts: number[]): Rng {
  const next = sfc32(hashSeed(...parts, 1), hashSeed(...parts, 2), hashSeed(...parts, 3), hashSeed(...parts, 4));
  for (let i = 0; i < 12; i++) next(); // the recommended warm-up, to spread similar seeds apart
  const rng: Rng = {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    chance: (p) => next() < p,
    pick: (items) => items[Math.floor(next() * items.length)],
    weighted: (entries) => {
      const total = entries.reduce((sum, [, w]) => sum + w, 0);
      let r = next() * total;
      for (const [item, w] of entries) {
        r -= w;
        if (r < 0) return item;
      }
      return entries[entries.length - 1][0];
    },
  };
  return rng;
}

/** A UUID v4-looking string (the version and variant nibbles are set like real ones). */
function uuid(rng: Rng): string {
  let hex = "";
  for (let i = 0; i < 4; i++) hex += Math.floor(rng.next() * 0x1_0000_0000).toString(16).padStart(8, "0");
  const variant = "89ab"[Math.floor(rng.next() * 4)];
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

const pad2 = (n: number) => (n < 10 ? `0${n}` : String(n));

/**
 * RFC 3339 in UTC without fractions, as Kubernetes writes timestamps. Computed by hand (Howard
 * Hinnant's days-to-civil) because Date#toISOString dominated the time for 100000 shoots.
 */
function iso(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  const days = Math.floor(seconds / 86_400);
  const secondOfDay = seconds - days * 86_400;
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  const hh = Math.floor(secondOfDay / 3600);
  const mm = Math.floor((secondOfDay % 3600) / 60);
  return `${year}-${pad2(month)}-${pad2(day)}T${pad2(hh)}:${pad2(mm)}:${pad2(secondOfDay % 60)}Z`;
}

/**
 * One cycle of a smooth weighted round robin (as nginx balances upstreams): every item appears
 * as often as its weight, spread out evenly rather than in blocks. Indexing into it by
 * `i % length` gives a mix that is exact for every full cycle and varied even for a few items.
 */
function interleave<T>(weights: readonly (readonly [T, number])[]): T[] {
  const total = weights.reduce((sum, [, w]) => sum + w, 0);
  const current = weights.map(() => 0);
  const cycle: T[] = [];
  for (let step = 0; step < total; step++) {
    let best = 0;
    weights.forEach(([, w], i) => {
      current[i] += w;
      if (current[i] > current[best]) best = i;
    });
    current[best] -= total;
    cycle.push(weights[best][0]);
  }
  return cycle;
}

// ---------------------------------------------------------------------------------------------
// Cloud profiles
// ---------------------------------------------------------------------------------------------

interface VersionDef {
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
// preview.
const KUBERNETES_VERSIONS: readonly VersionDef[] = [
  { version: "1.34.2", classification: "preview" },
  { version: "1.34.1", classification: "supported" },
  { version: "1.34.0", classification: "deprecated", expiresInDays: 200 },
  { version: "1.33.6", classification: "supported" },
  { version: "1.33.5", classification: "deprecated", expiresInDays: 150 },
  { version: "1.33.4", classification: "deprecated", expiresInDays: 150 },
  { version: "1.33.3", classification: "deprecated", expiresInDays: 120 },
  { version: "1.32.9", classification: "supported", expiresInDays: 210 },
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
const AMD64_ONLY = ["amd64"];

interface ImageDef {
  name: string;
  updateStrategy: "patch" | "minor" | "major";
  versions: readonly VersionDef[];
}

// One image per update strategy: Garden Linux moves within a major ("minor"), SUSE CHost within
// a minor ("patch", with dates as patch numbers like the real images), Ubuntu across majors.
const MACHINE_IMAGES: readonly ImageDef[] = [
  {
    name: "gardenlinux",
    updateStrategy: "minor",
    versions: [
      { version: "1877.4.0", classification: "preview", architectures: BOTH_ARCHS },
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
      { version: "15.6.20250901", classification: "supported", architectures: BOTH_ARCHS },
      { version: "15.6.20250601", classification: "deprecated", expiresInDays: 40, architectures: BOTH_ARCHS },
      { version: "15.5.20250315", classification: "deprecated", expiresInDays: 12, architectures: BOTH_ARCHS },
      { version: "15.5.20250101", classification: "deprecated", expiresInDays: -20, architectures: AMD64_ONLY },
    ],
  },
  {
    name: "ubuntu",
    updateStrategy: "major",
    versions: [
      { version: "24.4.3", classification: "supported", architectures: BOTH_ARCHS },
      { version: "24.4.1", classification: "deprecated", expiresInDays: 150, architectures: BOTH_ARCHS },
      { version: "22.4.5", classification: "deprecated", expiresInDays: 70, architectures: AMD64_ONLY },
      { version: "20.4.12", classification: "deprecated", expiresInDays: -45, architectures: AMD64_ONLY },
    ],
  },
];

/** What a pool needs from a machine type; internal, not written into the profile. */
type MachineKind = "general" | "memory" | "gpu" | "arm";

interface MachineTypeDef {
  name: string;
  cpu: string;
  memory: string;
  gpu?: string;
  kind: MachineKind;
}

interface ProfileDef {
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

const PROFILE_DEFS: readonly ProfileDef[] = [
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
    omitImageVersions: ["suse-chost-15.6.20250901", "suse-chost-15.6.20250601", "suse-chost-15.7.20251101"],
    shiftDays: -1,
  },
];

/** Expiry dates fall on the full hour: nicer to read, and far enough from bucket edges. */
function expiryDate(now: number, days: number): string {
  return iso(Math.floor(now / HOUR) * HOUR + days * DAY);
}

function expirableVersion(def: VersionDef, now: number, shiftDays: number): ExpirableVersion {
  return {
    version: def.version,
    classification: def.classification,
    ...(def.expiresInDays === undefined ? {} : { expirationDate: expiryDate(now, def.expiresInDays + shiftDays) }),
  };
}

function machineImage(def: ImageDef, now: number, shiftDays: number, omit: readonly string[]): MachineImage {
  return {
    name: def.name,
    updateStrategy: def.updateStrategy,
    versions: def.versions.filter((v) => !omit.includes(`${def.name}-${v.version}`)).map(
      (v): MachineImageVersion => ({
        ...expirableVersion(v, now, shiftDays),
        cri: [{ name: "containerd" }],
        architectures: [...(v.architectures ?? AMD64_ONLY)],
      }),
    ),
  };
}

function machineType(def: MachineTypeDef): MachineType {
  return {
    name: def.name,
    cpu: def.cpu,
    gpu: def.gpu ?? "0",
    memory: def.memory,
    architecture: def.kind === "arm" ? "arm64" : "amd64",
    usable: true,
  };
}

function buildCloudProfile(def: ProfileDef, now: number, rng: Rng): CloudProfile {
  return {
    apiVersion: GARDENER_API_VERSION,
    kind: "CloudProfile",
    metadata: {
      name: def.name,
      uid: uuid(rng),
      generation: rng.int(20, 90),
      creationTimestamp: iso(now - rng.int(700, 1100) * DAY),
    },
    spec: {
      type: def.type,
      kubernetes: {
        versions: KUBERNETES_VERSIONS.filter((v) => !def.omitKubernetes.includes(v.version)).map((v) =>
          expirableVersion(v, now, def.shiftDays),
        ),
      },
      machineImages: MACHINE_IMAGES.filter((image) => def.images.includes(image.name)).map((image) =>
        machineImage(image, now, def.shiftDays, def.omitImageVersions),
      ),
      machineTypes: def.machineTypes.map(machineType),
      regions: def.regions.map((r) => ({ name: r.name, zones: r.zones.map((name) => ({ name })) })),
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Seeds
// ---------------------------------------------------------------------------------------------

type SeedHealth = "ready" | "gardenletUnknown" | "systemComponentsUnhealthy";

interface SeedDef {
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

const SEED_DEFS: readonly SeedDef[] = [
  { name: "aws-eu1", profile: "aws", region: "eu-central-1", geo: "eu", health: "ready", taints: [], schedulable: true },
  { name: "aws-us1", profile: "aws", region: "us-east-1", geo: "us", health: "ready", taints: [PAYMENTS_TOLERATION], schedulable: true },
  { name: "gcp-eu1", profile: "gcp", region: "europe-west1", geo: "eu", health: "ready", taints: [], schedulable: true },
  // The gardenlet here stopped reporting: its shoots' conditions all turn Unknown.
  { name: "gcp-ap1", profile: "gcp", region: "asia-southeast1", geo: "ap", health: "gardenletUnknown", taints: [], schedulable: true },
  {
    name: "azure-eu1",
    profile: "azure",
    region: "westeurope",
    geo: "eu",
    health: "ready",
    taints: [{ key: "seed.gardener.cloud/protected" }],
    schedulable: false,
  },
  { name: "azure-us1", profile: "azure", region: "eastus", geo: "us", health: "systemComponentsUnhealthy", taints: [], schedulable: true },
];

/** When the gcp-ap1 gardenlet went silent; its shoots turned Unknown a little later. */
const GARDENLET_LOST_AGO = 3 * HOUR + 12 * MINUTE;

function seedConditions(health: SeedHealth, now: number, rng: Rng): Condition[] {
  const healthySince = iso(now - rng.int(5, 60) * DAY);
  const updated = iso(now - rng.int(5, 50) * 1000);
  const ok = (type: string, reason: string, message: string): Condition => ({
    type, status: "True", lastTransitionTime: healthySince, lastUpdateTime: updated, reason, message,
  });
  const conditions = [
    ok("GardenletReady", "GardenletReady", "Gardenlet is posting ready status."),
    ok("BackupBucketsReady", "BackupBucketsAvailable", "Backup Buckets are available."),
    ok("ExtensionsReady", "AllExtensionsReady", "All extensions installed into the seed cluster are ready and healthy."),
    ok("SeedSystemComponentsHealthy", "SystemComponentsRunning", "All system components are healthy."),
  ];
  if (health === "gardenletUnknown") {
    // Nobody updates the seed any more, so every condition is Unknown since the same moment.
    const lost = iso(now - GARDENLET_LOST_AGO);
    return conditions.map((c) => ({
      ...c,
      status: "Unknown",
      lastTransitionTime: lost,
      lastUpdateTime: lost,
      reason: "StatusUnknown",
      message: c.type === "GardenletReady" ? "Gardenlet stopped posting seed status." : "Gardenlet stopped updating seed conditions.",
    }));
  }
  if (health === "systemComponentsUnhealthy") {
    const since = iso(now - rng.int(40, 170) * MINUTE);
    conditions[3] = {
      type: "SeedSystemComponentsHealthy",
      status: "False",
      lastTransitionTime: since,
      lastUpdateTime: updated,
      reason: "DeploymentUnhealthy",
      message: 'Deployment "istio-ingress/istio-ingressgateway" is unhealthy: condition "Available" has invalid status False (expected True) due to MinimumReplicasUnavailable: Deployment does not have minimum availability.',
    };
  }
  return conditions;
}

function buildSeed(def: SeedDef, now: number, rng: Rng): Seed {
  return {
    apiVersion: GARDENER_API_VERSION,
    kind: "Seed",
    metadata: {
      name: def.name,
      uid: uuid(rng),
      generation: rng.int(3, 40),
      creationTimestamp: iso(now - rng.int(400, 900) * DAY),
      labels: { "seed.gardener.cloud/region": def.region },
    },
    spec: {
      provider: { type: def.profile, region: def.region },
      ...(def.taints.length > 0 ? { taints: def.taints.map((t) => ({ ...t })) } : {}),
      settings: { scheduling: { visible: def.schedulable } },
      ingress: { domain: `ingress.${def.name}.demo.gardener.example.com`, controller: { kind: "nginx" } },
      backup: { provider: def.profile, region: def.region },
    },
    status: {
      conditions: seedConditions(def.health, now, rng),
      kubernetesVersion: def.profile === "gcp" ? "1.32.9" : "1.33.6",
      gardener: { version: "v1.121.2" },
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Projects
// ---------------------------------------------------------------------------------------------

interface StageDef {
  suffix: string;
  purpose: "production" | "development" | "evaluation";
}

interface ProjectDef {
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

const PROJECT_DEFS: readonly ProjectDef[] = [
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

function buildProject(def: ProjectDef, now: number, rng: Rng): Project {
  const tolerations = def.tolerations
    ? {
        ...(def.tolerations.defaults ? { defaults: def.tolerations.defaults.map((t) => ({ ...t })) } : {}),
        ...(def.tolerations.whitelist ? { whitelist: def.tolerations.whitelist.map((t) => ({ ...t })) } : {}),
      }
    : undefined;
  return {
    apiVersion: GARDENER_API_VERSION,
    kind: "Project",
    metadata: {
      name: def.name,
      uid: uuid(rng),
      generation: rng.int(2, 30),
      creationTimestamp: iso(now - rng.int(300, 800) * DAY),
    },
    spec: {
      namespace: `garden-${def.name}`,
      description: def.description,
      purpose: def.purpose,
      owner: { kind: "User", name: def.owner },
      createdBy: { apiGroup: "rbac.authorization.k8s.io", kind: "User", name: def.owner },
      members: [
        { apiGroup: "rbac.authorization.k8s.io", kind: "User", name: def.owner, role: "admin", roles: ["owner"] },
        ...def.members.map((name, i) => ({ apiGroup: "rbac.authorization.k8s.io", kind: "User", name, role: i === 0 ? "admin" : "viewer" })),
      ],
      ...(tolerations ? { tolerations } : {}),
    },
    status: { phase: "Ready" },
  };
}

// ---------------------------------------------------------------------------------------------
// Version catalogue: each profile's versions sorted and bucketed once, for thousands of shoots
// ---------------------------------------------------------------------------------------------

/** How a version looks on the expiry countdown. */
type ExpiryBucket = "expired" | "within7" | "within30" | "within90" | "supported" | "deprecated" | "preview";

function expiryBucket(v: ExpirableVersion, now: number): ExpiryBucket {
  const classification = classificationAt(v, now);
  if (classification === "expired") return "expired";
  if (classification === "preview") return "preview";
  const expires = expiryTime(v);
  if (expires !== undefined && Number.isFinite(expires)) {
    const left = expires - now;
    if (left <= 7 * DAY) return "within7";
    if (left <= 30 * DAY) return "within30";
    if (left <= 90 * DAY) return "within90";
  }
  return classification === "deprecated" ? "deprecated" : "supported";
}

interface CatalogueVersion {
  entry: ExpirableVersion;
  major: number;
  minor: number;
  bucket: ExpiryBucket;
}

interface CatalogueImage {
  image: MachineImage;
  strategy: string;
  /** Ascending. */
  versions: (CatalogueVersion & { entry: MachineImageVersion })[];
  /** Per architecture: the versions a new pool may get, weighted towards supported ones. */
  choices: Map<string, (readonly [string, number])[]>;
}

interface Catalogue {
  profile: CloudProfile;
  def: ProfileDef;
  /** Ascending. */
  kubernetes: CatalogueVersion[];
  byBucket: Map<ExpiryBucket, string[]>;
  images: Map<string, CatalogueImage>;
  machineTypes: Map<MachineKind, MachineTypeDef[]>;
}

function catalogueVersions<T extends ExpirableVersion>(versions: readonly T[], now: number): (CatalogueVersion & { entry: T })[] {
  return versions
    .map((entry) => {
      const parsed = parseVersion(entry.version);
      return { entry, parsed, major: parsed.major, minor: parsed.minor, bucket: expiryBucket(entry, now) };
    })
    .sort((a, b) => compareVersions(a.parsed, b.parsed))
    .map(({ entry, major, minor, bucket }) => ({ entry, major, minor, bucket }));
}

function buildCatalogue(profile: CloudProfile, def: ProfileDef, now: number): Catalogue {
  const kubernetes = catalogueVersions(profile.spec.kubernetes.versions, now);
  const byBucket = new Map<ExpiryBucket, string[]>();
  for (const v of kubernetes) byBucket.set(v.bucket, [...(byBucket.get(v.bucket) ?? []), v.entry.version]);
  const images = new Map<string, CatalogueImage>();
  // Mostly supported images, a few close to or past expiry, rarely a preview.
  const weight = (b: ExpiryBucket) => (b === "preview" ? 0.3 : b === "expired" ? 0.8 : b === "supported" ? 6 : 2.5);
  for (const image of profile.spec.machineImages ?? []) {
    const versions = catalogueVersions(image.versions, now);
    const choices = new Map(
      ["amd64", "arm64"].map((arch) => [
        arch,
        versions.filter((v) => (v.entry.architectures ?? []).includes(arch)).map((v) => [v.entry.version, weight(v.bucket)] as const),
      ]),
    );
    images.set(image.name, { image, strategy: image.updateStrategy ?? "major", versions, choices });
  }
  const machineTypes = new Map<MachineKind, MachineTypeDef[]>();
  for (const type of def.machineTypes) machineTypes.set(type.kind, [...(machineTypes.get(type.kind) ?? []), type]);
  return { profile, def, kubernetes, byBucket, images, machineTypes };
}

/** The next lower version that an automatic update could have come from, within the strategy's scope. */
function predecessor<T extends CatalogueVersion>(versions: readonly T[], current: string, scope: "patch" | "minor" | "major"): T | undefined {
  const at = versions.findIndex((v) => v.entry.version === current);
  if (at <= 0) return undefined;
  const cur = versions[at];
  for (let i = at - 1; i >= 0; i--) {
    const v = versions[i];
    if (scope === "major") return v;
    if (v.major !== cur.major) return undefined;
    if (scope === "minor" || v.minor === cur.minor) return v;
    return undefined;
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Shoots: the mixes
// ---------------------------------------------------------------------------------------------

type Category = "healthy" | "reconciling" | "error" | "unknown" | "hibernated" | "creating" | "createFailed";

// Per 50 shoots: 60% healthy, 12% reconciling, 10% errors, 8% unknown, 6% hibernated, 4% creating.
const CATEGORY_CYCLE = interleave<Category>([
  ["healthy", 30],
  ["reconciling", 6],
  ["error", 5],
  ["unknown", 4],
  ["hibernated", 3],
  ["creating", 2],
]);

/** The one shoot that never got created (its slot in the cycle is a healthy one). */
const CREATE_FAILED_INDEX = 13;

function categoryOf(index: number): Category {
  return index === CREATE_FAILED_INDEX ? "createFailed" : CATEGORY_CYCLE[index % CATEGORY_CYCLE.length];
}

// Per 25 shoots: where the control plane version sits on the expiry countdown.
const KUBERNETES_BUCKET_CYCLE = interleave<ExpiryBucket>([
  ["supported", 10],
  ["within90", 4],
  ["within30", 3],
  ["expired", 3],
  ["within7", 2],
  ["deprecated", 2],
  ["preview", 1],
]);

const PROJECT_CYCLE = interleave<number>([
  [0, 6],
  [1, 5],
  [2, 5],
  [3, 4],
]);

// The order of the first pools' images, so every update strategy shows up among few shoots.
const FIRST_POOL_IMAGES = ["gardenlinux", "suse-chost", "gardenlinux", "ubuntu", "gardenlinux"];

const CONDITION_TYPES = [
  "APIServerAvailable",
  "ControlPlaneHealthy",
  "ObservabilityComponentsHealthy",
  "EveryNodeReady",
  "SystemComponentsHealthy",
] as const;

type ConditionType = (typeof CONDITION_TYPES)[number];

const HEALTHY_CONDITIONS: Record<ConditionType, { reason: string; message: string }> = {
  APIServerAvailable: { reason: "HealthzRequestSucceeded", message: "API server /healthz endpoint responded with success status code." },
  ControlPlaneHealthy: { reason: "ControlPlaneRunning", message: "All control plane components are healthy." },
  ObservabilityComponentsHealthy: { reason: "ObservabilityComponentsRunning", message: "All observability components are healthy." },
  EveryNodeReady: { reason: "EveryNodeReady", message: "All nodes are ready." },
  SystemComponentsHealthy: { reason: "SystemComponentsRunning", message: "All system components are healthy." },
};

interface ErrorDef {
  code: string;
  /** Error: retried by gardenlet; Failed: needs a human. */
  state: "Error" | "Failed";
  taskID: string;
  message: Record<string, string>;
  condition: ConditionType;
  conditionReason: string;
  conditionMessage: string;
}

const WAIT_INFRASTRUCTURE = "Waiting until shoot infrastructure has been reconciled";
const WAIT_WORKERS = "Waiting until shoot worker nodes have been reconciled";

const ERRORS: readonly ErrorDef[] = [
  {
    code: "ERR_INFRA_RATE_LIMITS_EXCEEDED",
    state: "Error",
    taskID: WAIT_INFRASTRUCTURE,
    message: {
      aws: "RequestLimitExceeded: Request limit exceeded.\n\tstatus code: 503",
      gcp: "googleapi: Error 429: Quota exceeded for quota metric 'Queries' and limit 'Queries per minute' of service 'compute.googleapis.com', rateLimitExceeded",
      azure: "TooManyRequests: The request is being throttled as the limit has been reached for operation type - Write_ObservationWindow_00:01:00.",
    },
    condition: "EveryNodeReady",
    conditionReason: "MachinesNotReady",
    conditionMessage: "Machines could not be reconciled because the provider API throttled the requests.",
  },
  {
    code: "ERR_INFRA_QUOTA_EXCEEDED",
    state: "Failed",
    taskID: WAIT_WORKERS,
    message: {
      aws: "VcpuLimitExceeded: You have requested more vCPU capacity than your current vCPU limit of 256 allows for the instance bucket that the specified instance type belongs to.",
      gcp: "googleapi: Error 403: Quota 'CPUS' exceeded. Limit: 96.0 in region europe-west1., quotaExceeded",
      azure: "OperationNotAllowed: Operation could not be completed as it results in exceeding approved standardDSv5Family Cores quota.",
    },
    condition: "EveryNodeReady",
    conditionReason: "MissingNodes",
    conditionMessage: "Not enough worker nodes registered in the cluster to meet the minimum desired machine count (2/3).",
  },
  {
    code: "ERR_CONFIGURATION_PROBLEM",
    state: "Failed",
    taskID: WAIT_INFRASTRUCTURE,
    message: {
      aws: "InvalidParameterValue: Value (10.180.0.0/16) for parameter cidrBlock is invalid. This block does not fall within the VPC CIDR.",
      gcp: "googleapi: Error 400: Invalid value for field 'resource.ipCidrRange': '10.180.0.0/16'. Invalid IPCidrRange: 10.180.0.0/16 conflicts with existing subnetwork 'nodes'., invalid",
      azure: "InvalidRequestFormat: Subnet 'nodes' is not valid because its IP address range overlaps with that of an existing subnet in virtual network.",
    },
    condition: "SystemComponentsHealthy",
    conditionReason: "ManagedResourceNotHealthy",
    conditionMessage: 'ManagedResource "shoot-core-system" is unhealthy: the infrastructure could not be reconciled.',
  },
  {
    code: "ERR_INFRA_UNAUTHORIZED",
    state: "Failed",
    taskID: WAIT_INFRASTRUCTURE,
    message: {
      aws: "UnauthorizedOperation: You are not authorized to perform this operation.\n\tstatus code: 403",
      gcp: "googleapi: Error 403: Required 'compute.networks.update' permission for 'projects/demo-landscape/global/networks/shoot-network', forbidden",
      azure: "AuthorizationFailed: The client does not have authorization to perform action 'Microsoft.Network/virtualNetworks/write' over the scope of the resource group.",
    },
    condition: "ControlPlaneHealthy",
    conditionReason: "DeploymentUnhealthy",
    conditionMessage: 'Deployment "machine-controller-manager" is unhealthy: the cloud provider credentials are not authorized.',
  },
  {
    code: "ERR_INFRA_DEPENDENCIES",
    state: "Failed",
    taskID: WAIT_INFRASTRUCTURE,
    message: {
      aws: "DependencyViolation: resource sg-0a1b2c3d4e5f60718 has a dependent object\n\tstatus code: 400",
      gcp: "googleapi: Error 400: The firewall rule is already being used by 'projects/demo-landscape/global/networks/shoot-network', resourceInUseByAnotherResource",
      azure: "InUseSubnetCannotBeDeleted: Subnet nodes is in use by a network interface and cannot be deleted.",
    },
    condition: "SystemComponentsHealthy",
    conditionReason: "ManagedResourceNotHealthy",
    conditionMessage: 'ManagedResource "shoot-core-system" is unhealthy: the infrastructure could not be reconciled.',
  },
];

const RECONCILE_TASKS = [
  "Deploying Shoot infrastructure",
  WAIT_INFRASTRUCTURE,
  "Deploying Kubernetes API server",
  "Waiting until the Kubernetes API server rolled out",
  "Reconciling shoot worker nodes",
  WAIT_WORKERS,
  "Deploying managed resources for system components",
];

// Why the API server rejected a maintenance update (the controller's dry run), by purpose.
const MAINTENANCE_REJECTIONS = [
  'Internal error occurred: failed calling webhook "validate.kyverno.svc-fail": failed to call webhook: context deadline exceeded',
  'Operation cannot be fulfilled on shoots.core.gardener.cloud "{name}": the object has been modified; please apply your changes to the latest version and try again',
];
const PRODUCTION_REJECTION =
  'admission webhook "shoot-policy.platform.example.com" denied the request: changes to production shoots are frozen until the quarter closes';

// ---------------------------------------------------------------------------------------------
// Shoots: building one
// ---------------------------------------------------------------------------------------------

interface Context {
  now: number;
  seed: number;
  catalogues: Map<string, Catalogue>;
  /** Memoised seedChoices per project and name suffix. */
  seedChoices: Map<string, (readonly [SeedDef, number])[]>;
}

interface ShootDraft {
  shoot: Shoot;
  category: Category;
  catalogue: Catalogue;
  createdAt: number;
}

/** The shoot's name within its project: "<base>-<stage>[-n]" is unique per k. */
function shootName(project: ProjectDef, k: number): { name: string; stage: StageDef } {
  const bases = project.bases.length;
  const stages = project.stages.length;
  const base = project.bases[k % bases];
  const stage = project.stages[Math.floor(k / bases) % stages];
  const round = Math.floor(k / (bases * stages));
  return { name: round === 0 ? `${base}-${stage.suffix}` : `${base}-${stage.suffix}-${round + 1}`, stage };
}

/** The seeds a project's shoot may land on (weighted), preferring the geography its name hints at. */
function seedChoices(project: ProjectDef, stageSuffix: string): (readonly [SeedDef, number])[] {
  const tolerated = (s: SeedDef) =>
    s.taints.every((t) => (project.tolerations?.defaults ?? []).some((tol) => tol.key === t.key && tol.value === t.value));
  const candidates = SEED_DEFS.filter((s) => s.schedulable && s.health !== "gardenletUnknown" && tolerated(s));
  const inGeo = candidates.filter((s) => s.geo === stageSuffix);
  const pool = inGeo.length > 0 ? inGeo : candidates;
  // aws is the biggest provider in this garden; a dedicated seed takes most of its team's shoots.
  return pool.map((s) => [s, s.taints.length > 0 ? 9 : s.profile === "aws" ? 4 : s.profile === "gcp" ? 3 : 2] as const);
}

function chooseSeed(ctx: Context, category: Category, project: ProjectDef, stageSuffix: string, rng: Rng): SeedDef {
  // Shoots on the seed whose gardenlet is gone are exactly the ones with Unknown conditions.
  if (category === "unknown") return SEED_DEFS.find((s) => s.health === "gardenletUnknown")!;
  const key = `${project.name}|${stageSuffix}`;
  let choices = ctx.seedChoices.get(key);
  if (!choices) ctx.seedChoices.set(key, (choices = seedChoices(project, stageSuffix)));
  return rng.weighted(choices);
}

function chooseKubernetesVersion(catalogue: Catalogue, bucket: ExpiryBucket, category: Category, rng: Rng): string {
  // A shoot cannot be created on an expired version.
  const wanted = (category === "creating" || category === "createFailed") && bucket === "expired" ? "supported" : bucket;
  const versions = catalogue.byBucket.get(wanted) ?? catalogue.byBucket.get("supported")!;
  return rng.pick(versions);
}

function maintenanceWindow(offset: string, rng: Rng): { begin: string; end: string } {
  // Local night time, 1 to 4 hours long (Gardener allows 30 minutes to 6 hours).
  const beginMinutes = rng.pick([22, 23, 0, 1, 2, 3]) * 60 + rng.pick([0, 30]);
  const endMinutes = (beginMinutes + rng.pick([60, 90, 120, 180, 240])) % (24 * 60);
  const clock = (m: number) => `${String(Math.floor(m / 60)).padStart(2, "0")}${String(m % 60).padStart(2, "0")}00${offset}`;
  return { begin: clock(beginMinutes), end: clock(endMinutes) };
}

interface PoolTemplate {
  name: string;
  kind: MachineKind;
}

const FIRST_POOL_NAMES = ["worker", "system", "default"];
const EXTRA_POOLS: readonly PoolTemplate[] = [
  { name: "compute", kind: "general" },
  { name: "highmem", kind: "memory" },
  { name: "gpu", kind: "gpu" },
  { name: "arm", kind: "arm" },
  { name: "batch", kind: "general" },
];

function chooseImageVersion(image: CatalogueImage, architecture: string, rng: Rng): string | undefined {
  const choices = image.choices.get(architecture) ?? [];
  return choices.length === 0 ? undefined : rng.weighted(choices);
}

function buildWorkers(catalogue: Catalogue, index: number, controlPlane: string, zones: readonly string[], rng: Rng): Worker[] {
  const count = rng.weighted([[1, 50], [2, 35], [3, 15]] as const);
  const templates: PoolTemplate[] = [{ name: rng.pick(FIRST_POOL_NAMES), kind: rng.chance(0.15) ? "arm" : "general" }];
  const extras = [...EXTRA_POOLS];
  while (templates.length < count) templates.push(extras.splice(rng.int(0, extras.length - 1), 1)[0]);

  const cp = parseVersion(controlPlane);
  const shootImage = FIRST_POOL_IMAGES[index % FIRST_POOL_IMAGES.length];
  return templates.map((template, i) => {
    const type = rng.pick(catalogue.machineTypes.get(template.kind)!);
    const architecture = template.kind === "arm" ? "arm64" : "amd64";
    // Pools mostly share the first pool's image; the fallback covers profiles without it
    // (gcp has no suse-chost) and images without a version for the pool's architecture.
    let imageName = i === 0 || rng.chance(0.7) ? shootImage : rng.pick(catalogue.def.images);
    let image = catalogue.images.get(imageName);
    let version = image && chooseImageVersion(image, architecture, rng);
    if (!image || !version) {
      imageName = "gardenlinux";
      image = catalogue.images.get(imageName)!;
      version = chooseImageVersion(image, architecture, rng)!;
    }
    const minimum = template.kind === "gpu" ? rng.int(0, 1) : rng.int(1, 3);
    const worker: Worker = {
      name: template.name,
      machine: { type: type.name, image: { name: imageName, version }, architecture },
      minimum,
      maximum: minimum + rng.int(2, 10),
      maxSurge: 1,
      maxUnavailable: 0,
      cri: { name: "containerd" },
      zones: zones.slice(0, rng.int(1, zones.length)),
      volume: { type: catalogue.def.type === "aws" ? "gp3" : catalogue.def.type === "gcp" ? "pd-balanced" : "StandardSSD_LRS", size: `${rng.pick([50, 80, 100, 200])}Gi` },
    };
    // Some extra pools lag one minor behind the control plane, as teams roll node upgrades
    // separately; never above the control plane.
    if (i > 0 && rng.chance(0.3)) {
      const lower = catalogue.kubernetes.filter((v) => v.major === cp.major && v.minor === cp.minor - 1 && v.bucket !== "preview");
      if (lower.length > 0) worker.kubernetes = { version: lower[lower.length - 1].entry.version };
    }
    return worker;
  });
}

/** A condition; times are ISO strings so that one string can be shared by several conditions. */
function conditionOf(type: string, status: string, reason: string, message: string, since: string, updated: string, codes?: string[]): Condition {
  return {
    type,
    status,
    lastTransitionTime: since,
    lastUpdateTime: updated,
    reason,
    message,
    ...(codes ? { codes } : {}),
  };
}

/**
 * All five conditions True. The care controller patches all conditions at once every minute
 * (one lastUpdateTime); most turned True together after the last rollout, one or two later
 * after a short hiccup.
 */
function healthyConditions(now: number, createdAt: number, checked: string, rng: Rng): Condition[] {
  const settled = Math.max(createdAt + 20 * MINUTE, now - rng.int(3, 60) * DAY - rng.int(0, 1439) * MINUTE);
  const stable = iso(settled);
  const recovered = iso(settled + rng.int(1, Math.max(1, Math.floor((now - settled) / MINUTE) - 5)) * MINUTE);
  const hiccup = rng.int(0, 9);
  return CONDITION_TYPES.map((type, i) =>
    conditionOf(type, "True", HEALTHY_CONDITIONS[type].reason, HEALTHY_CONDITIONS[type].message, i === hiccup ? recovered : stable, checked),
  );
}

function initializedConditions(createdAt: number): Condition[] {
  const at = iso(createdAt + MINUTE);
  return CONDITION_TYPES.map((type) =>
    conditionOf(type, "Unknown", "ConditionInitialized", "The condition has been initialized but its semantic check has not been performed yet.", at, at),
  );
}

/** The constraints of some shoots: problematic webhooks and CA certificates close to expiry. */
function constraintsFor(category: Category, now: number, createdAt: number, rng: Rng): Condition[] | undefined {
  if (category === "creating" || category === "createFailed" || !rng.chance(0.35)) return undefined;
  const since = iso(Math.max(createdAt + HOUR, now - rng.int(1, 30) * DAY));
  const updated = iso(now - rng.int(5, 55) * 1000);
  // A hibernated shoot got hibernated, so hibernation must have been possible.
  const problematic = category !== "hibernated" && rng.chance(0.4);
  const webhook = problematic
    ? {
        status: "False",
        reason: "ProblematicWebhooks",
        message:
          'ValidatingWebhookConfiguration "kyverno-resource-validating-webhook-cfg" is problematic: webhook "validate.kyverno.svc-fail" with failurePolicy "Fail" and 30s timeout might prevent worker nodes from properly joining the shoot cluster.',
        codes: ["ERR_PROBLEMATIC_WEBHOOK"],
      }
    : { status: "True", reason: "NoProblematicWebhooks", message: "All webhooks are properly configured." };
  const constraints = [
    conditionOf("HibernationPossible", webhook.status, webhook.reason, webhook.message, since, updated, webhook.codes),
    conditionOf("MaintenancePreconditionsSatisfied", webhook.status, webhook.reason, webhook.message, since, updated, webhook.codes),
  ];
  if (now - createdAt > 300 * DAY && rng.chance(0.5)) {
    const caExpiry = iso(now + rng.int(60, 300) * DAY);
    constraints.push(
      conditionOf(
        "CACertificateValiditiesAcceptable",
        "False",
        "ExpiringCACertificates",
        `Some CA certificates are expiring in less than 1y, consider rotating them: ca (expiring at ${caExpiry}), ca-client (expiring at ${caExpiry})`,
        since,
        updated,
      ),
    );
  }
  return constraints;
}

interface StatusParts {
  conditions: Condition[];
  lastOperation: LastOperation;
  lastErrors?: LastError[];
}

function statusFor(category: Category, k: number, ctx: Context, provider: string, workers: readonly Worker[], createdAt: number, rng: Rng): StatusParts {
  const { now } = ctx;
  // The last run of the care controller (every minute), shared by the conditions it wrote.
  const checked = iso(now - rng.int(5, 55) * 1000);
  const succeeded = (at: number, description = "Shoot cluster has been successfully reconciled."): LastOperation => ({
    type: "Reconcile", state: "Succeeded", progress: 100, description, lastUpdateTime: iso(at),
  });
  switch (category) {
    case "healthy":
      return { conditions: healthyConditions(now, createdAt, checked, rng), lastOperation: succeeded(now - rng.int(10, 23 * 60) * MINUTE) };
    case "hibernated": {
      // Gardener stops checking a hibernated cluster and says so in every condition.
      const since = Math.max(createdAt + HOUR, now - rng.int(1, 20) * DAY);
      const sinceText = iso(since);
      const conditions = CONDITION_TYPES.map((type) =>
        conditionOf(type, "True", "ConditionNotChecked", "Shoot cluster has been hibernated.", sinceText, checked),
      );
      return { conditions, lastOperation: succeeded(since + rng.int(5, 25) * MINUTE) };
    }
    case "unknown": {
      // Lost together with the seed's gardenlet: Unknown since shortly after the seed.
      const since = iso(now - GARDENLET_LOST_AGO + rng.int(1, 5) * MINUTE);
      const conditions = CONDITION_TYPES.map((type) =>
        conditionOf(type, "Unknown", "StatusUnknown", "Gardenlet stopped updating the shoot status.", since, since),
      );
      return { conditions, lastOperation: succeeded(now - GARDENLET_LOST_AGO - rng.int(30, 20 * 60) * MINUTE) };
    }
    case "reconciling": {
      const task = rng.int(0, RECONCILE_TASKS.length - 1);
      const progress = Math.min(90, 10 + task * 12 + rng.int(0, 8));
      const conditions = healthyConditions(now, createdAt, checked, rng);
      // Two out of three show the rollout in a condition (status label "progressing"); the
      // others reconcile without any visible effect yet.
      if (k % 3 !== 2) {
        const at = iso(now - rng.int(2, 15) * MINUTE);
        conditions[3] = conditionOf("EveryNodeReady", "Progressing", "NodesRollingUpdate", `Worker pool "${workers[0].name}" is being rolled out: ${rng.int(1, 2)}/3 machines updated.`, at, checked);
        if (k % 2 === 0) {
          conditions[4] = conditionOf("SystemComponentsHealthy", "Progressing", "ManagedResourceProgressing", 'ManagedResource "shoot-core-system" is progressing: DaemonSet "kube-system/kube-proxy" is rolling out.', at, checked);
        }
      }
      return {
        conditions,
        lastOperation: { type: "Reconcile", state: "Processing", progress, description: RECONCILE_TASKS[task], lastUpdateTime: iso(now - rng.int(1, 20) * MINUTE) },
      };
    }
    case "error": {
      const error = ERRORS[k % ERRORS.length];
      const at = now - rng.int(5, error.state === "Error" ? 45 : 6 * 60) * MINUTE;
      const conditions = healthyConditions(now, createdAt, checked, rng);
      const failing = CONDITION_TYPES.indexOf(error.condition);
      conditions[failing] = conditionOf(error.condition, "False", error.conditionReason, error.conditionMessage, iso(at - rng.int(10, 120) * MINUTE), checked, [error.code]);
      const detail = `task "${error.taskID}" failed: ${error.message[provider]}`;
      const retry = error.state === "Error" ? " Operation will be retried." : "";
      return {
        conditions,
        lastOperation: {
          type: "Reconcile",
          state: error.state,
          progress: rng.int(20, 80),
          description: `Flow "Shoot cluster reconciliation" encountered task errors: [${detail}]${retry}`,
          lastUpdateTime: iso(at),
        },
        lastErrors: [{ description: detail, taskID: error.taskID, codes: [error.code], lastUpdateTime: iso(at) }],
      };
    }
    case "creating": {
      const task = rng.int(0, 4);
      return {
        conditions: initializedConditions(createdAt),
        lastOperation: { type: "Create", state: "Processing", progress: 10 + task * 15, description: RECONCILE_TASKS[task], lastUpdateTime: iso(now - rng.int(1, 4) * MINUTE) },
      };
    }
    case "createFailed": {
      const error = ERRORS.find((e) => e.code === "ERR_INFRA_UNAUTHORIZED")!;
      const at = createdAt + rng.int(8, 25) * MINUTE;
      const detail = `task "${error.taskID}" failed: ${error.message[provider]}`;
      return {
        conditions: initializedConditions(createdAt),
        lastOperation: {
          type: "Create",
          state: "Failed",
          progress: 15,
          description: `Flow "Shoot cluster creation" encountered task errors: [${detail}]`,
          lastUpdateTime: iso(at),
        },
        lastErrors: [{ description: detail, taskID: error.taskID, codes: [error.code], lastUpdateTime: iso(at) }],
      };
    }
  }
}

/** Creation time: old enough to have been created on its (possibly now expired) version. */
function creationTime(category: Category, catalogue: Catalogue, version: string, now: number, rng: Rng): number {
  if (category === "creating") return now - rng.int(6, 40) * MINUTE;
  if (category === "createFailed") return now - rng.int(2, 30) * HOUR;
  let created = now - rng.int(10, 540) * DAY - rng.int(0, 1439) * MINUTE;
  const entry = catalogue.kubernetes.find((v) => v.entry.version === version)!.entry;
  const expires = expiryTime(entry);
  if (expires !== undefined && expires < now) created = Math.min(created, expires - rng.int(30, 200) * DAY);
  return created;
}

/**
 * Shoot number `index`: the k-th of its project and the categoryCount-th of its category (the
 * latter picks the error code and the reconcile variant, so those rotate too).
 */
function buildShoot(ctx: Context, index: number, category: Category, categoryCount: number, project: ProjectDef, k: number): ShootDraft {
  const { now } = ctx;
  const rng = createRng(ctx.seed, 0x5400, index);
  const { name, stage } = shootName(project, k);
  const purpose = project.name === "sandbox" ? (stage.suffix === "dev" ? "development" : "evaluation") : stage.purpose;
  const seed = chooseSeed(ctx, category, project, stage.suffix, rng);
  const catalogue = ctx.catalogues.get(seed.profile)!;
  const region = catalogue.def.regions.find((r) => r.name === seed.region)!;

  const version = chooseKubernetesVersion(catalogue, KUBERNETES_BUCKET_CYCLE[index % KUBERNETES_BUCKET_CYCLE.length], category, rng);
  const workers = buildWorkers(catalogue, index, version, region.zones, rng);
  const createdAt = creationTime(category, catalogue, version, now, rng);
  const uid = uuid(rng);
  const namespace = `garden-${project.name}`;
  const production = purpose === "production";

  const offset = project.offsets[k % project.offsets.length];
  const maintenance = {
    timeWindow: maintenanceWindow(offset, rng),
    autoUpdate: {
      kubernetesVersion: rng.chance(production ? 0.5 : 0.85),
      machineImageVersion: rng.chance(production ? 0.8 : 0.95),
    },
    ...(production && rng.chance(0.3) ? { confineSpecUpdateRollout: true } : {}),
  };

  // From 1.34 on, Gardener's maintenance migrates secretBindingName to a CredentialsBinding.
  const minor = parseVersion(version).minor;
  const credentials =
    minor >= 34 || rng.chance(0.2)
      ? { credentialsBindingName: `${seed.profile}-${project.name}` }
      : { secretBindingName: `${seed.profile}-${project.name}` };

  const status = statusFor(category, categoryCount, ctx, seed.profile, workers, createdAt, rng);
  const generation = category === "creating" || category === "createFailed" ? 1 : rng.int(2, 60);
  const constraints = constraintsFor(category, now, createdAt, rng);
  const tolerations = project.tolerations?.defaults;

  const shoot: Shoot = {
    apiVersion: GARDENER_API_VERSION,
    kind: "Shoot",
    metadata: {
      name,
      namespace,
      uid,
      resourceVersion: String(rng.int(10_000_000, 999_999_999)),
      generation,
      creationTimestamp: iso(createdAt),
      annotations: {
        "gardener.cloud/created-by": rng.pick([project.owner, ...project.members]),
        ...(status.lastOperation.state === "Failed" && category === "error" && k % 2 === 0
          ? { "maintenance.shoot.gardener.cloud/needs-retry-operation": "true" }
          : {}),
      },
    },
    spec: {
      cloudProfile: { kind: "CloudProfile", name: catalogue.profile.metadata.name },
      cloudProfileName: catalogue.profile.metadata.name,
      region: seed.region,
      seedName: seed.name,
      ...credentials,
      purpose,
      provider: { type: catalogue.def.type, workers },
      kubernetes: { version },
      networking: { type: rng.chance(0.6) ? "calico" : "cilium", nodes: "10.250.0.0/16", pods: "100.64.0.0/12", services: "100.104.0.0/13" },
      maintenance,
      ...(category === "hibernated" ? { hibernation: { enabled: true } } : {}),
      ...(tolerations ? { tolerations: tolerations.map((t) => ({ ...t })) } : {}),
    },
    status: {
      conditions: status.conditions,
      ...(constraints ? { constraints } : {}),
      gardener: { version: "v1.121.2" },
      hibernated: category === "hibernated",
      lastOperation: status.lastOperation,
      ...(status.lastErrors ? { lastErrors: status.lastErrors } : {}),
      observedGeneration: generation,
      // The one shoot that never got created was not yet written to a seed.
      ...(category === "createFailed" ? {} : { seedName: seed.name }),
      technicalID: `shoot--${project.name}--${name}`,
      uid,
    },
  };
  // The label Gardener keeps in sync with the status; computed by the engine so they agree.
  shoot.metadata = { ...shoot.metadata, labels: { "shoot.gardener.cloud/status": shootStatusLabel(shoot) } };
  return { shoot, category, catalogue, createdAt };
}

// ---------------------------------------------------------------------------------------------
// Maintenance history: past runs that lead to each shoot's current versions
// ---------------------------------------------------------------------------------------------

const K8S_AUTO = "Automatic update of Kubernetes version configured";
const K8S_EXPIRED = "Kubernetes version expired - force update required";
const imageReason = (expired: boolean, strategy: string) =>
  expired
    ? `Machine image version expired - force update required (image update strategy: ${strategy})`
    : `Automatic update of the machine image version is configured (image update strategy: ${strategy})`;

/** Whether a maintenance run at `at` could have moved to `version`: it must have been offered and not in preview. */
function couldUpdateTo(entry: ExpirableVersion, at: number): boolean {
  const c = classificationAt(entry, at);
  return c === "supported" || c === "deprecated";
}

function describeChange(change: DemoMaintenanceChange, worker?: Worker): string {
  if (change.kind === "kubernetes") {
    return `Control Plane: Updated Kubernetes version from "${change.from}" to "${change.to}". Reason: ${change.reason}`;
  }
  return `Worker pool "${change.target}": Updated machine image "${worker?.machine.image?.name}" from "${change.from}" to "${change.to}". Reason: ${change.reason}`;
}

/**
 * Run start times, newest first, on distinct days of the last 30: in the shoot's window, or at
 * office hours that day when someone asked for "maintain now" (always so for the newest run if
 * `newestByHand`, so that even a small landscape shows both triggers). The newest run is one of
 * the latest `newestWithin` windows.
 */
function runTimes(
  shoot: Shoot,
  count: number,
  newestWithin: number,
  newestByHand: boolean,
  now: number,
  rng: Rng,
): { at: number; trigger: DemoMaintenanceRun["trigger"] }[] {
  const tw = shoot.spec.maintenance!.timeWindow!;
  const begin = parseBound(tw.begin) * 1000;
  const spreadMinutes = Math.max(0, windowDurationSeconds(parseTimeWindow(tw.begin, tw.end)) / 60 - 30);
  // Past window openings, newest first, leaving two hours for the latest run to finish.
  const openings: number[] = [];
  for (let d = 0; d <= 31; d++) {
    const at = Math.floor((now - d * DAY) / DAY) * DAY + begin;
    if (at <= now - 3 * HOUR && at >= now - 30 * DAY) openings.push(at);
  }
  const picked = new Set<number>([rng.int(0, Math.min(newestWithin, openings.length) - 1)]);
  while (picked.size < Math.min(count, openings.length)) picked.add(rng.int(0, openings.length - 1));
  return [...picked]
    .sort((a, b) => a - b)
    .map((k, i) => {
      const opening = openings[k];
      if ((i === 0 && newestByHand) || rng.chance(0.05)) {
        const midnight = Math.floor(opening / DAY) * DAY;
        return { at: Math.min(midnight + rng.int(7 * 60, 19 * 60) * MINUTE, now - 2 * HOUR), trigger: "maintain-now" as const };
      }
      return { at: opening + rng.int(0, spreadMinutes) * MINUTE, trigger: "window" as const };
    })
    .sort((a, b) => b.at - a.at);
}

function buildHistory(draft: ShootDraft, historyIndex: number, now: number, seed: number, index: number): DemoMaintenanceRun[] {
  const { shoot, catalogue } = draft;
  const rng = createRng(seed, 0x4d41, index);
  const cpEntry = catalogue.kubernetes.find((v) => v.entry.version === shoot.spec.kubernetes.version)!;
  const cpExpired = cpEntry.bucket === "expired";
  // A shoot still on an expired version was not force-updated: its latest run must have failed.
  const newestFailed = cpExpired || historyIndex % 10 === 3;
  const times = runTimes(shoot, rng.int(1, 4), newestFailed ? 2 : 10, historyIndex % 8 === 5, now, rng);
  const auto = shoot.spec.maintenance?.autoUpdate ?? {};
  const workers = shoot.spec.provider?.workers ?? [];

  // Walk back in time from the current versions: each successful run moved something from
  // its predecessor to what the shoot has now (or had at the next run).
  let controlPlane = shoot.spec.kubernetes.version;
  const images = new Map(workers.map((w) => [w.name, w.machine.image!.version!]));
  const runs: DemoMaintenanceRun[] = [];
  times.forEach(({ at, trigger }, i) => {
    const finishedAt = at + rng.int(2, 25) * MINUTE;
    const base = { namespace: shoot.metadata.namespace!, name: shoot.metadata.name, trigger, startedAt: at, finishedAt };
    if ((i === 0 && newestFailed) || (i > 0 && rng.chance(0.05))) {
      const rejections = shoot.spec.purpose === "production" ? [...MAINTENANCE_REJECTIONS, PRODUCTION_REJECTION] : MAINTENANCE_REJECTIONS;
      const rejection = rng.pick(rejections).replace("{name}", shoot.metadata.name);
      runs.push({ ...base, state: "Failed", changes: [], description: "Maintenance failed", failureReason: `Updates to the Shoot failed to be applied: ${rejection}` });
      return;
    }
    const changes: DemoMaintenanceChange[] = [];
    const previous = predecessor(catalogue.kubernetes, controlPlane, "patch");
    const current = catalogue.kubernetes.find((v) => v.entry.version === controlPlane)!;
    if (previous && couldUpdateTo(current.entry, at) && rng.chance(0.6)) {
      const forced = classificationAt(previous.entry, at) === "expired";
      if (forced || auto.kubernetesVersion) {
        changes.push({ target: "controlPlane", kind: "kubernetes", from: previous.entry.version, to: controlPlane, reason: forced ? K8S_EXPIRED : K8S_AUTO });
        controlPlane = previous.entry.version;
      }
    }
    for (const worker of workers) {
      const image = catalogue.images.get(worker.machine.image!.name)!;
      const version = images.get(worker.name)!;
      const scope = image.strategy as "patch" | "minor" | "major";
      const arch = worker.machine.architecture ?? "amd64";
      const previousImage = predecessor(image.versions.filter((v) => (v.entry.architectures ?? []).includes(arch)), version, scope);
      const currentImage = image.versions.find((v) => v.entry.version === version)!;
      if (!previousImage || !couldUpdateTo(currentImage.entry, at) || !rng.chance(0.5)) continue;
      const forced = classificationAt(previousImage.entry, at) === "expired";
      if (!forced && !auto.machineImageVersion) continue;
      changes.push({ target: worker.name, kind: "machineImage", from: previousImage.entry.version, to: version, reason: imageReason(forced, image.strategy) });
      images.set(worker.name, previousImage.entry.version);
    }
    // Gardener records nothing for a run that had nothing to do.
    if (changes.length === 0) return;
    const byName = new Map(workers.map((w) => [w.name, w]));
    const description = `All maintenance operations successful. ${changes.map((c) => describeChange(c, byName.get(c.target))).join(", ")}`;
    runs.push({ ...base, state: "Succeeded", changes, description });
  });
  return runs.reverse();
}

// ---------------------------------------------------------------------------------------------
// The landscape
// ---------------------------------------------------------------------------------------------

function checkOptions(options: LandscapeOptions): { now: number; count: number; seed: number } {
  const count = options.shoots ?? DEFAULT_SHOOT_COUNT;
  const seed = options.seed ?? 1;
  if (!Number.isFinite(options.now)) throw new RangeError("now must be a finite epoch-milliseconds value");
  if (!Number.isInteger(count) || count < 0 || count > MAX_SHOOT_COUNT) {
    throw new RangeError(`shoots must be an integer between 0 and ${MAX_SHOOT_COUNT}, got ${count}`);
  }
  if (!Number.isInteger(seed)) throw new RangeError(`seed must be an integer, got ${seed}`);
  return { now: options.now, count, seed };
}

/** Generates the demo landscape. Pure: the same options always give the same output. */
export function generateLandscape(options: LandscapeOptions): Landscape {
  const { now, count, seed } = checkOptions(options);
  const fixedRng = createRng(seed, 0x1a4d);
  const cloudProfiles = PROFILE_DEFS.map((def) => buildCloudProfile(def, now, fixedRng));
  const seeds = SEED_DEFS.map((def) => buildSeed(def, now, fixedRng));
  const projects = PROJECT_DEFS.map((def) => buildProject(def, now, fixedRng));

  const ctx: Context = {
    now,
    seed,
    catalogues: new Map(cloudProfiles.map((p, i) => [p.metadata.name, buildCatalogue(p, PROFILE_DEFS[i], now)])),
    seedChoices: new Map(),
  };
  const shoots: Shoot[] = [];
  const maintenanceHistory: DemoMaintenanceRun[] = [];
  const perProject = PROJECT_DEFS.map(() => 0);
  const perCategory = new Map<Category, number>();
  let withHistory = 0;
  for (let index = 0; index < count; index++) {
    const projectIndex = PROJECT_CYCLE[index % PROJECT_CYCLE.length];
    const category = categoryOf(index);
    const categoryCount = perCategory.get(category) ?? 0;
    perCategory.set(category, categoryCount + 1);
    const draft = buildShoot(ctx, index, category, categoryCount, PROJECT_DEFS[projectIndex], perProject[projectIndex]++);
    shoots.push(draft.shoot);

    // About half of the established shoots have a history; new ones have had no maintenance yet.
    const historyRng = createRng(seed, 0x4853, index);
    const established = draft.category !== "creating" && draft.category !== "createFailed" && now - draft.createdAt > 35 * DAY;
    if (!established || !historyRng.chance(0.55)) continue;
    const runs = buildHistory(draft, withHistory++, now, seed, index);
    if (runs.length === 0) continue;
    maintenanceHistory.push(...runs);
    const last = runs[runs.length - 1];
    const status = draft.shoot.status!;
    status.lastMaintenance = {
      description: last.description,
      triggeredTime: iso(last.startedAt),
      state: last.state,
      ...(last.failureReason ? { failureReason: last.failureReason } : {}),
    };
    // A successful maintenance triggers a reconcile: a shoot that is otherwise quiet
    // (hibernated, or healthy but last reconciled earlier) shows that reconcile.
    const op = status.lastOperation!;
    if (last.state === "Succeeded" && op.state === "Succeeded" && Date.parse(op.lastUpdateTime!) < last.finishedAt) {
      op.lastUpdateTime = iso(Math.min(last.finishedAt + historyRng.int(3, 20) * MINUTE, now - MINUTE));
    }
  }
  return { cloudProfiles, seeds, projects, shoots, maintenanceHistory };
}
