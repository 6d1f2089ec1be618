// The `shoot.gardener.cloud/status` label (Gardener: pkg/utils/gardener/shoot_status.go,
// ComputeShootStatus).
import type { Shoot } from "../gardener/types.ts";

export const LABEL_STATUS = "shoot.gardener.cloud/status";

export const SHOOT_STATUS_LABELS = ["healthy", "progressing", "unknown", "unhealthy"] as const;
export type ShootStatusLabel = (typeof SHOOT_STATUS_LABELS)[number];

/** Worst first: 0 unhealthy ... 3 healthy (also the fleet list's status sort). */
export const STATUS_RANK: Record<ShootStatusLabel, number> = { healthy: 3, progressing: 2, unknown: 1, unhealthy: 0 };

// orWorse, labelOfConditionStatus and conditionsLabel are exported for the unit tests, which pin
// them as Gardener's OrWorse, ConditionStatusToShootStatus and ComputeConditionStatus.

/** The worse of two labels (symmetric). */
export function orWorse(a: ShootStatusLabel, b: ShootStatusLabel): ShootStatusLabel {
  return STATUS_RANK[a] <= STATUS_RANK[b] ? a : b;
}

export function labelOfConditionStatus(status: string): ShootStatusLabel {
  switch (status) {
    case "True":
      return "healthy";
    case "Progressing":
      return "progressing";
    case "Unknown":
      return "unknown";
    default:
      return "unhealthy";
  }
}

/** The worst status over all conditions; healthy when there are none. Constraints do not count. */
export function conditionsLabel(shoot: Pick<Shoot, "status">): ShootStatusLabel {
  let label: ShootStatusLabel = "healthy";
  for (const c of shoot.status?.conditions ?? []) label = orWorse(label, labelOfConditionStatus(c.status));
  return label;
}

export function shootStatusLabel(shoot: Pick<Shoot, "status">): ShootStatusLabel {
  const op = shoot.status?.lastOperation;
  if (!op) return "healthy";
  const hasErrors = (shoot.status?.lastErrors ?? []).length > 0;
  if ((op.type === "Create" && op.state !== "Succeeded") || op.type === "Delete") {
    return hasErrors ? "unhealthy" : "healthy";
  }
  const fromConditions = conditionsLabel(shoot);
  if (op.state === "Processing") return orWorse(fromConditions, hasErrors ? "unhealthy" : "healthy");
  return orWorse(fromConditions, op.state === "Succeeded" ? "healthy" : "unhealthy");
}
