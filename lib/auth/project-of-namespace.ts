// The project a namespace belongs to, for roles granted per project. Projects change rarely, so
// each process keeps the answer for half a minute.
import { LRUCache } from "lru-cache";
import type { Db } from "../db/client.ts";
import { findProjectByNamespace } from "../store/projects.ts";

// Namespaces are few; the bound is only for odd input. A namespace of no project is kept too.
const cache = new LRUCache<string, { project: string | undefined }>({ max: 10_000, ttl: 30_000 });

export async function projectOfNamespace(db: Db, namespace: string): Promise<string | undefined> {
  const hit = cache.get(namespace);
  if (hit) return hit.project;
  const project = (await findProjectByNamespace(db, namespace))?.metadata.name;
  cache.set(namespace, { project });
  return project;
}
