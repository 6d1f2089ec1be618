// The counts of failed password sign-ins (table sign_in_failures), keyed by account and by
// account and client address; lib/engine/sign-in-delay.ts says what they mean.
import type { Db } from "../db/client.ts";
import type { FailureCount } from "../engine/sign-in-delay.ts";
import { FORGET_AFTER_MS } from "../engine/sign-in-delay.ts";

export async function failureCounts(db: Db, keys: readonly string[]): Promise<Map<string, FailureCount>> {
  const rows = await db.signInFailure.findMany({ where: { key: { in: [...keys] } } });
  return new Map(rows.map((r) => [r.key, { failures: r.failures, lastFailureAt: r.lastFailureAt.getTime() }]));
}

/**
 * One more failure for each key (a count older than FORGET_AFTER_MS starts again at one); returns
 * the new counts. Old rows of other keys go at the same time, so the table holds only the last
 * hour's failures.
 */
export async function countFailure(db: Db, keys: readonly string[], now: number): Promise<Map<string, number>> {
  const at = new Date(now);
  const forgotten = new Date(now - FORGET_AFTER_MS);
  const rows = await db.$queryRaw<{ key: string; failures: number }[]>`
    INSERT INTO sign_in_failures (key, failures, last_failure_at)
    SELECT k, 1, ${at} FROM unnest(${[...keys]}::text[]) AS k
    ON CONFLICT (key) DO UPDATE SET
      failures = CASE WHEN sign_in_failures.last_failure_at < ${forgotten} THEN 1 ELSE sign_in_failures.failures + 1 END,
      last_failure_at = EXCLUDED.last_failure_at
    RETURNING key, failures`;
  await db.signInFailure.deleteMany({ where: { lastFailureAt: { lt: forgotten } } });
  return new Map(rows.map((r) => [r.key, r.failures]));
}

/** Forgets the failures under `keys` (after a successful sign-in). */
export async function forgetFailures(db: Db, keys: readonly string[]): Promise<void> {
  await db.signInFailure.deleteMany({ where: { key: { in: [...keys] } } });
}
