// Seeds in Postgres, with provider, region and readiness as columns.
import type { Seed } from "../gardener/types.ts";
import { GARDENER_API_VERSION } from "../gardener/types.ts";
import { Prisma } from "../db/generated/client.ts";
import { type Db, type Queryable, rawQuery, type Tx } from "../db/client.ts";
import { seedIsReady } from "../engine/migration-admission.ts";

export async function listSeeds(tx: Tx | Db): Promise<Seed[]> {
  const rows = await tx.seed.findMany({ orderBy: { name: "asc" } });
  return rows.map((row) => {
    const doc = row.document as unknown as Seed;
    return {
      ...doc,
      apiVersion: GARDENER_API_VERSION,
      kind: "Seed",
      metadata: { ...doc.metadata, name: row.name, resourceVersion: String(row.resourceVersion) },
    };
  });
}

/** One seed, or undefined. */
export async function findSeed(tx: Queryable, name: string): Promise<Seed | undefined> {
  const row = await tx.seed.findUnique({ where: { name } });
  if (!row) return undefined;
  const doc = row.document as unknown as Seed;
  return { ...doc, metadata: { ...doc.metadata, name: row.name, resourceVersion: String(row.resourceVersion) } };
}

/**
 * Shoots per seed as Gardener's CalculateSeedUsage counts them (lib/engine/migration-admission.ts,
 * calculateSeedUsage): spec.seedName, and status.seedName too when it differs.
 */
export async function seedUsage(db: Queryable): Promise<Map<string, number>> {
  const rows = await rawQuery<{ seed: string; shoots: number }>(
    db,
    Prisma.sql`
      SELECT seed, count(*)::int AS shoots FROM (
        SELECT spec->>'seedName' AS seed FROM shoots WHERE spec->>'seedName' IS NOT NULL
        UNION ALL
        SELECT status->>'seedName' FROM shoots
        WHERE status->>'seedName' IS NOT NULL AND status->>'seedName' IS DISTINCT FROM spec->>'seedName'
      ) used GROUP BY seed`,
  );
  return new Map(rows.map((r) => [r.seed, r.shoots]));
}

export async function insertSeeds(tx: Tx, seeds: readonly Seed[]): Promise<void> {
  await tx.seed.createMany({
    data: seeds.map((s) => {
      const { resourceVersion: _rv, ...metadata } = s.metadata;
      return {
        name: s.metadata.name,
        provider: s.spec.provider.type,
        region: s.spec.provider.region,
        ready: seedIsReady(s),
        document: { ...s, metadata } as unknown as Prisma.InputJsonObject,
      };
    }),
  });
}
