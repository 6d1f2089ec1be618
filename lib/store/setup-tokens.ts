// The first-admin setup link's token: only its SHA-256 is stored; it can be used once, until it
// expires.
import type { Queryable } from "../db/client.ts";

export async function insertSetupToken(db: Queryable, tokenHash: string, expiresAt: Date): Promise<void> {
  await db.setupToken.create({ data: { tokenHash, expiresAt } });
}

/** Marks the token used if it is unused and unexpired at `now`; answers whether it was. */
export async function useSetupToken(tx: Queryable, tokenHash: string, now: Date): Promise<boolean> {
  const { count } = await tx.setupToken.updateMany({
    where: { tokenHash, usedAt: null, expiresAt: { gt: now } },
    data: { usedAt: now },
  });
  return count === 1;
}

export async function hasUsers(db: Queryable): Promise<boolean> {
  return (await db.user.count({ take: 1 })) > 0;
}

/** Makes a taken token usable again (what it was taken for failed). */
export async function releaseSetupToken(db: Queryable, tokenHash: string): Promise<void> {
  await db.setupToken.updateMany({ where: { tokenHash }, data: { usedAt: null } });
}
