// GET /api/v1/seeds: every seed, in Gardener's shape (readiness in its conditions, taints in spec).
import type { Db } from "../db/client.ts";
import type { Seed } from "../gardener/types.ts";
import { listSeeds as storedSeeds } from "../store/seeds.ts";

export async function listSeeds(db: Db): Promise<{ items: Seed[] }> {
  return { items: await storedSeeds(db) };
}
