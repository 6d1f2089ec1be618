// CloudProfiles in Postgres, and a short-lived in-process cache: every fleet-list request needs
// them (classifications are computed when read) and they change rarely.
import type { CloudProfile } from "../gardener/types.ts";
import { GARDENER_API_VERSION } from "../gardener/types.ts";
import type { Prisma } from "../db/generated/client.ts";
import { onChange } from "../db/change-feed.ts";
import type { Db, Tx } from "../db/client.ts";

function toProfile(row: { name: string; resourceVersion: number; document: unknown }): CloudProfile {
  const doc = row.document as CloudProfile;
  return {
    ...doc,
    apiVersion: GARDENER_API_VERSION,
    kind: "CloudProfile",
    metadata: { ...doc.metadata, name: row.name, resourceVersion: String(row.resourceVersion) },
  };
}

export async function listCloudProfiles(tx: Tx | Db): Promise<CloudProfile[]> {
  const rows = await tx.cloudProfile.findMany({ orderBy: { name: "asc" } });
  return rows.map(toProfile);
}

export async function findCloudProfile(tx: Tx | Db, name: string): Promise<CloudProfile | undefined> {
  const row = await tx.cloudProfile.findUnique({ where: { name } });
  return row ? toProfile(row) : undefined;
}

export async function insertCloudProfiles(tx: Tx, profiles: readonly CloudProfile[]): Promise<void> {
  await tx.cloudProfile.createMany({
    data: profiles.map((p) => {
      const { resourceVersion: _rv, ...metadata } = p.metadata;
      return { name: p.metadata.name, document: { ...p, metadata } as unknown as Prisma.InputJsonObject };
    }),
  });
}

const CACHE_MS = 5_000;
let cache: { at: number; profiles: Promise<Map<string, CloudProfile>> } | undefined;

/** All profiles by name, at most a few seconds old. */
export function cachedCloudProfiles(db: Db, now = Date.now()): Promise<Map<string, CloudProfile>> {
  if (!cache || now - cache.at > CACHE_MS) {
    const profiles = listCloudProfiles(db).then((list) => new Map(list.map((p) => [p.metadata.name, p])));
    cache = { at: now, profiles };
    profiles.catch(() => (cache = undefined));
  }
  return cache.profiles;
}

/** After a write to cloud profiles (seeding), so the next read sees it at once. */
export function forgetCachedCloudProfiles(): void {
  cache = undefined;
}

// Another process may replace the landscape (npm run seed): forget as soon as the feed says so.
onChange((change) => {
  if (change.kind === "*" || change.kind === "CloudProfile") forgetCachedCloudProfiles();
});
