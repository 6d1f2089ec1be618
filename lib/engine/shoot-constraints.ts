// status.constraints as Gardener writes them. Pure: the caller says what it observed (does the
// shoot's API server run, which webhooks and CAs it has), so a live garden can run the same rules.
// Follows Gardener:
// - the care controller's constraint check: pkg/gardenlet/controller/shoot/care/constraints.go
//   (Constraint.Check, constraintsChecks, shootHibernatedConstraints,
//   shootControlPlaneNotRunningConstraints, CheckIfCACertificateValiditiesAcceptable,
//   filterOptionalConstraints, NewShootConstraints), pardoned as in
//   pkg/gardenlet/controller/shoot/care/health.go (PardonConditions, isUnstableLastOperation), and
//   written as pkg/gardenlet/controller/shoot/care/reconciler.go does (BuildConditions);
// - a shoot whose gardenlet stopped sending heartbeats:
//   pkg/controllermanager/controller/gardenletlifecycle/reconciler.go (setShootStatusToUnknown);
// - how a condition changes: Gardener's condition builder (UpdatedConditionWithClock,
//   GetOrInitConditionWithClock in pkg/api/core/v1beta1/helper).
import type { Condition, LastError, LastOperation, Seed, Shoot } from "../gardener/types.ts";
import { formatTime } from "./time-format.ts";
import { DAY_MS, SECOND_MS } from "./time-units.ts";
import { checkForProblematicWebhooks, type WebhookConfiguration } from "./webhook-constraints.ts";

export const HIBERNATION_POSSIBLE = "HibernationPossible";
export const MAINTENANCE_PRECONDITIONS_SATISFIED = "MaintenancePreconditionsSatisfied";
export const CA_CERTIFICATE_VALIDITIES_ACCEPTABLE = "CACertificateValiditiesAcceptable";
export const CRDS_WITH_PROBLEMATIC_CONVERSION_WEBHOOKS = "CRDsWithProblematicConversionWebhooks";

/**
 * Every constraint type the care controller owns (ShootConstraints.ConstraintTypes), in its order.
 * Almanac observes the first three; the others it takes as satisfied (see "What still differs").
 */
export const SHOOT_CONSTRAINT_TYPES = [
  HIBERNATION_POSSIBLE,
  MAINTENANCE_PRECONDITIONS_SATISFIED,
  CA_CERTIFICATE_VALIDITIES_ACCEPTABLE,
  CRDS_WITH_PROBLEMATIC_CONVERSION_WEBHOOKS,
  "ManualInPlaceWorkersUpdated",
  "AutomaticCredentialsRotationPossible",
  "ManagedResourcesHonored",
  "PreservedFailedMachinesAbsent",
] as const;

// ---- Conditions as Gardener's condition builder changes them ----

const sameCodes = (a: readonly string[] | undefined, b: readonly string[] | undefined) =>
  (a ?? []).length === (b ?? []).length && (a ?? []).every((code, i) => code === b?.[i]);

/**
 * Gardener's UpdatedConditionWithClock: the transition time moves when the status changes, the
 * update time when reason, message or codes change; the codes are the given ones.
 */
export function updatedCondition(
  old: Condition,
  status: string,
  reason: string,
  message: string,
  codes: readonly string[] | undefined,
  now: number,
): Condition {
  const t = formatTime(now);
  const { codes: _old, ...rest } = old;
  return {
    ...rest,
    status,
    reason,
    message,
    lastTransitionTime: status !== old.status || !old.lastTransitionTime ? t : old.lastTransitionTime,
    lastUpdateTime:
      reason !== old.reason || message !== old.message || !sameCodes(codes, old.codes) || !old.lastUpdateTime
        ? t
        : old.lastUpdateTime,
    ...(codes && codes.length > 0 ? { codes: [...codes] } : {}),
  };
}

/** Gardener's GetOrInitConditionWithClock: the shoot's condition of this type, or a new Unknown one. */
export function getOrInitCondition(conditions: readonly Condition[] | undefined, type: string, now: number): Condition {
  const found = conditions?.find((c) => c.type === type);
  if (found) return found;
  const t = formatTime(now);
  return {
    type,
    status: "Unknown",
    lastTransitionTime: t,
    lastUpdateTime: t,
    reason: "ConditionInitialized",
    message: "The condition has been initialized but its semantic check has not been performed yet.",
  };
}

/** Gardener's MergeConditions: the new ones replace those of their type; others stay where they are. */
export function mergeConditions(old: readonly Condition[], updates: readonly Condition[]): Condition[] {
  const merged = old.map((c) => updates.find((u) => u.type === c.type) ?? c);
  return [...merged, ...updates.filter((u) => !old.some((c) => c.type === u.type))];
}

// ---- CA certificates ----

export interface CACertificate {
  readonly name: string;
  /** epoch ms */
  readonly notAfter: number;
}

/** Go's time.Time.String() of a UTC time: "2025-01-01 12:00:00 +0000 UTC". */
const goTime = (ms: number) => `${new Date(ms).toISOString().slice(0, 19).replace("T", " ")} +0000 UTC`;
/** CA certificates last ten years; Gardener warns about those valid for less than one (Go: 8760h0m0s). */
const MINIMUM_CA_VALIDITY_MS = 365 * DAY_MS;

/**
 * Gardener's CheckIfCACertificateValiditiesAcceptable. The expiry is read from a label holding Unix
 * seconds. Gardener lists the expiring CAs in Go map order (random); Almanac names them in name order.
 */
export function checkIfCACertificateValiditiesAcceptable(
  certificates: readonly CACertificate[],
  now: number,
): { status: "True" | "False"; reason: string; message: string } {
  const expiring = new Map<string, number>();
  for (const c of certificates) {
    const validUntil = Math.floor(c.notAfter / SECOND_MS) * SECOND_MS;
    if (validUntil - now < MINIMUM_CA_VALIDITY_MS) expiring.set(c.name, validUntil);
  }
  if (expiring.size > 0)
    return {
      status: "False",
      reason: "ExpiringCACertificates",
      message:
        "Some CA certificates are expiring in less than 8760h0m0s, you should rotate them: " +
        [...expiring]
          .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
          .map(([name, until]) => `${JSON.stringify(name)} (expiring at ${goTime(until)})`)
          .join(", "),
    };
  return {
    status: "True",
    reason: "NoExpiringCACertificates",
    message: "All CA certificates are still valid for at least 8760h0m0s.",
  };
}

// ---- The care controller's constraint check ----

/** What the care controller finds when it looks at a shoot. */
export interface ShootObservation {
  /**
   * Gardener's Operation.IsAPIServerRunning: the kube-apiserver deployment exists and has
   * replicas. False before a creation has deployed it and after a deletion removed it.
   */
  readonly apiServerRunning: boolean;
  /** The shoot's webhook configurations (only read while its API server runs). */
  readonly webhookConfigurations: readonly WebhookConfiguration[];
  readonly caCertificates: readonly CACertificate[];
}

/** Gardener's shootHibernatedConstraints (the types Almanac knows and which stay: all but two). */
function shootHibernatedConstraints(constraints: readonly Condition[], now: number): Condition[] {
  return constraints.map((c) =>
    updatedCondition(c, "True", "ConstraintNotChecked", "Shoot cluster has been hibernated.", undefined, now),
  );
}

/** Gardener's shootControlPlaneNotRunningConstraints. */
function shootControlPlaneNotRunningConstraints(constraints: readonly Condition[], now: number): Condition[] {
  return constraints.map((c) =>
    updatedCondition(
      c,
      "False",
      "ConstraintNotChecked",
      "Shoot control plane is not running at the moment.",
      undefined,
      now,
    ),
  );
}

/** Gardener's filterOptionalConstraints: the required ones, and the optional ones that are not True. */
const filterOptionalConstraints = (required: readonly Condition[], optional: readonly Condition[]) => [
  ...required,
  ...optional.filter((c) => c.status !== "True"),
];

/** Gardener's isUnstableLastOperation: a Create or Delete not yet succeeded, or Processing without errors. */
export function isUnstableLastOperation(operation: LastOperation, lastErrors: readonly LastError[] | undefined) {
  return (
    ((operation.type === "Create" || operation.type === "Delete") && operation.state !== "Succeeded") ||
    // Gardener asks for nil; it never writes an empty list (omitempty), so none is the same.
    (operation.state === "Processing" && (lastErrors ?? []).length === 0)
  );
}

/**
 * Gardener's PardonConditions: while the shoot is being created or deleted (or processed without
 * errors), a False condition shows as Progressing.
 */
export function pardonConditions(
  conditions: readonly Condition[],
  lastOperation: LastOperation | undefined,
  lastErrors: readonly LastError[] | undefined,
  now: number,
): Condition[] {
  const unstable = !lastOperation || isUnstableLastOperation(lastOperation, lastErrors);
  return conditions.map((c) =>
    unstable && c.status === "False"
      ? updatedCondition(c, "Progressing", c.reason ?? "", c.message ?? "", c.codes, now)
      : c,
  );
}

/** Gardener's HibernationEnabled || status.IsHibernated. */
export const isHibernatedOrHibernating = (shoot: Shoot) =>
  shoot.spec.hibernation?.enabled === true || shoot.status?.hibernated === true;

/**
 * The care controller's constraint check (Constraint.Check) for the constraint types Almanac
 * observes, written into the shoot's constraints as the care reconciler does (BuildConditions):
 * constraints of other types stay, the care controller's own are replaced by the new ones.
 * - hibernated (or hibernating): every constraint True, ConstraintNotChecked;
 * - API server not running: HibernationPossible and MaintenancePreconditionsSatisfied False,
 *   ConstraintNotChecked, plus an unacceptable CA validity;
 * - otherwise: the webhook verdict for both, plus an unacceptable CA validity;
 * then pardoned (False shows as Progressing while the shoot is created, deleted or processed).
 */
export function checkShootConstraints(shoot: Shoot, observed: ShootObservation, now: number): Condition[] {
  const existing = shoot.status?.constraints ?? [];
  const own = (type: string) => getOrInitCondition(existing, type, now);
  let hibernationPossible = own(HIBERNATION_POSSIBLE);
  let maintenancePreconditions = own(MAINTENANCE_PRECONDITIONS_SATISFIED);
  let caValidities = own(CA_CERTIFICATE_VALIDITIES_ACCEPTABLE);
  let conversionWebhooks = own(CRDS_WITH_PROBLEMATIC_CONVERSION_WEBHOOKS);
  let updated: Condition[];
  if (isHibernatedOrHibernating(shoot)) {
    updated = shootHibernatedConstraints(
      [hibernationPossible, maintenancePreconditions, caValidities, conversionWebhooks],
      now,
    );
  } else {
    const ca = checkIfCACertificateValiditiesAcceptable(observed.caCertificates, now);
    caValidities = updatedCondition(caValidities, ca.status, ca.reason, ca.message, undefined, now);
    if (!observed.apiServerRunning) {
      updated = filterOptionalConstraints(
        shootControlPlaneNotRunningConstraints([hibernationPossible, maintenancePreconditions], now),
        [caValidities],
      );
    } else {
      const webhooks = checkForProblematicWebhooks(observed.webhookConfigurations);
      const set = (c: Condition) =>
        updatedCondition(c, webhooks.status, webhooks.reason, webhooks.message, webhooks.codes, now);
      hibernationPossible = set(hibernationPossible);
      maintenancePreconditions = set(maintenancePreconditions);
      // Almanac does not see the shoot's CRDs' stored versions: none has a problematic conversion webhook.
      conversionWebhooks = updatedCondition(
        conversionWebhooks,
        "True",
        "NoCRDsWithProblematicConversionWebhooks",
        "No CRDs have multiple stored versions present and a conversion webhook configured",
        undefined,
        now,
      );
      updated = filterOptionalConstraints(
        [hibernationPossible, maintenancePreconditions],
        [caValidities, conversionWebhooks],
      );
    }
  }
  const pardoned = pardonConditions(updated, shoot.status?.lastOperation, shoot.status?.lastErrors, now);
  const owned = new Set<string>(SHOOT_CONSTRAINT_TYPES);
  return [...existing.filter((c) => !owned.has(c.type)), ...pardoned];
}

// ---- A shoot whose gardenlet went silent ----

/** gardener-controller-manager's default shootMonitorPeriod (5 × the 40 s monitorPeriod). */
export const SHOOT_MONITOR_PERIOD_MS = 200 * SECOND_MS;

/**
 * When gardener-controller-manager gave up on a seed's gardenlet and marked its shoots Unknown:
 * once its GardenletReady condition has been Unknown for the shoot monitor period
 * (gardenletlifecycle reconciler). Undefined while the gardenlet is fine (or not for that long).
 */
export function gardenletLostAt(seed: Seed | undefined, now: number): number | undefined {
  const ready = seed?.status?.conditions?.find((c) => c.type === "GardenletReady");
  if (ready?.status !== "Unknown") return undefined;
  const since = Date.parse(ready.lastTransitionTime ?? "");
  const at = (Number.isNaN(since) ? now - SHOOT_MONITOR_PERIOD_MS : since) + SHOOT_MONITOR_PERIOD_MS;
  return at <= now ? at : undefined;
}

/**
 * Gardener's setShootStatusToUnknown for the constraints: HibernationPossible and
 * MaintenancePreconditionsSatisfied Unknown (StatusUnknown, "Gardenlet stopped sending
 * heartbeats."), the others as they were.
 */
export function gardenletLostConstraints(shoot: Shoot, now: number): Condition[] {
  const existing = shoot.status?.constraints ?? [];
  const unknown = [HIBERNATION_POSSIBLE, MAINTENANCE_PRECONDITIONS_SATISFIED].map((type) =>
    updatedCondition(
      getOrInitCondition(existing, type, now),
      "Unknown",
      "StatusUnknown",
      "Gardenlet stopped sending heartbeats.",
      undefined,
      now,
    ),
  );
  return mergeConditions(existing, unknown);
}
