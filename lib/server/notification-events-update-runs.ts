// An update run's stage waiting for approval, and a run paused (by a person, or by its health
// gate), from update_runs and its stages; the projects are the run's (those of its shoots). A
// waiting stage is one event (key: run and stage) from when it began to wait: when the stage
// before it finished, or the run started; a pause is one event per pause, keyed by its moment,
// which the audit log holds (the pause and its event are written in one transaction).
import { Prisma } from "../db/generated/client.ts";
import { type Db, rawQuery } from "../db/client.ts";
import { utcMinute } from "../engine/notification-words.ts";
import type { NewNotificationEvent } from "./notification-events.ts";
import type { SweepInput } from "./notification-events-producer.ts";

interface WaitingRow {
  id: string;
  name: string;
  projects: string[];
  message: string | null;
  position: number;
  stage: string;
  since: Date;
}

export async function updateRunWaitingEvents(db: Db, { now, lookBackMs }: SweepInput): Promise<NewNotificationEvent[]> {
  const rows = await rawQuery<WaitingRow>(
    db,
    Prisma.sql`
    SELECT r.id::text, r.name, r.projects, r.message, st.position, st.name AS stage,
      COALESCE(prev.finished_at, r.started_at, r.created_at) AS since
    FROM update_runs r
    JOIN update_run_stages st ON st.run_id = r.id AND st.state = 'WaitingForApproval'
    LEFT JOIN update_run_stages prev ON prev.run_id = r.id AND prev.position = st.position - 1
    WHERE r.state = 'WaitingForApproval'
      AND COALESCE(prev.finished_at, r.started_at, r.created_at) >= ${new Date(now - lookBackMs)}`,
  );
  return rows.map((r) => ({
    kind: "update-run-waiting",
    key: `update-run-waiting:${r.id}:${r.position}`,
    occurredAt: r.since,
    projects: r.projects,
    summary: `Update run "${r.name}": stage "${r.stage}" waits for approval (since ${utcMinute(r.since.getTime())})`,
    data: {
      runId: r.id,
      runName: r.name,
      stage: r.position,
      stageName: r.stage,
      since: r.since.toISOString(),
      ...(r.message ? { message: r.message } : {}),
    },
  }));
}

interface PausedRow {
  id: string;
  name: string;
  projects: string[];
  message: string | null;
  paused_at: Date;
  paused_by: string;
  action: string;
}

export async function updateRunPausedEvents(db: Db, { now, lookBackMs }: SweepInput): Promise<NewNotificationEvent[]> {
  // The run's last pause, along the audit log's (target_kind, target_namespace, target_name, at) index.
  const rows = await rawQuery<PausedRow>(
    db,
    Prisma.sql`
    SELECT r.id::text, r.name, r.projects, r.message, a.at AS paused_at, a.actor AS paused_by, a.action
    FROM update_runs r
    CROSS JOIN LATERAL (
      SELECT e.at, e.actor, e.action FROM audit_events e
      WHERE e.target_kind = 'UpdateRun' AND e.target_namespace IS NULL AND e.target_name = r.id::text
        AND e.action IN ('update-run.pause', 'update-run.gate-pause')
      ORDER BY e.at DESC LIMIT 1
    ) a
    WHERE r.state = 'Paused' AND a.at >= ${new Date(now - lookBackMs)}`,
  );
  return rows.map((r) => {
    const byGate = r.action === "update-run.gate-pause";
    return {
      kind: "update-run-paused",
      key: `update-run-paused:${r.id}:${r.paused_at.toISOString()}`,
      occurredAt: r.paused_at,
      projects: r.projects,
      summary:
        `Update run "${r.name}" paused at ${utcMinute(r.paused_at.getTime())}` +
        (byGate ? ` by its health gate${r.message ? `: ${r.message}` : ""}` : ` by ${r.paused_by}`),
      data: {
        runId: r.id,
        runName: r.name,
        pausedAt: r.paused_at.toISOString(),
        pausedBy: byGate ? "health gate" : r.paused_by,
        ...(r.message ? { message: r.message } : {}),
      },
    };
  });
}
