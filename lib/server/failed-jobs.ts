// Failed jobs, listed for admins and started again on request: a job whose retries ran out stays
// visible until someone retries it (or it ages out of the queue), and the retry is audited.
import type { FailedJob, FailedJobsAnswer, RetriedJobAnswer } from "../api/jobs.ts";
import type { Db } from "../db/client.ts";
import { invalid, notFound } from "../api/refusal.ts";
import type { PgBoss } from "../jobs/queue.ts";
import { queueClient } from "../jobs/queue-client.ts";
import { recordAuditEvent } from "../store/audit.ts";
import { type FailedJobRow, readFailedJob, readFailedJobs } from "../store/failed-jobs.ts";

const LIST_LIMIT = 200;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function describeJob(queue: string, data: unknown): string {
  const d = (data ?? {}) as Record<string, unknown>;
  const shoot = typeof d.namespace === "string" && typeof d.name === "string" ? `${d.namespace}/${d.name}` : undefined;
  switch (queue) {
    case "maintenance":
      return shoot ? `scheduled maintenance of ${shoot}` : "a scheduled maintenance";
    case "maintain-now":
      return shoot ? `"maintain now" of ${shoot}` : `a "maintain now"`;
    case "reconcile":
      return shoot ? `a reconcile step of ${shoot}` : "a reconcile step";
    case "migration":
      return typeof d.migrationId === "string" ? `a step of migration ${d.migrationId}` : "a migration step";
    case "deletion":
      return typeof d.deletionId === "string" ? `a cleanup step of deletion ${d.deletionId}` : "a deletion step";
    case "forecast-refresh":
      return "a batch of the forecast's refresh";
    default:
      return `a job of queue ${queue}`;
  }
}

function errorText(output: unknown): string {
  if (output && typeof output === "object") {
    const o = output as Record<string, unknown>;
    if (typeof o.message === "string") return o.message;
    const nested = o.value as Record<string, unknown> | undefined;
    if (nested && typeof nested.message === "string") return nested.message;
  }
  return output === null || output === undefined ? "no error recorded" : JSON.stringify(output).slice(0, 2000);
}

function toJson(row: FailedJobRow): FailedJob {
  return {
    id: row.id,
    queue: row.name,
    what: describeJob(row.name, row.data),
    data: row.data,
    error: errorText(row.output),
    attempts: row.retry_count + 1,
    createdAt: row.created_on.toISOString(),
    failedAt: row.completed_on?.toISOString() ?? null,
  };
}

export async function listFailedJobs(db: Db): Promise<FailedJobsAnswer> {
  const { rows, total } = await readFailedJobs(db, LIST_LIMIT);
  return { items: rows.map(toJson), total };
}

export async function retryFailedJob(
  db: Db,
  input: { id: string; actor: string; requestId: string },
  queue: () => Promise<PgBoss> = queueClient,
): Promise<RetriedJobAnswer> {
  if (!UUID.test(input.id))
    throw invalid(`"${input.id.slice(0, 60)}" is not a job id.`, [
      { field: "path.id", type: "Invalid", detail: "a job id is a UUID" },
    ]);
  const job = await readFailedJob(db, input.id);
  if (!job) throw notFound(`No failed job ${input.id}: it ran again already, or never failed.`);
  const boss = await queue();
  await boss.retry(job.name, job.id);
  await recordAuditEvent(db, {
    actor: input.actor,
    action: "job.retry",
    target: { kind: "Job", name: `${job.name}/${job.id}` },
    changes: [{ field: "state", before: "failed", after: "retry" }],
    requestId: input.requestId,
  });
  return { id: job.id, queue: job.name, state: "retry" };
}
