// What the mirror does with each list and event of a live garden: write it into the tables (the
// store's garden-mirror.ts), record what the garden did as history (a maintenance run Gardener
// recorded, versions or the seed it changed, an operation that ended), end the migrations and
// deletions Almanac started once Gardener has finished them, and keep the derived columns of a
// profile's shoots (a cloud profile's, or a namespaced one's) true when the profile changes. Each
// write checks the lease in its own transaction, so a process that lost it writes nothing more.
import type { Db, Tx } from "../../db/client.ts";
import { isTransactionConflict } from "../../db/database-errors.ts";
import { observeShootChange } from "../../engine/observed-changes.ts";
import { lifecycleProblemsLine } from "../../engine/profile-problems.ts";
import { observedDeletionEnd, observedMigrationEnd } from "../../engine/observed-endings.ts";
import {
  describeProfileReference,
  type ProfileReference,
  profileReferenceOf,
  resolvedNamespacedProfile,
} from "../../gardener/profile-reference.ts";
import type { CloudProfile, Shoot } from "../../gardener/types.ts";
import { recordAuditEvents } from "../../store/audit.ts";
import { latestDeletion, saveDeletion } from "../../store/deletions.ts";
import { saveWatchPosition, stillHolds } from "../../store/garden-lease.ts";
import {
  clearListMarks,
  markListed,
  mirroredNames,
  mirrorObject,
  mirrorShoots,
  type MirrorKind,
  profileRewritten,
  profilesToRewrite,
  rewriteShootColumnsAfter,
  shootsOfProfileWhere,
  sweepUnlisted,
  unmirrorObject,
  unmirrorShoot,
} from "../../store/garden-mirror.ts";
import { lockShootKeys } from "../../store/shoots.ts";
import { insertMaintenanceRuns } from "../../store/maintenance-runs.ts";
import { maintenanceRunsRecorded } from "../../observability/maintenance-runs.ts";
import { latestMigration, saveMigration } from "../../store/migrations.ts";
import { badInputCounted } from "../../observability/garden-bad-input.ts";
import type { GardenObject, ListWatchHandlers, WatchEvent } from "./list-watch.ts";
import type { ProfileCache } from "./profile-cache.ts";

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
  /** Shoots per transaction of a profile change's rewrite (default 500). */
  readonly rewriteBatch?: number;
  /** Where the mirror says what it met (bad input); none by default. */
  readonly log?: (line: string) => void;
}

// Every write is one list page, one batch of events or one batch of a profile rewrite: short
// transactions, so that nothing through Almanac waits long behind the mirror.
const TX_OPTIONS = { maxWait: 10_000, timeout: 120_000 };

async function fenced<T>(ctx: MirrorContext, work: (tx: Tx) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await ctx.db.$transaction(async (tx) => {
        if (!(await stillHolds(tx, ctx.lease, ctx.holder))) throw new LeaseLost();
        return work(tx);
      }, TX_OPTIONS);
    } catch (error) {
      // A batch's statements move the counts the database keeps (triggers on shoots) one statement
      // at a time, each in key order, so a batch can deadlock with another writer of the same count
      // rows (a profile's rewrite, a user's write-through); PostgreSQL aborts one of the two, whole.
      if (attempt >= CONFLICT_ATTEMPTS || !isTransactionConflict(error)) throw error;
    }
  }
}

/** Attempts of a mirror transaction that lost a deadlock (each rolled back whole). */
const CONFLICT_ATTEMPTS = 3;

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

async function removeShoot(tx: Tx, namespace: string, name: string, at: number, uid?: string) {
  const gone = await unmirrorShoot(tx, namespace, name, uid);
  if (gone) await recordRemoved(tx, [{ namespace, name }], at);
}

/** The history of shoots the garden no longer has: Almanac's deletions end, an audit event each. */
async function recordRemoved(tx: Tx, keys: readonly { namespace: string; name: string }[], at: number) {
  for (const { namespace, name } of keys) {
    const deletion = await latestDeletion(tx, namespace, name);
    const ended = deletion && observedDeletionEnd(deletion.flow, at);
    if (deletion && ended) await saveDeletion(tx, deletion.id, ended);
  }
  await recordAuditEvents(
    tx,
    keys.map(({ namespace, name }) => ({
      actor: GARDEN_ACTOR,
      action: "shoot.deleted",
      target: { kind: "Shoot", namespace, name },
      changes: [],
    })),
  );
}

const keyOf = (object: GardenObject) => `${object.metadata?.namespace ?? ""}/${object.metadata?.name}`;

/**
 * A batch of watch events in one transaction, with the same rows and history as one by one: the
 * batch's rows are locked first (in key order), then it is written in waves, the n-th event of
 * each shoot in the n-th wave, so that each wave names a shoot once and can be written set-based,
 * and a shoot's events still come in their order, each followed by its history.
 */
async function applyShootEvents(tx: Tx, events: readonly WatchEvent[], at: number, profiles: ProfileCache) {
  const waves: WatchEvent[][] = [];
  const seen = new Map<string, number>();
  for (const event of events) {
    const n = seen.get(keyOf(event.object)) ?? 0;
    seen.set(keyOf(event.object), n + 1);
    (waves[n] ??= []).push(event);
  }
  await lockShootKeys(
    tx,
    [...seen.keys()].map((key) => {
      const slash = key.indexOf("/");
      return { namespace: key.slice(0, slash), name: key.slice(slash + 1) };
    }),
  );
  for (const wave of waves) {
    for (const { type, object } of wave)
      if (type === "DELETED")
        await removeShoot(tx, object.metadata.namespace, object.metadata.name, at, object.metadata.uid);
    const written = wave.filter((e) => e.type !== "DELETED").map((e) => asShoot(e.object));
    const { replaced } = await mirrorShoots(tx, written, profiles.forShoot, at);
    for (const { previous, shoot } of replaced) await recordObserved(tx, previous, shoot, at);
  }
}

/**
 * Shoots that name a profile the mirror does not have (deleted, not created yet, or a namespaced
 * one Gardener has not resolved): counted, and logged once per profile and page or batch with
 * their keys (a missing profile of many shoots would otherwise log each of them on every event);
 * mirrored all the same, without the profile's columns, as Gardener keeps them; the profile's
 * arrival rewrites them.
 */
function reportMissingProfiles(
  ctx: MirrorContext,
  plural: string,
  shoots: readonly GardenObject[],
  profiles: ProfileCache,
) {
  const byProfile = new Map<string, string[]>();
  for (const shoot of shoots) {
    const reference = shoot.spec ? profileReferenceOf(shoot) : undefined;
    if (!reference || profiles.get(reference)) continue;
    const profile = describeProfileReference(reference);
    byProfile.set(profile, [...(byProfile.get(profile) ?? []), keyOf(shoot)]);
  }
  for (const [profile, keys] of byProfile) {
    badInputCounted(plural, "missing-profile", keys.length);
    const named = keys.length > 5 ? `${keys.slice(0, 5).join(", ")} and ${keys.length - 5} more` : keys.join(", ");
    ctx.log?.(
      `The garden sent ${plural} ${named} naming ${profile}, which the mirror does not have; mirrored without the profile's columns.`,
    );
  }
}

export function shootHandlers(
  ctx: MirrorContext,
  resource: string,
  profiles: ProfileCache,
  plural = "shoots",
): ListWatchHandlers {
  return {
    async listStarted() {
      await fenced(ctx, (tx) => clearListMarks(tx, resource));
    },
    async listPage(items) {
      const at = now(ctx);
      reportMissingProfiles(ctx, plural, items, profiles);
      await fenced(ctx, async (tx) => {
        const shoots = items.map(asShoot);
        const { replaced } = await mirrorShoots(tx, shoots, profiles.forShoot, at);
        for (const { previous, shoot } of replaced) await recordObserved(tx, previous, shoot, at);
        await markListed(
          tx,
          resource,
          shoots.map((s) => ({ namespace: s.metadata.namespace ?? "", name: s.metadata.name })),
        );
      });
    },
    async listEnded() {
      const at = now(ctx);
      await fenced(ctx, async (tx) => recordRemoved(tx, await sweepUnlisted(tx, resource), at));
    },
    // A shoot that can never be written keeps what the mirror has of it (not swept as gone).
    async listSkipped(items) {
      await fenced(ctx, (tx) =>
        markListed(
          tx,
          resource,
          items.map((s) => ({ namespace: s.metadata.namespace ?? "", name: s.metadata.name })),
        ),
      );
    },
    async apply(events) {
      const at = now(ctx);
      reportMissingProfiles(
        ctx,
        plural,
        events.filter((e) => e.type !== "DELETED").map((e) => e.object),
        profiles,
      );
      await fenced(ctx, (tx) => applyShootEvents(tx, events, at, profiles));
    },
    reached: positionKeeper(ctx, resource),
  };
}

// How many shoots one transaction of a profile change's rewrite holds: short enough that shoot
// events for the same rows wait little, large enough to be set-based.
const REWRITE_BATCH = 500;

/**
 * Rewrites the derived columns of every shoot whose profile changed and that is not rewritten yet
 * (shoots_columns_version of cloud_profiles and namespaced_cloud_profiles), in batches, each its
 * own transaction, outside the profile's own write: shoot events keep flowing meanwhile, and a
 * process that stops halfway leaves the mark unset, so the next holder does it again.
 */
export function rewriteChangedProfiles(ctx: MirrorContext, profiles: ProfileCache): Promise<void> {
  // One pass at a time per following (the profile followers and the start-up pass all ask):
  // passes side by side would rewrite the same shoots, each waiting on the other's rows.
  const pass = (rewriting.get(profiles) ?? Promise.resolve()).catch(() => {}).then(() => rewriteEach(ctx, profiles));
  rewriting.set(profiles, pass);
  return pass;
}

const rewriting = new WeakMap<ProfileCache, Promise<void>>();

async function rewriteEach(ctx: MirrorContext, profiles: ProfileCache) {
  // A profile whose rewrite fails (its mark stays unset: the next pass tries again) does not keep
  // the profiles after it from theirs; the first failure is answered once all were tried.
  let failure: unknown;
  for (const { reference, resourceVersion } of await profilesToRewrite(ctx.db)) {
    try {
      await rewriteShootsOf(ctx, reference, profiles);
      await fenced(ctx, (tx) => profileRewritten(tx, reference, resourceVersion));
    } catch (error) {
      if (error instanceof LeaseLost) throw error;
      failure ??= error;
      ctx.log?.(
        `Rewriting the shoots of ${describeProfileReference(reference)} failed (${error instanceof Error ? error.message : error}).`,
      );
    }
  }
  if (failure !== undefined) throw failure;
}

async function rewriteShootsOf(ctx: MirrorContext, ref: ProfileReference, profiles: ProfileCache) {
  const where = shootsOfProfileWhere(ref);
  let after: { namespace: string; name: string } | undefined;
  do {
    const from = after;
    after = await fenced(ctx, (tx) =>
      rewriteShootColumnsAfter(tx, where, from, ctx.rewriteBatch ?? REWRITE_BATCH, profiles.forShoot, now(ctx)),
    );
  } while (after);
}

export function objectHandlers(
  ctx: MirrorContext,
  kind: Exclude<MirrorKind, "Shoot">,
  resource: string,
  profiles: ProfileCache,
): ListWatchHandlers {
  const withKind = (object: GardenObject) => ({ ...object, apiVersion: "core.gardener.cloud/v1beta1", kind });
  const namespaced = kind === "NamespacedCloudProfile";
  const isProfile = kind === "CloudProfile" || namespaced;
  // Objects by the key mirroredNames answers: "namespace/name" for the namespaced kind.
  const keyOf = (object: GardenObject): string =>
    namespaced ? `${object.metadata?.namespace}/${object.metadata?.name}` : object.metadata?.name;
  const referenceOf = (key: string): ProfileReference | undefined => {
    if (kind === "CloudProfile") return { kind, name: key };
    if (!namespaced) return undefined;
    const [namespace, name] = key.split("/");
    return { kind, namespace, name };
  };
  let listed = new Set<string>();
  // A profile's classifications feed its shoots' derived columns (expiry, the list row): the
  // cache changes once the profile's row has committed, then its shoots are rewritten. A
  // namespaced profile counts as what Gardener reads through it (its status.cloudProfileSpec).
  const written = (object: GardenObject | undefined, key: string) => {
    const reference = referenceOf(key);
    if (!reference) return;
    const profile = object && withKind(object);
    const read = namespaced ? profile && resolvedNamespacedProfile(profile) : profile;
    profiles.set(reference, read);
    if (read && ctx.log) {
      const label = namespaced ? `NamespacedCloudProfile ${key}` : `CloudProfile ${key}`;
      const problems = lifecycleProblemsLine(label, read as CloudProfile, now(ctx));
      if (problems) ctx.log(problems);
    }
  };
  const removed = async (keys: readonly string[]) => {
    for (const key of keys) {
      const reference = referenceOf(key);
      if (!reference) continue;
      profiles.set(reference, undefined);
      await rewriteShootsOf(ctx, reference, profiles);
    }
  };
  const unmirror = (tx: Tx, key: string) => {
    const reference = referenceOf(key);
    return reference?.namespace !== undefined
      ? unmirrorObject(tx, kind, reference.name, reference.namespace)
      : unmirrorObject(tx, kind, key);
  };
  const afterWrites = () => (isProfile ? rewriteChangedProfiles(ctx, profiles) : Promise.resolve());
  return {
    async listStarted() {
      listed = new Set();
    },
    async listPage(items) {
      await fenced(ctx, async (tx) => {
        for (const item of items) await mirrorObject(tx, kind, withKind(item));
      });
      for (const item of items) {
        listed.add(keyOf(item));
        written(item, keyOf(item));
      }
    },
    // An object that can never be written keeps what the mirror has of it (not removed as gone).
    async listSkipped(items) {
      for (const item of items) listed.add(keyOf(item));
    },
    async listEnded() {
      const gone = await fenced(ctx, async (tx) => {
        const keys: string[] = [];
        for (const key of await mirroredNames(tx, kind))
          if (!listed.has(key) && (await unmirror(tx, key))) keys.push(key);
        return keys;
      });
      listed = new Set();
      await removed(gone);
      await afterWrites();
    },
    async apply(events) {
      const gone = await fenced(ctx, async (tx) => {
        const keys: string[] = [];
        for (const { type, object } of events)
          if (type === "DELETED") {
            if (await unmirror(tx, keyOf(object))) keys.push(keyOf(object));
          } else await mirrorObject(tx, kind, withKind(object));
        return keys;
      });
      // In order: the last event of a profile decides what the cache holds, and whether it is gone
      // (one deleted and made again in the same batch is not).
      const last = new Map<string, string>();
      for (const { type, object } of events) {
        written(type === "DELETED" ? undefined : object, keyOf(object));
        last.set(keyOf(object), type);
      }
      await removed(gone.filter((key) => last.get(key) === "DELETED"));
      await afterWrites();
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
