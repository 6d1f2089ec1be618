// A maintenance run that failed (maintenance_runs, state Failed: written by the simulated garden's
// maintenance and by a live garden's mirror when it observes Gardener's lastMaintenance), finished
// within the look-back. One event per run: its id is the key.
import { Prisma } from "../db/generated/client.ts";
import { type Db, rawQuery } from "../db/client.ts";
import { shootWords, utcMinute } from "../engine/notification-words.ts";
import type { NewNotificationEvent } from "./notification-events.ts";
import type { SweepInput } from "./notification-events-producer.ts";

interface FailedRunRow {
  id: string;
  namespace: string;
  name: string;
  project: string;
  trigger: string;
  scheduled_for: Date | null;
  started_at: Date | null;
  finished: Date;
  changes: unknown;
  description: string | null;
  failure_reason: string | null;
}

export async function maintenanceFailedEvents(
  db: Db,
  { now, lookBackMs }: SweepInput,
): Promise<NewNotificationEvent[]> {
  // By state along (state, scheduled_for): failed runs are few among all the runs kept.
  const rows = await rawQuery<FailedRunRow>(
    db,
    Prisma.sql`
    SELECT r.id::text, r.namespace, r.name, s.project, r.trigger, r.scheduled_for, r.started_at,
      COALESCE(r.finished_at, r.created_at) AS finished, r.changes, r.description, r.failure_reason
    FROM maintenance_runs r JOIN shoots s ON s.namespace = r.namespace AND s.name = r.name
    WHERE r.state = 'Failed' AND COALESCE(r.finished_at, r.created_at) >= ${new Date(now - lookBackMs)}
      AND COALESCE(r.finished_at, r.created_at) <= ${new Date(now)}`,
  );
  return rows.map((r) => {
    const why = r.failure_reason ?? r.description ?? "no reason recorded";
    return {
      kind: "maintenance-failed",
      key: `maintenance-failed:${r.id}`,
      occurredAt: r.finished,
      projects: [r.project],
      shoot: { namespace: r.namespace, name: r.name },
      summary: `${shootWords(r.namespace, r.name)}: maintenance (${r.trigger}) failed at ${utcMinute(r.finished.getTime())}: ${why}`,
      data: {
        runId: r.id,
        trigger: r.trigger,
        ...(r.scheduled_for ? { scheduledFor: r.scheduled_for.toISOString() } : {}),
        ...(r.started_at ? { startedAt: r.started_at.toISOString() } : {}),
        finishedAt: r.finished.toISOString(),
        ...(r.failure_reason ? { failureReason: r.failure_reason } : {}),
        ...(r.description ? { description: r.description } : {}),
        changes: r.changes,
      },
    };
  });
}
