// CloudProfiles in Postgres, and a short-lived in-process cache: every fleet-list request needs
// them (classifications are computed when read) and they change rarely. The profiles shoots are
// read against (profilesByKey, the cache, shootProfile) include each NamespacedCloudProfile
// Gardener has resolved, in the CloudProfile shape, under its profileKey ("namespace/name").
import type { CloudProfile, Shoot } from "../gardener/types.ts";
import { GARDENER_API_VERSION } from "../gardener/types.ts";
import { profileReferenceOf, resolvedNamespacedProfile } from "../gardener/profile-reference.ts";
import { findNamespacedCloudProfile, listNamespacedCloudProfiles } from "./namespaced-cloud-profiles.ts";
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

/**
 * Every profile a shoot can name, by profileKey: CloudProfiles by name, resolved
 * NamespacedCloudProfiles by "namespace/name" (one without Gardener's status yet is left out).
 */
export async function profilesByKey(tx: Tx | Db): Promise<Map<string, CloudProfile>> {
  const [profiles, namespaced] = await Promise.all([listCloudProfiles(tx), listNamespacedCloudProfiles(tx)]);
  const byKey = new Map(profiles.map((p) => [p.metadata.name, p]));
  for (const n of namespaced) {
    const resolved = resolvedNamespacedProfile(n);
    if (resolved) byKey.set(`${n.metadata.namespace}/${n.metadata.name}`, resolved);
  }
  return byKey;
}

/** The profile `shoot` is read against (see profile-reference.ts), or undefined when missing. */
export async function shootProfile(tx: Tx | Db, shoot: Shoot): Promise<CloudProfile | undefined> {
  const reference = profileReferenceOf(shoot);
  if (!reference) return undefined;
  if (reference.kind === "CloudProfile") return findCloudProfile(tx, reference.name);
  const namespaced = await findNamespacedCloudProfile(tx, reference.namespace ?? "", reference.name);
  return namespaced && resolvedNamespacedProfile(namespaced);
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

/** profilesByKey (CloudProfiles by name, NamespacedCloudProfiles by "namespace/name"), at most a few seconds old. */
export function cachedCloudProfiles(db: Db, now = Date.now()): Promise<Map<string, CloudProfile>> {
  if (!cache || now - cache.at > CACHE_MS) {
    const profiles = profilesByKey(db);
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
  if (change.kind === "*" || change.kind === "CloudProfile" || change.kind === "NamespacedCloudProfile")
    forgetCachedCloudProfiles();
});
