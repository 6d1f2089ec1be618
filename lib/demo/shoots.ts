// The Shoot objects: one shoot from its index, category and project, with a name, seed,
// versions, pools, maintenance settings and status that agree with each other and with the
// engine (which validates them in the tests).
import { expiryTime } from "../engine/classification.ts";
import { shootStatusLabel } from "../engine/status-label.ts";
import { parseVersion } from "../engine/version.ts";
import { GARDENER_API_VERSION, type Shoot } from "../gardener/types.ts";
import type { Catalogue, ExpiryBucket } from "./catalogue.ts";
import { KUBERNETES_BUCKET_CYCLE, type Category } from "./mixes.ts";
import { createRng, uuid, type Rng } from "./random.ts";
import { advertisedAddressesFor, constraintsFor, statusFor } from "./shoot-status.ts";
import { buildWorkers } from "./shoot-workers.ts";
import { demoExtensions } from "./shoot-registry-mirrors.ts";
import { SEED_DEFS, SHOOT_TOLERATIONS, type ProjectDef, type SeedDef, type StageDef } from "./tables.ts";
import { DAY, HOUR, MINUTE, iso } from "./time.ts";

export interface Context {
  now: number;
  seed: number;
  catalogues: Map<string, Catalogue>;
  /** Memoised seedChoices per project and name suffix. */
  seedChoices: Map<string, (readonly [SeedDef, number])[]>;
}

export interface ShootDraft {
  shoot: Shoot;
  category: Category;
  catalogue: Catalogue;
  createdAt: number;
}

/** The shoot's name within its project: "<base>-<stage>[-n]" is unique per k. */
function shootName(project: ProjectDef, k: number): { name: string; base: string; stage: StageDef } {
  const bases = project.bases.length;
  const stages = project.stages.length;
  const base = project.bases[k % bases];
  const stage = project.stages[Math.floor(k / bases) % stages];
  const round = Math.floor(k / (bases * stages));
  return { name: round === 0 ? `${base}-${stage.suffix}` : `${base}-${stage.suffix}-${round + 1}`, base, stage };
}

/** The seeds a project's shoot may land on (weighted), preferring the geography its name hints at. */
function seedChoices(project: ProjectDef, stageSuffix: string): (readonly [SeedDef, number])[] {
  const tolerated = (s: SeedDef) =>
    s.taints.every((t) =>
      (project.tolerations?.defaults ?? []).some((tol) => tol.key === t.key && tol.value === t.value),
    );
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
  const wanted =
    (category === "creating" || category === "createFailed") && bucket === "expired" ? "supported" : bucket;
  const versions = catalogue.byBucket.get(wanted) ?? catalogue.byBucket.get("supported")!;
  return rng.pick(versions);
}

function maintenanceWindow(offset: string, rng: Rng): { begin: string; end: string } {
  // Local night time, 1 to 4 hours long (Gardener allows 30 minutes to 6 hours).
  const beginMinutes = rng.pick([22, 23, 0, 1, 2, 3]) * 60 + rng.pick([0, 30]);
  const endMinutes = (beginMinutes + rng.pick([60, 90, 120, 180, 240])) % (24 * 60);
  const clock = (m: number) =>
    `${String(Math.floor(m / 60)).padStart(2, "0")}${String(m % 60).padStart(2, "0")}00${offset}`;
  return { begin: clock(beginMinutes), end: clock(endMinutes) };
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
export function buildShoot(
  ctx: Context,
  index: number,
  category: Category,
  categoryCount: number,
  project: ProjectDef,
  k: number,
): ShootDraft {
  const { now } = ctx;
  const rng = createRng(ctx.seed, 0x5400, index);
  const { name, base, stage } = shootName(project, k);
  const purpose = project.name === "sandbox" ? (stage.suffix === "dev" ? "development" : "evaluation") : stage.purpose;
  const seed = chooseSeed(ctx, category, project, stage.suffix, rng);
  const catalogue = ctx.catalogues.get(seed.profile)!;
  const region = catalogue.def.regions.find((r) => r.name === seed.region)!;

  const version = chooseKubernetesVersion(
    catalogue,
    KUBERNETES_BUCKET_CYCLE[index % KUBERNETES_BUCKET_CYCLE.length],
    category,
    rng,
  );
  const workers = buildWorkers(
    catalogue,
    index,
    version,
    region.zones,
    rng,
    category === "creating" || category === "createFailed",
  );
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
  const extra = SHOOT_TOLERATIONS[`${project.name}/${name}`] ?? [];
  const tolerations =
    project.tolerations?.defaults || extra.length > 0
      ? [...(project.tolerations?.defaults ?? []), ...extra]
      : undefined;
  const extensions = demoExtensions(uid);

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
      networking: {
        type: rng.chance(0.6) ? "calico" : "cilium",
        nodes: "10.250.0.0/16",
        pods: "100.64.0.0/12",
        services: "100.104.0.0/13",
      },
      maintenance,
      ...(category === "hibernated" ? { hibernation: { enabled: true } } : {}),
      ...(tolerations ? { tolerations: tolerations.map((t) => ({ ...t })) } : {}),
      ...(extensions ? { extensions } : {}),
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
      // Advertised once the API server runs: not while the shoot is still being created.
      ...(category === "createFailed" || category === "creating"
        ? {}
        : { advertisedAddresses: advertisedAddressesFor(project.name, name) }),
      technicalID: `shoot--${project.name}--${name}`,
      uid,
    },
  };
  // The label Gardener keeps in sync with the status; computed by the engine so they agree. Beside
  // it, the labels teams put on their clusters (what the fleet's label filter selects by): the
  // application and the stage the name already says (env=prod, app=checkout).
  shoot.metadata = {
    ...shoot.metadata,
    labels: { app: base, env: stage.suffix, "shoot.gardener.cloud/status": shootStatusLabel(shoot) },
  };
  return { shoot, category, catalogue, createdAt };
}
