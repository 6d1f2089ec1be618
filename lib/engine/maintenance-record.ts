// What one maintenance did, as history shows it: each change with from, to and Gardener's reason,
// the description Gardener writes into status.lastMaintenance, and whether it succeeded.
import type { MaintenanceOutcome } from "./maintain.ts";
import type { UpdateResult } from "./update-result.ts";

export interface RecordedChange {
  /** "controlPlane", a worker pool's name, or "credentials". */
  readonly target: string;
  readonly kind: "kubernetes" | "machineImage" | "credentials";
  readonly from?: string;
  readonly to?: string;
  readonly reason: string;
  readonly successful: boolean;
  readonly description: string;
}

export interface MaintenanceRecord {
  readonly changes: readonly RecordedChange[];
  readonly description: string;
  readonly state: "Succeeded" | "Failed";
  readonly failureReason?: string;
  /** Whether the shoot's spec changed (a reconcile follows). */
  readonly specChanged: boolean;
}

function change(target: string, kind: RecordedChange["kind"], r: UpdateResult): RecordedChange {
  return {
    target,
    kind,
    ...(r.from !== undefined ? { from: r.from } : {}),
    ...(r.to !== undefined ? { to: r.to } : {}),
    reason: r.reason,
    successful: r.isSuccessful,
    description: r.description,
  };
}

export function maintenanceRecord(outcome: MaintenanceOutcome, specBefore: unknown): MaintenanceRecord {
  const changes = [
    ...(outcome.controlPlane ? [change("controlPlane", "kubernetes", outcome.controlPlane)] : []),
    ...outcome.workerKubernetes.map((w) => change(w.worker, "kubernetes", w.result)),
    ...outcome.workerImages.map((w) => change(w.worker, "machineImage", w.result)),
    ...outcome.credentials.map((c) =>
      change("credentials", "credentials", { ...c.result, reason: `${c.operation}: ${c.result.reason}` }),
    ),
  ];
  const last = outcome.shoot.status?.lastMaintenance;
  const failed = outcome.rejected || last?.state === "Failed";
  return {
    changes,
    description:
      outcome.requirePatch || outcome.rejected ? (last?.description ?? "") : "No maintenance operations were needed.",
    state: failed ? "Failed" : "Succeeded",
    ...(failed && last?.failureReason ? { failureReason: last.failureReason } : {}),
    specChanged: JSON.stringify(outcome.shoot.spec) !== JSON.stringify(specBefore),
  };
}
