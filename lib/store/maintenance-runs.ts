// Maintenance runs: each time maintenance ran (or was asked to run) on a shoot, with every change.
import { Prisma } from "../db/generated/client.ts";
import type { Db, Tx } from "../db/client.ts";

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

/** Many runs in one statement (a maintenance batch records hundreds). */
export async function insertMaintenanceRuns(tx: Tx, runs: readonly MaintenanceRunInput[]): Promise<void> {
  if (runs.length === 0) return;
  const rows = runs.map(toData);
  const col = <T>(pick: (r: (typeof rows)[number]) => T) => rows.map(pick);
  await tx.$executeRaw(Prisma.sql`
    INSERT INTO maintenance_runs (id, namespace, name, trigger, state, scheduled_for, started_at, finished_at, changes, description, failure_reason, created_at)
    SELECT gen_random_uuid(), r.namespace, r.name, r.trigger, r.state, r.scheduled_for, r.started_at, r.finished_at, r.changes, r.description, r.failure_reason, r.created_at
    FROM unnest(${col((r) => r.namespace)}::text[], ${col((r) => r.name)}::text[], ${col((r) => r.trigger)}::text[], ${col((r) => r.state)}::text[],
                ${col((r) => r.scheduledFor)}::timestamptz[], ${col((r) => r.startedAt)}::timestamptz[], ${col((r) => r.finishedAt)}::timestamptz[],
                ${col((r) => JSON.stringify(r.changes))}::jsonb[], ${col((r) => r.description)}::text[], ${col((r) => r.failureReason)}::text[],
                ${col((r) => r.createdAt)}::timestamptz[])
      AS r(namespace, name, trigger, state, scheduled_for, started_at, finished_at, changes, description, failure_reason, created_at)`);
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
