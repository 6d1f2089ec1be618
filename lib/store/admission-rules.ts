// The simulated garden's admission webhooks (lib/engine/garden-admission.ts), one row per webhook.
import type { Prisma } from "../db/generated/client.ts";
import type { Queryable, Tx } from "../db/client.ts";
import type { GardenAdmissionRule } from "../engine/garden-admission.ts";

/** Every rule, in webhook order (the order in which they are asked). */
export async function listAdmissionRules(db: Queryable): Promise<GardenAdmissionRule[]> {
  const rows = await db.gardenAdmissionRule.findMany({ orderBy: { webhook: "asc" } });
  return rows.map((row) => ({ ...(row.document as unknown as GardenAdmissionRule), webhook: row.webhook }));
}

/** Replaces every rule with these. */
export async function replaceAdmissionRules(tx: Tx, rules: readonly GardenAdmissionRule[]): Promise<void> {
  await tx.gardenAdmissionRule.deleteMany();
  if (rules.length === 0) return;
  await tx.gardenAdmissionRule.createMany({
    data: rules.map((r) => ({ webhook: r.webhook, document: r as unknown as Prisma.InputJsonObject })),
  });
}
