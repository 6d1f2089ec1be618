// A job per shoot's moment (its next maintenance, its next scheduled hibernation), written in the
// caller's transaction with the row that holds the moment, so that both are there or neither is.
// The job carries the dueAt it was made for: a job left from a moved moment finds another dueAt
// in the row and does nothing.
import { fromPrisma } from "pg-boss";
import type { Tx } from "../db/client.ts";
import type { PgBoss } from "./queue.ts";

/** What a moment's job carries. */
export interface MomentJob {
  readonly namespace: string;
  readonly name: string;
  /** ISO time of the moment the job was made for. */
  readonly dueAt: string;
}

/** Inserts one job on `queue` per moment, starting at it (a thousand to a statement). */
export async function enqueueMoments(
  tx: Tx,
  boss: PgBoss,
  queue: string,
  moments: readonly { namespace: string; name: string; dueAt: Date }[],
): Promise<void> {
  const db = fromPrisma(tx);
  for (let i = 0; i < moments.length; i += 1000) {
    const jobs = moments.slice(i, i + 1000).map((m) => ({
      data: { namespace: m.namespace, name: m.name, dueAt: m.dueAt.toISOString() } satisfies MomentJob,
      startAfter: m.dueAt,
    }));
    await boss.insert(queue, jobs, { db });
  }
}
