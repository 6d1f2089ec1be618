// GET /api/v1/namespaces/{ns}/shoots/{name}: the shoot in Gardener's shape.
import type { Queryable } from "../db/client.ts";
import { findShoot, type StoredShoot } from "../store/shoots.ts";
import { notFound } from "../api/refusal.ts";

export async function getShoot(db: Queryable, namespace: string, name: string): Promise<StoredShoot> {
  const stored = await findShoot(db, namespace, name);
  if (!stored) throw notFound(`Shoot ${namespace}/${name} does not exist.`);
  return stored;
}
