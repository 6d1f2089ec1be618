// What every producer of notification events (issue 30, lib/server/notification-events-*.ts) is:
// a function of the tables both gardens fill (never the garden itself) and the moment, answering
// the events it finds as NewNotificationEvent (lib/server/notification-events.ts records them,
// dropping a key already recorded). The sweep (notification-events-sweep.ts) calls each producer
// whose kind someone subscribes to.
import type { Db } from "../db/client.ts";
import type { NewNotificationEvent } from "./notification-events.ts";

export interface SweepInput {
  /** The sweep's moment, epoch ms. */
  readonly now: number;
  /** The thresholds in days subscriptions ask for (forced-update, version-expiring; never empty). */
  readonly days: readonly number[];
  /** How far back a transition may lie and still be an event (a first start does not replay history). */
  readonly lookBackMs: number;
  /**
   * The condition kinds (forced-update, version-expiring, stuck) and maintenance-failed: the
   * moment of the last sweep with the same thresholds, when the sweep may look only at what can
   * have changed since; undefined: look at everything.
   */
  readonly changedSince?: number;
}

/**
 * How far before the last sweep a change is still looked for: a write commits after the moment it
 * carries (its transaction's start), and one that committed after the last sweep read must be seen.
 */
export const CHANGE_OVERLAP_MS = 5 * 60_000;

export type NotificationProducer = (db: Db, input: SweepInput) => Promise<NewNotificationEvent[]>;
