// A control-plane migration that failed or finished (control_plane_migrations: the simulated
// garden's flow, and a live garden's migration as its mirror observes the end), ended within the
// look-back. One event per migration and outcome: its id is the key.
import { Prisma } from "../db/generated/client.ts";
import { type Db, rawQuery } from "../db/client.ts";
import type { StepRecord } from "../engine/migration-flow.ts";
import { shootWords, utcMinute } from "../engine/notification-words.ts";
import type { NewNotificationEvent } from "./notification-events.ts";
import type { SweepInput } from "./notification-events-producer.ts";

interface EndedMigrationRow {
  id: string;
  namespace: string;
  name: string;
  project: string;
  source: string;
  destination: string;
  actor: string;
  created_at: Date;
  finished_at: Date;
  steps: readonly StepRecord[] | null;
}

/** The flow's last failing step, in words ("Restore: <message>"), when one failed. */
function failure(m: EndedMigrationRow): string | undefined {
  const failed = (m.steps ?? [])
    .filter((s) => s.outcome === "Error")
    .sort((a, b) => (b.endedAt ?? 0) - (a.endedAt ?? 0))[0];
  return failed ? `${failed.name}: ${failed.message ?? "failed"}` : undefined;
}

async function endedMigrations(
  db: Db,
  state: "Failed" | "Succeeded",
  { now, lookBackMs }: SweepInput,
): Promise<EndedMigrationRow[]> {
  return rawQuery<EndedMigrationRow>(
    db,
    Prisma.sql`
    SELECT m.id::text, m.namespace, m.name, s.project, m.source, m.destination, m.actor, m.created_at, m.finished_at,
      m.flow->'steps' AS steps
    FROM control_plane_migrations m JOIN shoots s ON s.namespace = m.namespace AND s.name = m.name
    WHERE m.state = ${state} AND m.finished_at >= ${new Date(now - lookBackMs)} AND m.finished_at <= ${new Date(now)}`,
  );
}

const facts = (m: EndedMigrationRow) => ({
  migrationId: m.id,
  source: m.source,
  destination: m.destination,
  actor: m.actor,
  startedAt: m.created_at.toISOString(),
  finishedAt: m.finished_at.toISOString(),
});

export async function migrationFailedEvents(db: Db, input: SweepInput): Promise<NewNotificationEvent[]> {
  return (await endedMigrations(db, "Failed", input)).map((m) => {
    const error = failure(m);
    return {
      kind: "migration-failed",
      key: `migration-failed:${m.id}`,
      occurredAt: m.finished_at,
      projects: [m.project],
      shoot: { namespace: m.namespace, name: m.name },
      summary:
        `${shootWords(m.namespace, m.name)}: the control plane's migration from seed ${m.source} to ${m.destination} ` +
        `failed at ${utcMinute(m.finished_at.getTime())}${error ? `: ${error}` : ""}`,
      data: { ...facts(m), ...(error ? { error } : {}) },
    };
  });
}

export async function migrationFinishedEvents(db: Db, input: SweepInput): Promise<NewNotificationEvent[]> {
  return (await endedMigrations(db, "Succeeded", input)).map((m) => ({
    kind: "migration-finished",
    key: `migration-finished:${m.id}`,
    occurredAt: m.finished_at,
    projects: [m.project],
    shoot: { namespace: m.namespace, name: m.name },
    summary:
      `${shootWords(m.namespace, m.name)}: the control plane moved from seed ${m.source} to ${m.destination} ` +
      `(finished ${utcMinute(m.finished_at.getTime())})`,
    data: facts(m),
  }));
}
