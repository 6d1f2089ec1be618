// A subscription whose receiver failed waits as a whole (issue 30): its other pending deliveries,
// claimed or not, are not due before the failed delivery's retry. Otherwise each would be claimed
// in turn and spend an attempt on the same dead receiver, and the backoff would never be reached.
import { Prisma } from "../db/generated/client.ts";
import { type Queryable, rawQuery } from "../db/client.ts";

export interface SubscriptionHold {
  readonly subscriptionId: string;
  /** Its failed delivery's next attempt. */
  readonly until: Date;
}

/**
 * Puts each subscription's pending deliveries due before `until` off to it (no attempt: only
 * next_attempt_at moves). Deliveries being sent are left to their claimer.
 */
export async function holdSubscriptions(db: Queryable, holds: readonly SubscriptionHold[]): Promise<void> {
  if (holds.length === 0) return;
  await rawQuery(
    db,
    Prisma.sql`UPDATE notification_deliveries d SET next_attempt_at = h.until
      FROM (SELECT subscription_id, max(until) AS until
        FROM unnest(${holds.map((h) => h.subscriptionId)}::uuid[], ${holds.map((h) => h.until)}::timestamptz[])
          AS h(subscription_id, until)
        GROUP BY subscription_id) h
      WHERE d.subscription_id = h.subscription_id AND d.state = 'Pending' AND d.next_attempt_at < h.until`,
  );
}
