// Recording notification events (issue 30), the producers' one door (lib/server/
// notification-events-*.ts call it): each event once by its key, fanned out in the same statement
// to the subscriptions that want it, then the delivery worker woken.
import type { Queryable } from "../db/client.ts";
import { insertEventsWithDeliveries, subscribedDaysOf } from "../store/notifications.ts";
import type { NotificationKind } from "../api/notifications.ts";
import { wakeNotificationWorker } from "./notification-wake.ts";

export interface NewNotificationEvent {
  readonly kind: NotificationKind;
  /** What makes it "the same event": a second record with this key is dropped. */
  readonly key: string;
  /** When it happened or was found. */
  readonly occurredAt: Date;
  /**
   * A condition event (forced-update, version-expiring, stuck) stays relevant until then: a
   * subscription made later still gets it while until > now. Without it, a transition event goes
   * only to subscriptions that existed at occurredAt.
   */
  readonly until?: Date;
  /** The projects it concerns (a shoot's one; an update run's several). */
  readonly projects: readonly string[];
  readonly shoot?: { readonly namespace: string; readonly name: string };
  /** The threshold in days (forced-update, version-expiring). */
  readonly days?: number;
  /** One line in words, UTC. */
  readonly summary: string;
  readonly data: Record<string, unknown>;
}

/**
 * Records the events not recorded before (by key) and one delivery per enabled subscription that
 * wants each; wakes the delivery worker when there is something to deliver. In a transaction
 * (`db` a Tx) the records commit with it; the wake-up is then early, and harmless: the worker's
 * sweep delivers what it did not see yet.
 */
export async function recordNotificationEvents(
  db: Queryable,
  events: readonly NewNotificationEvent[],
  now: Date,
): Promise<{ recorded: number }> {
  const { recorded, deliveries } = await insertEventsWithDeliveries(
    db,
    events.map((e) => ({
      kind: e.kind,
      key: e.key,
      occurredAt: e.occurredAt,
      until: e.until ?? null,
      projects: e.projects,
      shootNamespace: e.shoot?.namespace ?? null,
      shootName: e.shoot?.name ?? null,
      days: e.days ?? null,
      summary: e.summary,
      data: e.data,
    })),
    now,
  );
  if (deliveries > 0) await wakeNotificationWorker();
  return { recorded };
}

/**
 * The distinct thresholds (days) that enabled subscriptions ask for `kind`, smallest first: the
 * producers make one event per threshold anyone asks for, none when nobody subscribes to the kind.
 */
export function subscribedDays(db: Queryable, kind: NotificationKind): Promise<number[]> {
  return subscribedDaysOf(db, kind);
}
