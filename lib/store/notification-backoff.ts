// A subscription whose receiver failed waits as a whole (issue 30): its other pending deliveries,
// claimed or not, are not due before the failed delivery's retry. Otherwise each would be claimed
// in turn and spend an attempt on the same dead receiver, and the backoff would never be reached.
import { Prisma } from "../db/generated/client.ts";
import { type Queryable, rawQuery } from "../db/client.ts";

/**
 * Puts the subscription's pending deliveries due before `until` (its failed delivery's retry) off
 * to it: no attempt, only next_attempt_at moves. Deliveries being sent are left to their claimer.
 */
export async function holdSubscription(db: Queryable, subscriptionId: string, until: Date): Promise<void> {
  await rawQuery(
    db,
    Prisma.sql`UPDATE notification_deliveries SET next_attempt_at = ${until}
      WHERE subscription_id = ${subscriptionId}::uuid AND state = 'Pending' AND next_attempt_at < ${until}`,
  );
}
