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
  // shoots.seed is status.seedName ?? spec.seedName (shoot-summary.ts), so each shoot counts once
  // there; a shoot whose spec names another seed (its control plane is moving) counts on that one
  // too. Those few come through shoots_seed_moving_idx: reading spec and status of every shoot
  // took seconds at 100,000 shoots (the lifecycle page's migration panel asks on every visit).
  const rows = await rawQuery<{ seed: string; shoots: number }>(
    db,
    Prisma.sql`
      SELECT seed, sum(shoots)::int AS shoots FROM (
        SELECT seed, count(*) AS shoots FROM shoots WHERE seed IS NOT NULL GROUP BY seed
        UNION ALL
        SELECT spec->>'seedName', count(*) FROM shoots
        WHERE (COALESCE(spec->>'seedName', '') <> COALESCE(seed, '')) AND spec->>'seedName' IS NOT NULL
        GROUP BY 1
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
