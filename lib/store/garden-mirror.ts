// The live garden's objects written into the tables both gardens are read from: the same rows,
// derived columns and change notifications as the simulated garden's writes, so every read path
// works unchanged. Each row remembers the garden's resourceVersion of what it mirrors; Almanac's
// own resourceVersion goes up by one each time that changes (the API's ETags stay small numbers).
import { notifyChange } from "../db/change-feed.ts";
import type { Tx } from "../db/client.ts";
import { Prisma } from "../db/generated/client.ts";
import { seedIsReady } from "../engine/migration-admission.ts";
import type { ProfileReference } from "../gardener/profile-reference.ts";
import type { CloudProfile, NamespacedCloudProfile, Project, Seed, Shoot } from "../gardener/types.ts";
import { shootColumns } from "./shoot-columns.ts";
import type { Queryable } from "../db/client.ts";
import {
  findShoot,
  insertShoots,
  lockShoots,
  type ShootWrite,
  type StoredShoot,
  updateShoot,
  updateShootColumns,
  updateShoots,
} from "./shoots.ts";

export type MirrorKind = "CloudProfile" | "NamespacedCloudProfile" | "Seed" | "Project" | "Shoot";

const DIGITS = /^\d{1,30}$/;

/**
 * Whether `incoming` is older than what the row holds. Kubernetes calls resourceVersions opaque,
 * but Almanac writes the garden's answer to its own changes at once, so a watch event from just
 * before may come after it; every Kubernetes API server in use numbers them by etcd's revision,
 * so two decimal versions compare as numbers. Anything else is taken as newer.
 */
export function isOlder(incoming: string | undefined, held: string | undefined): boolean {
  if (!incoming || !held || !DIGITS.test(incoming) || !DIGITS.test(held)) return false;
  return BigInt(incoming) < BigInt(held);
}

export interface MirroredShoot {
  /** The row as it is now. */
  readonly stored: StoredShoot;
  /** The shoot the row held before, when this replaced it (the same uid). */
  readonly previous?: Shoot;
  readonly changed: boolean;
}

/**
 * Writes the garden's shoot into its row (inserting, replacing or leaving it), with its columns.
 * `onlyExisting` (Almanac's own change, written through before the watch brings it) touches only
 * the row of the same shoot: one the watch removed or replaced meanwhile stays as the watch left it.
 */
export async function mirrorShoot(
  tx: Tx,
  shoot: Shoot,
  profile: CloudProfile | undefined,
  now: number,
  options: { readonly onlyExisting?: boolean } = {},
): Promise<MirroredShoot> {
  const namespace = shoot.metadata.namespace ?? "";
  const name = shoot.metadata.name;
  const gardenVersion = shoot.metadata.resourceVersion;
  const held = await findShoot(tx, namespace, name, true);
  const sameShoot = held !== undefined && held.shoot.metadata.uid === shoot.metadata.uid;
  if (options.onlyExisting && !sameShoot)
    return { stored: held ?? withVersion(shoot, 0, gardenVersion), changed: false };
  let resourceVersion = 1;
  if (held && !sameShoot) {
    // An older event of a shoot that was deleted and made again under this name changes nothing.
    if (isOlder(gardenVersion, held.gardenResourceVersion)) return { stored: held, changed: false };
    // Another cluster under the same name, whose history starts anew. Its resourceVersion keeps
    // counting up, so an ETag of the one before can never match it.
    await tx.shoot.delete({ where: { namespace_name: { namespace, name } } });
    resourceVersion = held.resourceVersion + 1;
  } else if (held) {
    if (held.gardenResourceVersion === gardenVersion || isOlder(gardenVersion, held.gardenResourceVersion))
      return { stored: held, changed: false };
    const resourceVersion = held.resourceVersion + 1;
    await updateShoot(
      tx,
      shoot,
      shootColumns(shoot, profile, now, resourceVersion, held.running),
      held.resourceVersion,
      gardenVersion,
    );
    await notifyChange(tx, { kind: "Shoot", namespace, name });
    return { stored: withVersion(shoot, resourceVersion, gardenVersion), previous: held.shoot, changed: true };
  }
  await insertShoots(tx, [
    {
      shoot,
      columns: shootColumns(shoot, profile, now, resourceVersion, undefined),
      gardenResourceVersion: gardenVersion,
      resourceVersion,
    },
  ]);
  await notifyChange(tx, { kind: "Shoot", namespace, name });
  return { stored: withVersion(shoot, resourceVersion, gardenVersion), changed: true };
}

/**
 * Many shoots at once (a list page, or a batch of watch events each naming a different shoot):
 * one query locks and reads their rows, new ones are inserted in one statement, changed ones
 * written in one statement; answers the replaced ones with what they held. The same rules as
 * mirrorShoot for each. One change notification says "everything" when more than a few changed.
 */
export async function mirrorShoots(
  tx: Tx,
  shoots: readonly Shoot[],
  profileOf: (shoot: Shoot) => CloudProfile | undefined,
  now: number,
): Promise<{ replaced: { previous: Shoot; shoot: Shoot }[]; changed: number }> {
  const key = (s: Shoot) => `${s.metadata.namespace ?? ""}/${s.metadata.name}`;
  const held = await lockShoots(
    tx,
    shoots.map((s) => ({ namespace: s.metadata.namespace ?? "", name: s.metadata.name })),
  );
  // Profiles are read after the rows are locked: a profile change's rewrite of these rows either
  // ran before (and the profile read here is the new one) or waits for this transaction.
  const inserts: Parameters<typeof insertShoots>[1][number][] = [];
  const updates: ShootWrite[] = [];
  const replaced: { previous: Shoot; shoot: Shoot }[] = [];
  const notes: { namespace: string; name: string }[] = [];
  for (const shoot of shoots) {
    const row = held.get(key(shoot));
    const gardenVersion = shoot.metadata.resourceVersion;
    const note = { namespace: shoot.metadata.namespace ?? "", name: shoot.metadata.name };
    if (row && row.shoot.metadata.uid === shoot.metadata.uid) {
      if (row.gardenResourceVersion === gardenVersion || isOlder(gardenVersion, row.gardenResourceVersion)) continue;
      const resourceVersion = row.resourceVersion + 1;
      const columns = shootColumns(shoot, profileOf(shoot), now, resourceVersion, row.running);
      updates.push({ shoot, columns, expectedVersion: row.resourceVersion, gardenResourceVersion: gardenVersion });
      replaced.push({ previous: row.shoot, shoot });
      notes.push(note);
      continue;
    }
    // An older event of a shoot that was deleted and made again under this name changes nothing.
    if (row && isOlder(gardenVersion, row.gardenResourceVersion)) continue;
    // Another cluster under the same name starts its history anew; its resourceVersion keeps
    // counting up, so an ETag of the one before can never match it.
    if (row) await tx.shoot.delete({ where: { namespace_name: note } });
    const resourceVersion = row ? row.resourceVersion + 1 : 1;
    inserts.push({
      shoot,
      columns: shootColumns(shoot, profileOf(shoot), now, resourceVersion, undefined),
      gardenResourceVersion: gardenVersion,
      resourceVersion,
    });
    notes.push(note);
  }
  await updateShoots(tx, updates);
  await insertShoots(tx, inserts);
  if (notes.length > 20) await notifyChange(tx, { kind: "*" });
  else for (const note of notes) await notifyChange(tx, { kind: "Shoot", ...note });
  return { replaced, changed: notes.length };
}

function withVersion(shoot: Shoot, resourceVersion: number, gardenResourceVersion: string | undefined): StoredShoot {
  return {
    resourceVersion,
    ...(gardenResourceVersion ? { gardenResourceVersion } : {}),
    shoot: { ...shoot, metadata: { ...shoot.metadata, resourceVersion: String(resourceVersion) } },
  };
}

/**
 * Removes a shoot the garden no longer has; answers the shoot it held, if any. With `uid`, only
 * that shoot: a late deletion of one made again under the same name leaves the new one alone.
 */
export async function unmirrorShoot(tx: Tx, namespace: string, name: string, uid?: string): Promise<Shoot | undefined> {
  const held = await findShoot(tx, namespace, name, true);
  if (!held || (uid !== undefined && held.shoot.metadata.uid !== uid)) return undefined;
  await tx.shoot.delete({ where: { namespace_name: { namespace, name } } });
  await notifyChange(tx, { kind: "Shoot", namespace, name });
  return held.shoot;
}

/** A list of `resource` starts: forget what an earlier list of it, ended or not, marked. */
export async function clearListMarks(tx: Tx, resource: string): Promise<void> {
  await tx.$executeRaw(Prisma.sql`DELETE FROM garden_list_marks WHERE resource = ${resource}`);
}

/** The list under way of `resource` has seen these shoots (written in the same transaction). */
export async function markListed(
  tx: Tx,
  resource: string,
  keys: readonly { namespace: string; name: string }[],
): Promise<void> {
  if (keys.length === 0) return;
  await tx.$executeRaw(Prisma.sql`
    INSERT INTO garden_list_marks (resource, namespace, name)
    SELECT ${resource}, k.namespace, k.name
    FROM unnest(${keys.map((k) => k.namespace)}::text[], ${keys.map((k) => k.name)}::text[]) AS k(namespace, name)
    ON CONFLICT DO NOTHING`);
}

/**
 * The list of `resource` has ended: removes, in one statement, every shoot it did not mark (the
 * garden no longer has it) and the marks; answers the keys removed.
 */
export async function sweepUnlisted(tx: Tx, resource: string): Promise<{ namespace: string; name: string }[]> {
  const gone = await tx.$queryRaw<{ namespace: string; name: string }[]>(Prisma.sql`
    DELETE FROM shoots s
    WHERE NOT EXISTS (
      SELECT 1 FROM garden_list_marks m WHERE m.resource = ${resource} AND m.namespace = s.namespace AND m.name = s.name)
    RETURNING s.namespace, s.name`);
  await clearListMarks(tx, resource);
  if (gone.length > 20) await notifyChange(tx, { kind: "*" });
  else for (const key of gone) await notifyChange(tx, { kind: "Shoot", ...key });
  return gone;
}

/**
 * Which shoots use a profile, as a condition on the shoots table (the profile rewrite selects its
 * shoots with it): a cloud profile's are those naming it, not those of a NamespacedCloudProfile
 * extending it (Gardener merges the parent's change into that profile's status, whose own change
 * reaches them); a namespaced one's are those of its namespace naming it.
 */
export function shootsOfProfileWhere(ref: ProfileReference): Prisma.Sql {
  return ref.kind === "NamespacedCloudProfile"
    ? Prisma.sql`namespace = ${ref.namespace ?? ""} AND namespaced_cloud_profile = ${ref.name}`
    : Prisma.sql`cloud_profile = ${ref.name} AND namespaced_cloud_profile IS NULL`;
}

/**
 * One batch of a profile change's rewrite: the derived columns of up to `limit` shoots that
 * match `where`, after the key `after`, computed with `profileOf` read once their rows are
 * locked. Answers the last key written, or undefined when none is left.
 */
export async function rewriteShootColumnsAfter(
  tx: Tx,
  where: Prisma.Sql,
  after: { namespace: string; name: string } | undefined,
  limit: number,
  profileOf: (shoot: Shoot) => CloudProfile | undefined,
  now: number,
): Promise<{ namespace: string; name: string } | undefined> {
  const from = after ? Prisma.sql`AND (namespace, name) > (${after.namespace}, ${after.name})` : Prisma.empty;
  const keys = await tx.$queryRaw<{ namespace: string; name: string }[]>(Prisma.sql`
    SELECT namespace, name FROM shoots WHERE ${where} ${from} ORDER BY namespace, name LIMIT ${limit}`);
  if (keys.length === 0) return undefined;
  const held = await lockShoots(tx, keys);
  await updateShootColumns(
    tx,
    [...held.values()].map((row) => ({
      shoot: row.shoot,
      columns: shootColumns(row.shoot, profileOf(row.shoot), now, row.resourceVersion + 1, row.running),
      expectedVersion: row.resourceVersion,
    })),
  );
  if (held.size > 20) await notifyChange(tx, { kind: "*" });
  else
    for (const row of held.values())
      await notifyChange(tx, { kind: "Shoot", namespace: row.shoot.metadata.namespace, name: row.shoot.metadata.name });
  return keys[keys.length - 1];
}

/** The profiles (of both kinds) whose shoots still need their derived columns rewritten, and for which version. */
export async function profilesToRewrite(
  tx: Queryable,
): Promise<{ reference: ProfileReference; resourceVersion: number }[]> {
  const rows = await tx.$queryRaw<{ namespace: string | null; name: string; resource_version: number }[]>(Prisma.sql`
    SELECT NULL AS namespace, name, resource_version FROM cloud_profiles
    WHERE shoots_columns_version IS DISTINCT FROM resource_version
    UNION ALL
    SELECT namespace, name, resource_version FROM namespaced_cloud_profiles
    WHERE shoots_columns_version IS DISTINCT FROM resource_version
    ORDER BY namespace NULLS FIRST, name`);
  return rows.map((r) => ({
    reference:
      r.namespace === null
        ? { kind: "CloudProfile", name: r.name }
        : { kind: "NamespacedCloudProfile", namespace: r.namespace, name: r.name },
    resourceVersion: r.resource_version,
  }));
}

/** The rewrite for `resourceVersion` of a profile is done. */
export async function profileRewritten(tx: Tx, ref: ProfileReference, resourceVersion: number): Promise<void> {
  await tx.$executeRaw(
    ref.kind === "NamespacedCloudProfile"
      ? Prisma.sql`UPDATE namespaced_cloud_profiles SET shoots_columns_version = ${resourceVersion}
          WHERE namespace = ${ref.namespace ?? ""} AND name = ${ref.name}`
      : Prisma.sql`UPDATE cloud_profiles SET shoots_columns_version = ${resourceVersion} WHERE name = ${ref.name}`,
  );
}

type Document = { metadata: { name: string; namespace?: string; resourceVersion?: string } };
type ObjectKind = Exclude<MirrorKind, "Shoot">;

function documentOf(object: Document): Prisma.InputJsonObject {
  // managedFields are never read: never stored (review m9).
  const {
    resourceVersion: _rv,
    managedFields: _mf,
    ...metadata
  } = object.metadata as Document["metadata"] & {
    managedFields?: unknown;
  };
  return { ...object, metadata } as unknown as Prisma.InputJsonObject;
}

/** The columns a cluster-scoped kind keeps beside its document. */
function keyColumns(kind: ObjectKind, object: Document): Record<string, unknown> {
  if (kind === "Seed") {
    const seed = object as unknown as Seed;
    return { provider: seed.spec.provider.type, region: seed.spec.provider.region, ready: seedIsReady(seed) };
  }
  if (kind === "Project") {
    const project = object as unknown as Project;
    return { namespace: project.spec.namespace ?? `garden-${project.metadata.name}` };
  }
  if (kind === "NamespacedCloudProfile")
    return { parent: (object as unknown as NamespacedCloudProfile).spec?.parent?.name ?? "" };
  return {};
}

const TABLES = {
  CloudProfile: "cloud_profiles",
  NamespacedCloudProfile: "namespaced_cloud_profiles",
  Seed: "seeds",
  Project: "projects",
} as const;
const MODELS = {
  CloudProfile: "cloudProfile",
  NamespacedCloudProfile: "namespacedCloudProfile",
  Seed: "seed",
  Project: "project",
} as const;

/** A row's key: its name, and a namespaced kind's namespace too. */
function rowKey(kind: ObjectKind, name: string, namespace: string | undefined) {
  const namespaced = kind === "NamespacedCloudProfile";
  return {
    sql: namespaced ? Prisma.sql`namespace = ${namespace ?? ""} AND name = ${name}` : Prisma.sql`name = ${name}`,
    where: namespaced ? { namespace_name: { namespace: namespace ?? "", name } } : { name },
    create: namespaced ? { namespace: namespace ?? "", name } : { name },
    note: namespaced ? { kind, namespace: namespace ?? "", name } : { kind, name },
  };
}

/**
 * Writes a cloud profile, namespaced cloud profile, seed or project as the garden has it; answers
 * whether the row changed. A project without a namespace yet (Gardener is still creating it) is
 * left out.
 */
export async function mirrorObject(
  tx: Tx,
  kind: ObjectKind,
  object: CloudProfile | NamespacedCloudProfile | Seed | Project,
): Promise<boolean> {
  if (kind === "Project" && !(object as Project).spec?.namespace) return false;
  const key = rowKey(kind, object.metadata.name, object.metadata.namespace);
  const gardenVersion = object.metadata.resourceVersion ?? null;
  const rows = await tx.$queryRaw<{ garden_resource_version: string | null }[]>(
    Prisma.sql`SELECT garden_resource_version FROM ${Prisma.raw(TABLES[kind])} WHERE ${key.sql} FOR UPDATE`,
  );
  const held = rows[0]?.garden_resource_version ?? undefined;
  if (rows.length > 0 && (held === gardenVersion || isOlder(gardenVersion ?? undefined, held))) return false;
  const data = { ...keyColumns(kind, object), document: documentOf(object), gardenResourceVersion: gardenVersion };
  const model = tx[MODELS[kind]] as unknown as { upsert(args: object): Promise<unknown> };
  await model.upsert({
    where: key.where,
    create: { ...key.create, ...data },
    update: { ...data, resourceVersion: { increment: 1 } },
  });
  await notifyChange(tx, key.note);
  return true;
}

/** Removes a cloud profile, namespaced one (with `namespace`), seed or project the garden no longer has. */
export async function unmirrorObject(tx: Tx, kind: ObjectKind, name: string, namespace?: string): Promise<boolean> {
  const key = rowKey(kind, name, namespace);
  const count = await tx.$executeRaw(Prisma.sql`DELETE FROM ${Prisma.raw(TABLES[kind])} WHERE ${key.sql}`);
  if (count > 0) await notifyChange(tx, key.note);
  return count > 0;
}

/** The keys of every mirrored object of a kind: names, or "namespace/name" for a namespaced kind. */
export async function mirroredNames(tx: Tx, kind: ObjectKind): Promise<string[]> {
  const key = kind === "NamespacedCloudProfile" ? "namespace || '/' || name" : "name";
  const rows = await tx.$queryRaw<{ key: string }[]>(
    Prisma.sql`SELECT ${Prisma.raw(key)} AS key FROM ${Prisma.raw(TABLES[kind])} ORDER BY 1`,
  );
  return rows.map((r) => r.key);
}
