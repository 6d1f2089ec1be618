// The lease that lets exactly one Almanac process mirror a live garden: taken when free or
// expired, renewed by its holder, and checked inside every mirror write (a holder that was
// paused past its expiry must not write over its successor's work).
//
// The fence, by PostgreSQL's row-lock table: every mirror write takes FOR KEY SHARE on the lease
// row until it commits. Renewal is an UPDATE that changes no key column (name is the only one), so
// it takes FOR NO KEY UPDATE, which does not conflict with FOR KEY SHARE: the holder renews while
// its writes run. A takeover first takes FOR UPDATE, which conflicts with FOR KEY SHARE: it waits
// until the old holder's writes in flight have ended, and every write the old holder starts after
// that finds another holder and writes nothing.
import { Prisma } from "../db/generated/client.ts";
import type { Db, Queryable } from "../db/client.ts";

/** Takes the lease, or renews it when `holder` has it; answers whether `holder` holds it now. */
export async function takeLease(db: Db, name: string, holder: string, ttlMs: number): Promise<boolean> {
  return db.$transaction(async (tx) => {
    // now() is the transaction's start in both statements: a row this one does not lock as
    // expired, the upsert below does not take over either.
    await tx.$queryRaw(Prisma.sql`
      SELECT 1 FROM garden_leases WHERE name = ${name} AND holder <> ${holder} AND expires_at < now() FOR UPDATE`);
    const rows = await tx.$queryRaw<{ holder: string }[]>(Prisma.sql`
      INSERT INTO garden_leases (name, holder, expires_at, renewed_at)
      VALUES (${name}, ${holder}, now() + ${ttlMs} * interval '1 millisecond', now())
      ON CONFLICT (name) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at, renewed_at = now()
      WHERE garden_leases.holder = EXCLUDED.holder OR garden_leases.expires_at < now()
      RETURNING holder`);
    return rows.length === 1 && rows[0].holder === holder;
  });
}

/** Gives the lease up at once (a clean stop), so another process need not wait for it to expire. */
export async function releaseLease(db: Queryable, name: string, holder: string): Promise<void> {
  await db.$executeRaw(Prisma.sql`DELETE FROM garden_leases WHERE name = ${name} AND holder = ${holder}`);
}

/**
 * Inside a mirror write: whether `holder` still holds an unexpired lease. The row stays
 * key-share-locked until the transaction ends: nobody takes the lease over while the write
 * commits, and the holder's own renewal is not held up (see the top of this file).
 */
export async function stillHolds(db: Queryable, name: string, holder: string): Promise<boolean> {
  const rows = await db.$queryRaw<{ holder: string }[]>(Prisma.sql`
    SELECT holder FROM garden_leases WHERE name = ${name} AND holder = ${holder} AND expires_at > now() FOR KEY SHARE`);
  return rows.length === 1;
}

/** Who holds the lease and until when, if anyone (for readiness and the navigation). */
export async function leaseHolder(
  db: Queryable,
  name: string,
): Promise<{ holder: string; expiresAt: Date } | undefined> {
  const rows = await db.$queryRaw<{ holder: string; expires_at: Date }[]>(
    Prisma.sql`SELECT holder, expires_at FROM garden_leases WHERE name = ${name}`,
  );
  return rows[0] ? { holder: rows[0].holder, expiresAt: rows[0].expires_at } : undefined;
}

/** Where the mirror of `resource` stopped (the garden's resourceVersion), if anywhere. */
export async function watchPosition(db: Queryable, resource: string): Promise<string | undefined> {
  const row = await db.gardenWatchPosition.findUnique({ where: { resource } });
  return row?.resourceVersion;
}

export async function saveWatchPosition(db: Queryable, resource: string, resourceVersion: string): Promise<void> {
  await db.gardenWatchPosition.upsert({
    where: { resource },
    create: { resource, resourceVersion },
    update: { resourceVersion },
  });
}
