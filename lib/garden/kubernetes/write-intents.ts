// The later pass over a live garden's write intents (lib/store/garden-write-intents.ts): an
// accepted write whose outcome could not be written then gets its audit event and record now; a
// write still pending long after its writer must have finished (the process died between the
// garden's answer and the outcome, or the database was gone) is decided from the mirror where the
// mirror can tell (a migration: the shoot's seed is the destination; a deletion: the shoot is
// being deleted since), and audited as "outcome unknown" where it cannot.
import type { Db } from "../../db/client.ts";
import type { Shoot } from "../../gardener/types.ts";
import { gardenWriteOutcome } from "../../observability/garden-writes.ts";
import { logger } from "../../observability/logger.ts";
import {
  recordAcceptedIntent,
  recordUnknownIntent,
  unresolvedIntents,
  type WriteIntent,
} from "../../store/garden-write-intents.ts";
import { findShoot } from "../../store/shoots.ts";
import { briefTransaction } from "./outcome-retries.ts";

/**
 * How long a pending intent is left to its writer: longer than a garden request (client-node's
 * default has none, the API server ends one after 60 s) and the outcome's retries together.
 */
export const PENDING_GRACE_MS = 5 * 60_000;

/** How often one process looks, at most. */
const PASS_INTERVAL_MS = 60_000;

/**
 * What the mirror says of a pending intent's write: "accepted" when the shoot shows the change,
 * else "unknown". `mirrored` is the shoot's row now (undefined when it is gone).
 */
export function pendingIntentOutcome(intent: WriteIntent, mirrored: Shoot | undefined): "accepted" | "unknown" {
  if (!mirrored || (intent.uid !== undefined && mirrored.metadata.uid !== intent.uid)) return "unknown";
  const record = intent.record;
  if (record?.kind === "migration" && mirrored.spec.seedName === record.flow.destination) return "accepted";
  if (record?.kind === "deletion" && mirrored.metadata.deletionTimestamp) {
    // Only a deletion since the intent (the timestamp has whole seconds).
    const since =
      Date.parse(mirrored.metadata.deletionTimestamp) >= Math.floor(intent.createdAt.getTime() / 1000) * 1000;
    if (since) return "accepted";
  }
  return "unknown";
}

/** Resolves what can be resolved now; answers how many intents it closed. */
export async function resolveWriteIntents(db: Db, now: number): Promise<number> {
  let closed = 0;
  for (const intent of await unresolvedIntents(db, new Date(now - PENDING_GRACE_MS))) {
    try {
      const resolved = await briefTransaction(db, async (tx): Promise<"resolved" | "unknown" | undefined> => {
        const from = intent.state === "accepted" ? "accepted" : "pending";
        if (from === "pending") {
          const row = await findShoot(tx, intent.namespace, intent.name);
          if (pendingIntentOutcome(intent, row?.shoot) === "unknown")
            return (await recordUnknownIntent(tx, intent.id)) ? "unknown" : undefined;
        }
        return (await recordAcceptedIntent(tx, intent.id, undefined, { fromStates: [from] })) ? "resolved" : undefined;
      });
      if (resolved) {
        gardenWriteOutcome(resolved);
        closed++;
      }
    } catch (error) {
      logger().warn(
        `Almanac could not resolve the write intent ${intent.id} (tried again later): ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
  return closed;
}

let lastPass = 0;

/** resolveWriteIntents in the background, at most once a minute in this process. */
export function resolveWriteIntentsSometimes(db: Db, now: number): void {
  if (now - lastPass < PASS_INTERVAL_MS) return;
  lastPass = now;
  void resolveWriteIntents(db, now).catch((error: unknown) =>
    logger().warn(
      `Almanac's pass over write intents failed: ${error instanceof Error ? error.message : String(error)}`,
    ),
  );
}
