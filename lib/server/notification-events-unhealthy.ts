// A shoot whose status label turned unhealthy (shoots.status_label, derived on every write of
// either garden). The sweep keeps the shoots it saw unhealthy, with since when, in
// notification_unhealthy_shoots: a shoot it has not seen so before is a transition, keyed by the
// moment its status says it turned so (unhealthySince), and stays one event for as long as it
// stays unhealthy; a shoot seen otherwise leaves the table, so its next spell is a new event. A
// spell that began before the look-back is taken in without an event (a first start on an old
// database does not replay history). A shoot that recovered and relapsed between two sweeps is
// one spell.
import { Prisma } from "../db/generated/client.ts";
import { type Db, type Queryable, rawQuery } from "../db/client.ts";
import { unhealthyCauses } from "../engine/notification-unhealthy-since.ts";
import { shootWords, utcMinute } from "../engine/notification-words.ts";
import type { Shoot } from "../gardener/types.ts";
import type { NewNotificationEvent } from "./notification-events.ts";

interface NewlyUnhealthyRow {
  namespace: string;
  name: string;
  uid: string;
  project: string;
  status: Shoot["status"];
}

/** A shoot first seen unhealthy: since when, and the event when that lies within the look-back. */
export interface UnhealthyTransition {
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
  readonly since: Date;
  readonly event?: NewNotificationEvent;
}

/**
 * Forgets the shoots no longer unhealthy (or gone), and answers those unhealthy now that the
 * table does not hold yet. Every sweep runs it, subscribed or not, so the table stays true.
 */
export async function unhealthyTransitions(db: Db, now: number, lookBackMs: number): Promise<UnhealthyTransition[]> {
  await rawQuery(
    db,
    Prisma.sql`
    DELETE FROM notification_unhealthy_shoots u WHERE NOT EXISTS (
      SELECT 1 FROM shoots s WHERE s.namespace = u.namespace AND s.name = u.name AND s.uid = u.uid
        AND s.status_label = 'unhealthy')`,
  );
  // Along (status_label, name, namespace): the unhealthy shoots, less those already held.
  const rows = await rawQuery<NewlyUnhealthyRow>(
    db,
    Prisma.sql`
    SELECT s.namespace, s.name, s.uid::text, s.project, s.status FROM shoots s
    WHERE s.status_label = 'unhealthy' AND NOT EXISTS (
      SELECT 1 FROM notification_unhealthy_shoots u WHERE u.namespace = s.namespace AND u.name = s.name AND u.uid = s.uid)`,
  );
  return rows.map((r) => {
    const causes = unhealthyCauses(r.status);
    // No moment in the status: it turned so when first seen.
    const since = Math.min(causes[0]?.since ?? now, now);
    const who = shootWords(r.namespace, r.name);
    const cause = causes[0]?.cause;
    return {
      namespace: r.namespace,
      name: r.name,
      uid: r.uid,
      since: new Date(since),
      ...(since >= now - lookBackMs
        ? {
            event: {
              kind: "shoot-unhealthy",
              key: `shoot-unhealthy:${who}:${new Date(since).toISOString()}`,
              occurredAt: new Date(since),
              projects: [r.project],
              shoot: { namespace: r.namespace, name: r.name },
              summary: `${who} turned unhealthy at ${utcMinute(since)}${cause ? `: ${cause}` : ""}`,
              data: {
                since: new Date(since).toISOString(),
                causes: causes.map((c) => ({ since: new Date(c.since).toISOString(), cause: c.cause })),
                ...(r.status?.lastOperation ? { lastOperation: r.status.lastOperation } : {}),
              },
            } satisfies NewNotificationEvent,
          }
        : {}),
    };
  });
}

/**
 * Holds the transitions as seen. In the transaction that records their events (the sweep's): a
 * spell without a moment in its status is keyed on when it was first seen, so the event and the
 * mark must commit or fail together, or a crash between them would tell the spell twice.
 */
export async function rememberUnhealthy(db: Queryable, seen: readonly UnhealthyTransition[]): Promise<void> {
  if (seen.length === 0) return;
  await rawQuery(
    db,
    Prisma.sql`
    INSERT INTO notification_unhealthy_shoots (namespace, name, uid, since)
    SELECT * FROM unnest(${seen.map((s) => s.namespace)}::text[], ${seen.map((s) => s.name)}::text[],
      ${seen.map((s) => s.uid)}::uuid[], ${seen.map((s) => s.since)}::timestamptz[])
    ON CONFLICT (namespace, name) DO UPDATE SET uid = EXCLUDED.uid, since = EXCLUDED.since`,
  );
}
