// Who holds which role where: one row per user and scope ("*" or a project).
import type { Queryable } from "../db/client.ts";

export interface StoredBinding {
  readonly role: string;
  readonly scope: string;
}

export async function bindingsOf(db: Queryable, userId: string): Promise<StoredBinding[]> {
  return db.roleBinding.findMany({ where: { userId }, select: { role: true, scope: true }, orderBy: { scope: "asc" } });
}

/** Grants `role` on `scope`, replacing the user's role there. */
export async function grantRole(db: Queryable, userId: string, role: string, scope: string): Promise<void> {
  await db.roleBinding.upsert({
    where: { userId_scope: { userId, scope } },
    create: { userId, role, scope },
    update: { role },
  });
}
