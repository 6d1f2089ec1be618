// The project a namespace belongs to, for roles granted per project. Projects change rarely, so
// each process keeps the answer for half a minute.
import type { Db } from "../db/client.ts";
import { findProjectByNamespace } from "../store/projects.ts";

const TTL_MS = 30_000;
const cache = new Map<string, { project: string | undefined; until: number }>();

export async function projectOfNamespace(db: Db, namespace: string, now = Date.now()): Promise<string | undefined> {
  const hit = cache.get(namespace);
  if (hit && hit.until > now) return hit.project;
  const project = (await findProjectByNamespace(db, namespace))?.metadata.name;
  if (cache.size > 10_000) cache.clear(); // namespaces are few; this only bounds odd input
  cache.set(namespace, { project, until: now + TTL_MS });
  return project;
}
