// How the outcome of a write the garden accepted is written: in short transactions that give up
// on a lock after a moment (a mirror transaction may hold a shoot's row for a long time) and are
// tried again with a growing pause. Prisma's default 5 s transaction limit is not what decides.
import type { Db, Tx } from "../../db/client.ts";

/** The pauses between attempts, in ms: about 11 s of waiting over six attempts. */
export const OUTCOME_RETRY_DELAYS_MS: readonly number[] = [200, 500, 1_000, 2_000, 3_000, 4_000];

/** How long one attempt waits for a lock before it gives up and is tried again. */
const LOCK_TIMEOUT = "2s";

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `attempt` until it succeeds; the last failure is thrown once the pauses run out. */
export async function retrying<T>(
  attempt: () => Promise<T>,
  delaysMs: readonly number[] = OUTCOME_RETRY_DELAYS_MS,
): Promise<T> {
  for (let tried = 0; ; tried++) {
    try {
      return await attempt();
    } catch (error) {
      if (tried >= delaysMs.length) throw error;
      await pause(delaysMs[tried]);
    }
  }
}

/** One short transaction that waits for no lock longer than a moment. */
export function briefTransaction<T>(db: Db, work: (tx: Tx) => Promise<T>): Promise<T> {
  return db.$transaction(
    async (tx) => {
      await tx.$executeRawUnsafe(`SET LOCAL lock_timeout = '${LOCK_TIMEOUT}'`);
      return work(tx);
    },
    { maxWait: 5_000, timeout: 15_000 },
  );
}
