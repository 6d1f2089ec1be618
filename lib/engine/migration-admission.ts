// Gardener's admission rules around moving a shoot's control plane, as pure functions the simulated
// garden runs in its write port and a live garden can run as pre-checks before it asks Gardener:
//
// - plugin/pkg/shoot/validator/admission.go (the ShootValidator admission plugin):
//   validateScheduling for a new spec.seedName through the shoots/binding subresource (the seed
//   being deleted, taints, access restrictions, capacity, the cloud profile's seed selector, backup
//   on both seeds, three zones for a zone-tolerant control plane), the refusal of spec changes while
//   the shoot is rescheduled or in a Migrate/Restore operation, and of annotation and spec changes on
//   a seed being deleted; validateDeletion; validateShootNetworks (a rescheduled shoot's networks
//   against the new seed's).
// - pkg/apis/core/v1beta1/helper: TaintsAreTolerated, AccessRestrictionsAreSupported,
//   CalculateSeedUsage, IsMultiZonalShootControlPlane.
//
// Gardener's admission answers the first problem it finds; these functions list every one, in
// Gardener's order, so that a person sees them all at once.
import type { CloudProfile, Seed, Shoot, Taint, Toleration } from "../gardener/types.ts";
import { networksIntersect } from "./cidr.ts";
import { formatLabelSelector, matchLabelSelector } from "./label-selector.ts";
import { type ReadyForMigration, shootReadyForMigration } from "./migration-readiness.ts";

export interface Refusal {
  readonly field: string;
  readonly type: "Forbidden" | "NotFound" | "Invalid" | "InternalError";
  readonly detail: string;
}

/** The annotation that confirms a deletion; the only one a shoot on a deleting seed may change. */
const CONFIRMATION_DELETION = "confirmation.gardener.cloud/deletion";

/** Kept for callers that show a seed's readiness: every condition it reports is True. */
export function seedIsReady(seed: Seed): boolean {
  const conditions = seed.status?.conditions ?? [];
  return conditions.length > 0 && conditions.every((c) => c.status === "True");
}

/**
 * admission.go, isShootInMigrationOrRestorePhase: the last operation is Migrate (in any state,
 * Failed included) or Restore not yet Succeeded.
 */
export function isShootInMigrationOrRestorePhase(shoot: Shoot): boolean {
  const op = shoot.status?.lastOperation;
  return !!op && ((op.type === "Restore" && op.state !== "Succeeded") || op.type === "Migrate");
}

/**
 * admission.go, wasShootRescheduledToNewSeed: spec.seedName was changed but the Migrate
 * operation has not started yet.
 */
export function wasShootRescheduledToNewSeed(shoot: Shoot): boolean {
  const op = shoot.status?.lastOperation;
  return (
    !!op &&
    op.type !== "Migrate" &&
    !!shoot.spec.seedName &&
    !!shoot.status?.seedName &&
    shoot.spec.seedName !== shoot.status.seedName
  );
}

/**
 * An operation under way that stands in the way of other changes. A code, so that callers decide
 * by it (a deletion is refused during a migration, not during a deletion); the Gardener rule it
 * follows is in `type`/`state` (isShootInMigrationOrRestorePhase) or `destination`
 * (wasShootRescheduledToNewSeed).
 */
export type BlockingOperation =
  | { readonly code: "Deleting" }
  | {
      readonly code: "Migrating";
      /** The lastOperation ("Migrate Processing"); absent while the shoot waits to be migrated. */
      readonly operation?: string;
      readonly type?: string;
      readonly state?: string;
      /** The seed spec.seedName names while the Migrate operation has not started. */
      readonly destination?: string;
    };

/** The operation that stands in the way of a migration (or of other changes during one), if any. */
export function blockingOperation(shoot: Shoot): BlockingOperation | undefined {
  if (shoot.metadata.deletionTimestamp) return { code: "Deleting" };
  const op = shoot.status?.lastOperation;
  if (op?.type === "Delete") return { code: "Deleting" };
  // Almanac's: a live control-plane migration (LiveMigrate) under way is a migration like another.
  if (op && (isShootInMigrationOrRestorePhase(shoot) || (op.type === "LiveMigrate" && op.state !== "Succeeded")))
    return { code: "Migrating", operation: `${op.type} ${op.state}`, type: op.type, state: op.state };
  if (wasShootRescheduledToNewSeed(shoot)) return { code: "Migrating", destination: shoot.spec.seedName };
  return undefined;
}

/**
 * The blocking operation in words: "a control plane migration is under way (Migrate Processing)",
 * or for a Failed one, that it waits for a retry.
 */
export function describeBlockingOperation(blocking: BlockingOperation): string {
  if (blocking.code === "Deleting") return "the shoot is being deleted";
  const kind = blocking.type === "LiveMigrate" ? "live control plane migration" : "control plane migration";
  if (blocking.operation)
    return blocking.state === "Failed"
      ? `the ${kind} failed (${blocking.operation}) and waits for a retry`
      : `a ${kind} is under way (${blocking.operation})`;
  return `a control plane migration to "${blocking.destination}" is under way`;
}

/**
 * Why Gardener refuses a change of the shoot's spec now (admission.go, validateScheduling, for an
 * update that does not reschedule): the shoot was rescheduled to a new seed, or is in a Migrate or
 * Restore operation. Undefined when a spec change is admitted.
 */
export function specChangeRefusal(shoot: Shoot): string | undefined {
  if (wasShootRescheduledToNewSeed(shoot))
    return "shoot spec cannot be changed because shoot has been rescheduled to a new seed";
  const op = shoot.status?.lastOperation;
  if (op && isShootInMigrationOrRestorePhase(shoot))
    return `cannot change shoot spec during ${op.type} operation that is in state ${op.state}`;
  return undefined;
}

/** Why Gardener refuses to delete the shoot now (admission.go, validateDeletion), if it does. */
export function deletionRefusal(shoot: Shoot): string | undefined {
  const op = shoot.status?.lastOperation;
  if (op && isShootInMigrationOrRestorePhase(shoot))
    return `cannot mark shoot for deletion during ${op.type} operation that is in state ${op.state}`;
  return undefined;
}

/** v1beta1 helper IsMultiZonalShootControlPlane: a highly available control plane tolerating a zone outage. */
export function isMultiZonalShootControlPlane(shoot: Shoot): boolean {
  return shoot.spec.controlPlane?.highAvailability?.failureTolerance.type === "zone";
}

/** admission.go, validateSeedSelectionForMultiZonalShoot: such a control plane needs a seed with three zones. */
export function multiZonalRefusal(shoot: Shoot, seed: Seed): string | undefined {
  const zones = seed.spec.provider.zones?.length ?? 0;
  if (isMultiZonalShootControlPlane(shoot) && zones < 3)
    return `cannot schedule shoot '${shoot.metadata.name}' with failure tolerance of zone on seed '${seed.metadata.name}' with only ${zones} zones, at least 3 zones are required`;
  return undefined;
}

/**
 * What Gardener's admission refuses in an update of a shoot whose seed (spec.seedName) is `seed`
 * (admission.go, validateScheduling, the part for every update): three zones for a zone-tolerant
 * control plane, and on a seed marked for deletion no annotation change but the deletion
 * confirmation and no spec change. The migration rules are `specChangeRefusal`.
 */
export function shootOnSeedRefusals(before: Shoot, after: Shoot, seed: Seed | undefined): Refusal[] {
  if (!seed) return [];
  const refusals: Refusal[] = [];
  const zones = multiZonalRefusal(after, seed);
  if (zones) refusals.push({ field: "spec.controlPlane.highAvailability", type: "Forbidden", detail: zones });
  if (seed.metadata.deletionTimestamp) {
    const oldAnnotations: Record<string, string> = { ...before.metadata.annotations };
    const newAnnotations: Record<string, string> = { ...after.metadata.annotations };
    if (CONFIRMATION_DELETION in newAnnotations)
      oldAnnotations[CONFIRMATION_DELETION] = newAnnotations[CONFIRMATION_DELETION];
    if (!sameJson(sorted(oldAnnotations), sorted(newAnnotations)))
      refusals.push({
        field: "metadata.annotations",
        type: "Forbidden",
        detail: `cannot update annotations of shoot '${after.metadata.name}' on seed '${seed.metadata.name}' already marked for deletion: only the '${CONFIRMATION_DELETION}' annotation can be changed`,
      });
    if (!sameJson(before.spec, after.spec))
      refusals.push({
        field: "spec",
        type: "Forbidden",
        detail: `cannot update spec of shoot '${after.metadata.name}' on seed '${seed.metadata.name}' already marked for deletion`,
      });
  }
  return refusals;
}

const sorted = (o: Record<string, string>) =>
  Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : 1)));
const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * v1beta1 helper TaintsAreTolerated: every taint has a toleration with its key (the last one for a
 * key counts) and, when the taint has a value, that value; never more taints than tolerations.
 */
export function taintsAreTolerated(taints: readonly Taint[], tolerations: readonly Toleration[]): boolean {
  if (taints.length === 0) return true;
  if (taints.length > tolerations.length) return false;
  const values = new Map(tolerations.map((t) => [t.key, t.value ?? ""]));
  return taints.every(
    (taint) => values.has(taint.key) && (taint.value === undefined || taint.value === values.get(taint.key)),
  );
}

/** The seed's taints the shoot does not tolerate, one by one (for showing them; the rule is `taintsAreTolerated`). */
export function untoleratedTaints(seed: Seed, shoot: Shoot): string[] {
  const values = new Map((shoot.spec.tolerations ?? []).map((t) => [t.key, t.value ?? ""]));
  return (seed.spec.taints ?? [])
    .filter((t) => !values.has(t.key) || (t.value !== undefined && t.value !== values.get(t.key)))
    .map((t) => (t.value === undefined ? t.key : `${t.key}=${t.value}`));
}

/** v1beta1 helper AccessRestrictionsAreSupported: the seed offers every access restriction the shoot names. */
export function accessRestrictionsAreSupported(
  seedRestrictions: readonly { name: string }[],
  shootRestrictions: readonly { name: string }[],
): boolean {
  if (shootRestrictions.length === 0) return true;
  if (shootRestrictions.length > seedRestrictions.length) return false;
  const names = new Set(seedRestrictions.map((r) => r.name));
  return shootRestrictions.every((r) => names.has(r.name));
}

/**
 * v1beta1 helper CalculateSeedUsage: shoots per seed, counting spec.seedName, and status.seedName
 * too when it differs (a shoot on its way counts on both seeds).
 */
export function calculateSeedUsage(shoots: readonly Shoot[]): Map<string, number> {
  const usage = new Map<string, number>();
  const add = (seed: string) => usage.set(seed, (usage.get(seed) ?? 0) + 1);
  for (const s of shoots) {
    const spec = s.spec.seedName ?? "";
    const status = s.status?.seedName ?? "";
    if (spec !== "") add(spec);
    if (status !== "" && status !== spec) add(status);
  }
  return usage;
}

/** A Kubernetes quantity as a whole number, rounded up as resource.Quantity.Value() does. */
function quantityValue(q: string | number): number | undefined {
  if (typeof q === "number") return Math.ceil(q);
  const m = /^([0-9]+(?:\.[0-9]+)?)(m|k|M|G|T|P|E|Ki|Mi|Gi|Ti|Pi|Ei)?$/.exec(q.trim());
  if (!m) return undefined;
  const factor: Record<string, number> = {
    m: 1e-3,
    k: 1e3,
    M: 1e6,
    G: 1e9,
    T: 1e12,
    P: 1e15,
    E: 1e18,
    Ki: 2 ** 10,
    Mi: 2 ** 20,
    Gi: 2 ** 30,
    Ti: 2 ** 40,
    Pi: 2 ** 50,
    Ei: 2 ** 60,
  };
  return Math.ceil(Number(m[1]) * (m[2] ? factor[m[2]] : 1));
}

/** What a migration is judged on: the shoot as it is, where it should go, and the garden around it. */
export interface MigrationRequest {
  readonly shoot: Shoot;
  /** The destination seed's name (the spec.seedName the binding would set). */
  readonly destination: string;
  readonly seeds: ReadonlyMap<string, Seed>;
  /** The shoot's cloud profile, for its seed selector; undefined skips that rule. */
  readonly cloudProfile?: CloudProfile;
  /** Shoots per seed (calculateSeedUsage over every shoot), for the seeds' capacity; undefined skips that rule. */
  readonly seedUsage?: ReadonlyMap<string, number>;
}

/**
 * admission.go, validateShootNetworks, for a shoot whose seed changes:
 * cidrvalidation.ValidateNetworkDisjointedness.
 */
function networkRefusals(shoot: Shoot, seed: Seed): Refusal[] {
  const networking = shoot.spec.networking;
  const seedNetworks = seed.spec.networks;
  if (!networking || !seedNetworks) return [];
  // Only for shoots with IPv4 (the default family).
  if (!(networking.ipFamilies ?? ["IPv4"]).includes("IPv4")) return [];
  const workerless = (shoot.spec.provider?.workers ?? []).length === 0;
  const refusals: Refusal[] = [];
  const check = (name: "nodes" | "services" | "pods", kind: string, required: boolean) => {
    const network = networking[name];
    const field = `spec.networking.${name}`;
    if (network === undefined) {
      if (required) refusals.push({ field, type: "Invalid", detail: `Required value: ${kind}s is required` });
      return;
    }
    const invalid = (what: string) =>
      refusals.push({
        field,
        type: "Invalid",
        detail: `Invalid value: "${network}": shoot ${kind} network intersects with ${what}`,
      });
    if (networksIntersect(seedNetworks.services, network)) invalid("seed service network");
    if (networksIntersect(seedNetworks.pods, network)) invalid("seed pod network");
    if (seedNetworks.nodes !== undefined && networksIntersect(seedNetworks.nodes, network))
      invalid("seed node network");
    if (networksIntersect(DEFAULT_VPN_RANGE, network)) invalid(`default vpn network (${DEFAULT_VPN_RANGE})`);
    if (networksIntersect(DEFAULT_VPN_RANGE_V6, network)) invalid(`default vpn network (${DEFAULT_VPN_RANGE_V6})`);
  };
  check("nodes", "node", false);
  check("services", "service", true);
  check("pods", "pod", !workerless);
  return refusals;
}

/** v1beta1constants DefaultVPNRange and DefaultVPNRangeV6: the VPN between seed and shoot. */
const DEFAULT_VPN_RANGE = "192.168.123.0/24";
const DEFAULT_VPN_RANGE_V6 = "fd8f:6d53:b97a:1::/96";

/**
 * Every reason the control plane cannot move to `destination` (empty when it can): Gardener's
 * admission of a new spec.seedName through shoots/binding, plus two rules of Almanac's own (see
 * docs/architecture.md, "What still differs from Gardener"): the shoot must have been created on a
 * seed (its flow needs a source), and no migration may already be under way or waiting.
 */
export function migrationRefusals(request: MigrationRequest): Refusal[] {
  const { shoot, destination, seeds, cloudProfile, seedUsage } = request;
  const name = shoot.metadata.name;
  const source = shoot.status?.seedName;
  if (!source) {
    return [
      {
        field: "status.seedName",
        type: "Forbidden",
        detail:
          "the shoot was never successfully created (status.seedName is not set), so there is no control plane to migrate",
      },
    ];
  }
  const current = shoot.spec.seedName ?? source;
  const refusals: Refusal[] = [];
  if (shoot.metadata.deletionTimestamp)
    refusals.push({ field: "metadata.deletionTimestamp", type: "Forbidden", detail: "the shoot is being deleted" });
  // admission.go, Admit: a binding to the seed the shoot is assigned to already.
  if (destination === current) {
    refusals.push({
      field: "spec.seedName",
      type: "Invalid",
      detail: "update of binding rejected, shoot is already assigned to the same seed",
    });
    return refusals;
  }
  // Almanac's: one migration at a time, in Gardener's words for changing the spec in that state.
  const underWay = specChangeRefusal(shoot);
  if (underWay) refusals.push({ field: "status.lastOperation", type: "Forbidden", detail: underWay });

  const seed = seeds.get(destination);
  if (!seed) {
    refusals.push({
      field: "spec.seedName",
      type: "NotFound",
      detail: `could not find referenced seed "${destination}": seed.core.gardener.cloud "${destination}" not found`,
    });
    return refusals;
  }
  const forbid = (detail: string) => refusals.push({ field: "spec.seedName", type: "Forbidden", detail });

  // validateScheduling: the scheduling constraints of the new seed.
  if (seed.metadata.deletionTimestamp)
    forbid(`cannot schedule shoot '${name}' on seed '${destination}' that is already marked for deletion`);
  if (!taintsAreTolerated(seed.spec.taints ?? [], shoot.spec.tolerations ?? []))
    forbid("forbidden to use a seed whose taints are not tolerated by the shoot");
  if (!accessRestrictionsAreSupported(seed.spec.accessRestrictions ?? [], shoot.spec.accessRestrictions ?? []))
    forbid("forbidden to use a seed which doesn't support the access restrictions of the shoot");
  const allocatable = seed.status?.allocatable?.shoots;
  const capacity = allocatable === undefined ? undefined : quantityValue(allocatable);
  if (capacity !== undefined && seedUsage && (seedUsage.get(destination) ?? 0) >= capacity)
    forbid(
      `cannot schedule shoot '${name}' on seed '${destination}' that already has the maximum number of shoots scheduled on it (${capacity})`,
    );
  const selector = cloudProfile?.spec.seedSelector;
  if (selector) {
    const matched = matchLabelSelector(selector, seed.metadata.labels ?? {});
    if (!matched.ok) {
      refusals.push({
        field: "spec.seedName",
        type: "InternalError",
        detail: `label selector conversion failed: ${formatLabelSelector(selector)} for seedSelector: ${matched.error}`,
      });
    } else {
      if (!matched.matches)
        forbid(
          `cannot schedule shoot '${name}' on seed '${destination}' because the cloud profile seed selector is not matching the labels of the seed`,
        );
      if (selector.providerTypes && !selector.providerTypes.some((t) => t === "*" || t === seed.spec.provider.type))
        forbid(
          `cannot schedule shoot '${name}' on seed '${destination}' because none of the provider types in the cloud profile seed selector is matching the provider type of the seed`,
        );
    }
  }
  // validateScheduling: a rescheduled shoot needs backups on both seeds.
  const old = seeds.get(current);
  if (!old) {
    refusals.push({
      field: "spec.seedName",
      type: "InternalError",
      detail: `could not find referenced seed: seed.core.gardener.cloud "${current}" not found`,
    });
  } else if (!old.spec.backup) {
    forbid(`cannot change seed name because backup is not configured for old seed "${current}"`);
  }
  if (!seed.spec.backup) forbid(`cannot change seed name because backup is not configured for seed "${destination}"`);
  const zones = multiZonalRefusal(shoot, seed);
  if (zones) forbid(zones);
  refusals.push(...networkRefusals(shoot, seed));
  return refusals;
}

export interface SeedCandidate {
  readonly name: string;
  readonly region: string;
  readonly provider: string;
  /**
   * The seed could take the control plane now (ShootReadyForMigration would be True); a migration
   * to a seed that is not ready is admitted and waits until it is, as in Gardener.
   */
  readonly ready: boolean;
  /** The ShootReadyForMigration constraint a migration there would see now; null for the current seed. */
  readonly readyForMigration: ReadyForMigration | null;
  readonly current: boolean;
  /** Empty when the shoot may move there: Gardener's admission (migrationRefusals). */
  readonly reasons: readonly string[];
  /** The seed's taints this shoot does not tolerate ("key" or "key=value"). */
  readonly untoleratedTaints: readonly string[];
}

/** Every seed as a migration destination for the shoot, with why it cannot be one. */
export function seedCandidates(
  shoot: Shoot,
  seeds: readonly Seed[],
  context: { readonly cloudProfile?: CloudProfile; readonly seedUsage?: ReadonlyMap<string, number> } = {},
): SeedCandidate[] {
  const byName = new Map(seeds.map((s) => [s.metadata.name, s]));
  const source = byName.get(shoot.status?.seedName ?? "");
  return seeds.map((seed) => {
    const current = shoot.status?.seedName === seed.metadata.name;
    const readiness = current ? undefined : shootReadyForMigration(source, seed);
    return {
      name: seed.metadata.name,
      region: seed.spec.provider.region,
      provider: seed.spec.provider.type,
      ready: current ? seedIsReady(seed) : readiness?.status === "True",
      readyForMigration: readiness ?? null,
      current,
      reasons: migrationRefusals({ shoot, destination: seed.metadata.name, seeds: byName, ...context }).map(
        (r) => r.detail,
      ),
      untoleratedTaints: untoleratedTaints(seed, shoot),
    };
  });
}
