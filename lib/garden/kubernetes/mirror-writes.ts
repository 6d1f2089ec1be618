// What the mirror does with each list and event of a live garden: write it into the tables (the
// store's garden-mirror.ts), record what the garden did as history (a maintenance run Gardener
// recorded, versions or the seed it changed, an operation that ended), end the migrations and
// deletions Almanac started once Gardener has finished them, and keep the derived columns of a
// cloud profile's shoots true when the profile changes. Each write checks the lease in its own
// transaction, so a process that lost it writes nothing more.
import type { Db, Tx } from "../../db/client.ts";
import { observeShootChange } from "../../engine/observed-changes.ts";
import { observedDeletionEnd, observedMigrationEnd } from "../../engine/observed-endings.ts";
import type { CloudProfile, Shoot } from "../../gardener/types.ts";
import { profileKeyOf, resolvedNamespacedProfile } from "../../gardener/profile-reference.ts";
import { recordAuditEvents } from "../../store/audit.ts";
import { findCloudProfile, profilesByKey, shootProfile } from "../../store/cloud-profiles.ts";
import { findNamespacedCloudProfile } from "../../store/namespaced-cloud-profiles.ts";
import { latestDeletion, saveDeletion } from "../../store/deletions.ts";
import { saveWatchPosition, stillHolds } from "../../store/garden-lease.ts";
import {
  mirroredNames,
  mirroredShootKeys,
  mirrorObject,
  mirrorShoot,
  mirrorShoots,
  type MirrorKind,
  refreshShootColumns,
  shootsOfNamespacedProfile,
  shootsOfProfile,
  unmirrorObject,
  unmirrorShoot,
} from "../../store/garden-mirror.ts";
import { insertMaintenanceRuns } from "../../store/maintenance-runs.ts";
import { maintenanceRunsRecorded } from "../../observability/maintenance-runs.ts";
import { latestMigration, saveMigration } from "../../store/migrations.ts";
import type { GardenObject, ListWatchHandlers, WatchEventType } from "./list-watch.ts";

/** The actor history records for what the garden did by itself. */
export const GARDEN_ACTOR = "garden";

export class LeaseLost extends Error {
  constructor() {
    super("This process no longer holds the garden lease; it stops mirroring.");
  }
}

export interface MirrorContext {
  readonly db: Db;
  readonly lease: string;
  readonly holder: string;
  readonly clock?: () => number;
}

// Relists write in slices, each its own transaction: a lock held for the whole fleet would stall
// every write through Almanac meanwhile.
const SLICE = 200;
const TX_OPTIONS = { maxWait: 10_000, timeout: 120_000 };

async function fenced<T>(ctx: MirrorContext, work: (tx: Tx) => Promise<T>): Promise<T> {
  return ctx.db.$transaction(async (tx) => {
    if (!(await stillHolds(tx, ctx.lease, ctx.holder))) throw new LeaseLost();
    return work(tx);
  }, TX_OPTIONS);
}

const now = (ctx: MirrorContext) => (ctx.clock ?? Date.now)();

/** A shoot as the list or watch gives it (list items come without apiVersion and kind). */
const asShoot = (object: GardenObject): Shoot => ({
  ...object,
  apiVersion: "core.gardener.cloud/v1beta1",
  kind: "Shoot",
});

/** The history of what the garden did between two states of a shoot (exported for the write port's refresh). */
export async function recordObserved(tx: Tx, before: Shoot, after: Shoot, at: number): Promise<void> {
  const namespace = after.metadata.namespace ?? "";
  const name = after.metadata.name;
  const observed = observeShootChange(before, after);
  if (observed.run) {
    const startedAt = new Date(observed.run.startedAt || at);
    await insertMaintenanceRuns(tx, [
      {
        namespace,
        name,
        trigger: observed.run.trigger,
        state: observed.run.state,
        changes: observed.run.changes,
        description: observed.run.description,
        ...(observed.run.failureReason ? { failureReason: observed.run.failureReason } : {}),
        startedAt,
        finishedAt: startedAt,
      },
    ]);
    // Counted inside the mirror's transaction (it has no after-commit hook): a mirror write that
    // rolls back, rare, is counted all the same.
    maintenanceRunsRecorded([observed.run.state]);
  }
  await recordAuditEvents(
    tx,
    observed.events.map((e) => ({
      actor: GARDEN_ACTOR,
      action: e.action,
      target: { kind: "Shoot", namespace, name },
      changes: e.changes,
    })),
  );
  if (observed.events.length > 0) {
    const migration = await latestMigration(tx, namespace, name);
    const ended = migration && observedMigrationEnd(migration.flow, after, at);
    if (migration && ended) await saveMigration(tx, migration.id, ended);
  }
}

async function writeShoot(tx: Tx, object: GardenObject, at: number, profiles: Map<string, CloudProfile | undefined>) {
  const shoot = asShoot(object);
  const key = profileKeyOf(shoot);
  if (!profiles.has(key)) profiles.set(key, await shootProfile(tx, shoot));
  const mirrored = await mirrorShoot(tx, shoot, profiles.get(key), at);
  if (mirrored.previous) await recordObserved(tx, mirrored.previous, shoot, at);
}

async function removeShoot(tx: Tx, namespace: string, name: string, at: number, uid?: string) {
  const gone = await unmirrorShoot(tx, namespace, name, uid);
  if (!gone) return;
  const deletion = await latestDeletion(tx, namespace, name);
  const ended = deletion && observedDeletionEnd(deletion.flow, at);
  if (deletion && ended) await saveDeletion(tx, deletion.id, ended);
  await recordAuditEvents(tx, [
    { actor: GARDEN_ACTOR, action: "shoot.deleted", target: { kind: "Shoot", namespace, name }, changes: [] },
  ]);
}

export function shootHandlers(ctx: MirrorContext, resource: string): ListWatchHandlers {
  return {
    async replace(items) {
      const at = now(ctx);
      const profiles = await profilesByKey(ctx.db);
      for (let i = 0; i < items.length; i += SLICE) {
        await fenced(ctx, async (tx) => {
          const slice = items.slice(i, i + SLICE).map(asShoot);
          const { replaced } = await mirrorShoots(tx, slice, (s) => profiles.get(profileKeyOf(s)), at);
          for (const { previous, shoot } of replaced) await recordObserved(tx, previous, shoot, at);
        });
      }
      const listed = new Set(items.map((s: GardenObject) => `${s.metadata?.namespace}/${s.metadata?.name}`));
      await fenced(ctx, async (tx) => {
        for (const key of await mirroredShootKeys(tx))
          if (!listed.has(`${key.namespace}/${key.name}`)) await removeShoot(tx, key.namespace, key.name, at);
      });
    },
    async apply(type: WatchEventType, object) {
      const at = now(ctx);
      await fenced(ctx, async (tx) => {
        if (type === "DELETED")
          await removeShoot(tx, object.metadata.namespace, object.metadata.name, at, object.metadata.uid);
        else await writeShoot(tx, object, at, new Map());
      });
    },
    reached: positionKeeper(ctx, resource),
  };
}

export function objectHandlers(
  ctx: MirrorContext,
  kind: Exclude<MirrorKind, "Shoot">,
  resource: string,
): ListWatchHandlers {
  const withKind = (object: GardenObject) => ({ ...object, apiVersion: "core.gardener.cloud/v1beta1", kind });
  const namespaced = kind === "NamespacedCloudProfile";
  // The key mirroredNames answers: "namespace/name" for a namespaced kind.
  const keyOf = (object: GardenObject) =>
    namespaced ? `${object.metadata?.namespace}/${object.metadata?.name}` : object.metadata?.name;
  const split = (key: string) => (namespaced ? key.split("/") : [undefined, key]) as [string | undefined, string];
  // A cloud profile's classifications feed its shoots' derived columns (expiry, the list row);
  // a namespaced one's feed its shoots' (those in its namespace that name it).
  const afterProfileChange = async (tx: Tx, name: string, namespace?: string) => {
    if (kind === "CloudProfile") {
      const profile = await findCloudProfile(tx, name);
      for (const held of await shootsOfProfile(tx, name)) await refreshShootColumns(tx, held, profile, now(ctx));
    } else if (namespaced) {
      const stored = await findNamespacedCloudProfile(tx, namespace ?? "", name);
      const profile = stored && resolvedNamespacedProfile(stored);
      for (const held of await shootsOfNamespacedProfile(tx, namespace ?? "", name))
        await refreshShootColumns(tx, held, profile, now(ctx));
    }
  };
  return {
    async replace(items) {
      await fenced(ctx, async (tx) => {
        for (const item of items)
          if (await mirrorObject(tx, kind, withKind(item)))
            await afterProfileChange(tx, item.metadata.name, item.metadata.namespace);
        const listed = new Set(items.map(keyOf));
        for (const key of await mirroredNames(tx, kind)) {
          const [namespace, name] = split(key);
          if (!listed.has(key) && (await unmirrorObject(tx, kind, name, namespace)))
            await afterProfileChange(tx, name, namespace);
        }
      });
    },
    async apply(type, object) {
      await fenced(ctx, async (tx) => {
        const { name, namespace } = object.metadata;
        const changed =
          type === "DELETED"
            ? await unmirrorObject(tx, kind, name, namespace)
            : await mirrorObject(tx, kind, withKind(object));
        if (changed) await afterProfileChange(tx, name, namespace);
      });
    },
    reached: positionKeeper(ctx, resource),
  };
}

/**
 * Keeps the position at most about once a second; a position that came within that second is
 * kept a second later, so the last of a burst is not lost.
 */
function positionKeeper(ctx: MirrorContext, resource: string) {
  let savedAt = 0;
  let pending: string | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const save = async (resourceVersion: string) => {
    savedAt = now(ctx);
    pending = undefined;
    await fenced(ctx, (tx) => saveWatchPosition(tx, resource, resourceVersion));
  };
  return async (resourceVersion: string) => {
    if (now(ctx) - savedAt >= 1_000) return save(resourceVersion);
    pending = resourceVersion;
    timer ??= setTimeout(() => {
      timer = undefined;
      // A later save wins; a failure is retried by the next event or bookmark.
      if (pending !== undefined) save(pending).catch(() => {});
    }, 1_000);
    timer.unref?.();
  };
}
