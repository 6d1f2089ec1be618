// Maintenance runs: each time maintenance ran (or was asked to run) on a shoot, with every change.
import type { Prisma } from "../../db/generated/client.ts";
import type { Db, Tx } from "../../db/client.ts";

export interface MaintenanceChange {
  /** "controlPlane" or the worker pool's name. */
  readonly target: string;
  readonly kind: "kubernetes" | "machineImage" | "credentials" | "operation";
  readonly from?: string;
  readonly to?: string;
  readonly reason: string;
}

export interface MaintenanceRunInput {
  readonly namespace: string;
  readonly name: string;
  readonly trigger: string;
  readonly state: string;
  readonly scheduledFor?: Date;
  readonly startedAt?: Date;
  readonly finishedAt?: Date;
  readonly changes: readonly MaintenanceChange[];
  readonly description?: string;
  readonly failureReason?: string;
}

export interface MaintenanceRun {
  readonly id: string;
  readonly namespace: string;
  readonly name: string;
  readonly trigger: string;
  readonly state: string;
  readonly scheduledFor?: string;
  readonly startedAt?: string;
  readonly finishedAt?: string;
  readonly changes: readonly MaintenanceChange[];
  readonly description?: string;
  readonly failureReason?: string;
  readonly createdAt: string;
}

function toData(run: MaintenanceRunInput) {
  return {
    namespace: run.namespace,
    name: run.name,
    trigger: run.trigger,
    state: run.state,
    scheduledFor: run.scheduledFor ?? null,
    startedAt: run.startedAt ?? null,
    finishedAt: run.finishedAt ?? null,
    changes: run.changes as unknown as Prisma.InputJsonArray,
    description: run.description ?? null,
    failureReason: run.failureReason ?? null,
    // A run is listed by when it happened.
    createdAt: run.startedAt ?? run.scheduledFor ?? new Date(),
  };
}

export async function insertMaintenanceRuns(tx: Tx, runs: readonly MaintenanceRunInput[]): Promise<void> {
  if (runs.length > 0) await tx.maintenanceRun.createMany({ data: runs.map(toData) });
}

type RunRow = Awaited<ReturnType<Db["maintenanceRun"]["findMany"]>>[number];

const iso = (d: Date | null) => (d ? { value: d.toISOString() } : undefined);

function toRun(row: RunRow): MaintenanceRun {
  const scheduledFor = iso(row.scheduledFor);
  const startedAt = iso(row.startedAt);
  const finishedAt = iso(row.finishedAt);
  return {
    id: row.id,
    namespace: row.namespace,
    name: row.name,
    trigger: row.trigger,
    state: row.state,
    ...(scheduledFor ? { scheduledFor: scheduledFor.value } : {}),
    ...(startedAt ? { startedAt: startedAt.value } : {}),
    ...(finishedAt ? { finishedAt: finishedAt.value } : {}),
    changes: row.changes as unknown as MaintenanceChange[],
    ...(row.description !== null ? { description: row.description } : {}),
    ...(row.failureReason !== null ? { failureReason: row.failureReason } : {}),
    createdAt: row.createdAt.toISOString(),
  };
}

/** A shoot's runs, newest first. */
export async function listMaintenanceRuns(tx: Tx | Db, namespace: string, name: string, limit: number): Promise<MaintenanceRun[]> {
  const rows = await tx.maintenanceRun.findMany({ where: { namespace, name }, orderBy: { createdAt: "desc" }, take: limit });
  return rows.map(toRun);
}
