// Maintenance runs: each time maintenance ran (or was asked to run) on a shoot, with every change.
import type { MaintenanceRun, MaintenanceRunChange } from "../api/history.ts";
import { Prisma } from "../db/generated/client.ts";
import type pg from "pg";
import type { Db, Tx } from "../db/client.ts";
import { copyRows } from "../db/copy-rows.ts";

export interface MaintenanceRunInput extends Pick<
  MaintenanceRun,
  "namespace" | "name" | "trigger" | "state" | "changes" | "description" | "failureReason"
> {
  readonly scheduledFor?: Date;
  readonly startedAt?: Date;
  readonly finishedAt?: Date;
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

/** The same rows as insertMaintenanceRuns, through COPY on the caller's transaction's `connection`. */
export async function copyMaintenanceRuns(
  connection: pg.ClientBase,
  runs: Iterable<MaintenanceRunInput>,
): Promise<number> {
  const columns = ["id", "namespace", "name", "trigger", "state", "scheduled_for", "started_at", "finished_at"];
  const more = ["changes", "description", "failure_reason", "created_at"];
  function* rows() {
    for (const run of runs) {
      const r = toData(run);
      yield [
        crypto.randomUUID(),
        r.namespace,
        r.name,
        r.trigger,
        r.state,
        r.scheduledFor,
        r.startedAt,
        r.finishedAt,
        JSON.stringify(r.changes),
        r.description,
        r.failureReason,
        r.createdAt,
      ];
    }
  }
  return copyRows(connection, "maintenance_runs", [...columns, ...more], rows());
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
    // Written only from MaintenanceRunInput, whose trigger and state are the API's.
    trigger: row.trigger as MaintenanceRun["trigger"],
    state: row.state as MaintenanceRun["state"],
    ...(scheduledFor ? { scheduledFor: scheduledFor.value } : {}),
    ...(startedAt ? { startedAt: startedAt.value } : {}),
    ...(finishedAt ? { finishedAt: finishedAt.value } : {}),
    changes: row.changes as unknown as MaintenanceRunChange[],
    ...(row.description !== null ? { description: row.description } : {}),
    ...(row.failureReason !== null ? { failureReason: row.failureReason } : {}),
    createdAt: row.createdAt.toISOString(),
  };
}

/** A shoot's runs, newest first. */
export async function listMaintenanceRuns(
  tx: Tx | Db,
  namespace: string,
  name: string,
  limit: number,
): Promise<MaintenanceRun[]> {
  const rows = await tx.maintenanceRun.findMany({
    where: { namespace, name },
    orderBy: { createdAt: "desc" },
    take: limit,
  });
  return rows.map(toRun);
}
