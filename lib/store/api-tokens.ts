// API tokens: only the SHA-256 of each is stored, so a database leak does not leak them.
import type { Queryable } from "../db/client.ts";

export interface StoredToken {
  readonly id: string;
  readonly name: string;
  readonly role: string;
  readonly scope: string;
  readonly createdBy: string;
  readonly createdAt: Date;
  readonly expiresAt: Date | null;
  readonly lastUsedAt: Date | null;
  readonly revokedAt: Date | null;
}

const COLUMNS = {
  id: true,
  name: true,
  role: true,
  scope: true,
  createdBy: true,
  createdAt: true,
  expiresAt: true,
  lastUsedAt: true,
  revokedAt: true,
} as const;

/** The token with this hash, if it is neither revoked nor expired at `now`. */
export async function findUsableToken(db: Queryable, tokenHash: string, now: Date): Promise<StoredToken | undefined> {
  const row = await db.apiToken.findUnique({ where: { tokenHash }, select: COLUMNS });
  if (!row || row.revokedAt || (row.expiresAt && row.expiresAt <= now)) return undefined;
  return row;
}

/** Notes a use; at most once a minute per token, so busy automation does not write on every call. */
export async function noteTokenUse(db: Queryable, id: string, now: Date): Promise<void> {
  await db.apiToken.updateMany({
    where: { id, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: new Date(now.getTime() - 60_000) } }] },
    data: { lastUsedAt: now },
  });
}

export async function insertToken(
  db: Queryable,
  token: Omit<StoredToken, "id" | "createdAt" | "lastUsedAt" | "revokedAt"> & { tokenHash: string },
): Promise<StoredToken> {
  return db.apiToken.create({ data: token, select: COLUMNS });
}

export async function listTokens(db: Queryable): Promise<StoredToken[]> {
  return db.apiToken.findMany({ select: COLUMNS, orderBy: { createdAt: "desc" } });
}

/**
 * Revokes the token; answers it and whether this call revoked it (false when it already was), or
 * undefined when there is none by that id.
 */
export async function revokeToken(
  db: Queryable,
  id: string,
  now: Date,
): Promise<{ token: StoredToken; revokedNow: boolean } | undefined> {
  const { count } = await db.apiToken.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: now } });
  const token = await db.apiToken.findUnique({ where: { id }, select: COLUMNS });
  return token ? { token, revokedNow: count === 1 } : undefined;
}

export async function tokenNameTaken(db: Queryable, name: string): Promise<boolean> {
  return (await db.apiToken.count({ where: { name } })) > 0;
}
