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

/**
 * How far before the last sweep a failed run's end is still looked for: a live garden's mirror
 * records a run at the moment Gardener started it, possibly minutes before it observes it.
 */
const RECORDED_LATE_MS = 15 * 60_000;

export async function maintenanceFailedEvents(
  db: Db,
  { now, lookBackMs, changedSince }: SweepInput,
): Promise<NewNotificationEvent[]> {
  // Along (state, finished_at): both gardens record a run's end (a live garden's mirror, the moment
  // it observed); failed runs are most of a long history, so the moment must narrow them.
  // Since the last sweep's mark only the runs that ended since can be new (a long history's last
  // day holds thousands: 10,800 at 100,000 shoots).
  const from = Math.max(now - lookBackMs, changedSince !== undefined ? changedSince - RECORDED_LATE_MS : -Infinity);
  const rows = await rawQuery<FailedRunRow>(
    db,
    Prisma.sql`
    SELECT r.id::text, r.namespace, r.name, s.project, r.trigger, r.scheduled_for, r.started_at,
      r.finished_at AS finished, r.changes, r.description, r.failure_reason
    FROM maintenance_runs r JOIN shoots s ON s.namespace = r.namespace AND s.name = r.name
    WHERE r.state = 'Failed' AND r.finished_at >= ${new Date(from)} AND r.finished_at <= ${new Date(now)}`,
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
