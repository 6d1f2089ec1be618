// Seeds in Postgres, with provider, region and readiness as columns.
import type { Seed } from "../gardener/types.ts";
import { GARDENER_API_VERSION } from "../gardener/types.ts";
import type { Prisma } from "../db/generated/client.ts";
import type { Db, Tx } from "../db/client.ts";
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
