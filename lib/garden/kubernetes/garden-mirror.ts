// Mirrors a live garden into Postgres: CloudProfiles (namespaced ones too), Seeds and Projects
// first (a shoot's derived columns need its profile), then Shoots, each followed by list-then-watch. Several Almanac
// processes may run this; a lease in Postgres lets exactly one of them follow the garden at a
// time, and another takes over within seconds when it stops renewing (it died, or lost the
// database). Everything else reads the tables.
import { randomUUID } from "node:crypto";
import os from "node:os";
import type { KubeConfig } from "@kubernetes/client-node";
import type { Db } from "../../db/client.ts";
import { releaseLease, takeLease, watchPosition } from "../../store/garden-lease.ts";
import { type ListWatchHandlers, listWatch } from "./list-watch.ts";
import { profilesByKey } from "../../store/cloud-profiles.ts";
import { type MirrorContext, objectHandlers, rewriteChangedProfiles, shootHandlers } from "./mirror-writes.ts";
import { ProfileCache } from "./profile-cache.ts";
import { resolveWriteIntentsSometimes } from "./write-intents.ts";

export const MIRROR_LEASE = "garden-mirror";

export interface MirrorOptions {
  readonly log: (line: string) => void;
  /** How long the lease lasts without renewal; it is renewed three times as often. */
  readonly leaseMs?: number;
  /** Who this process is, in the lease (host, pid and a random part by default). */
  readonly holder?: string;
  readonly watchSeconds?: number;
  readonly backoff?: { readonly initialMs: number; readonly maxMs: number };
  /** Shoots per transaction of a profile change's rewrite (default 500). */
  readonly rewriteBatch?: number;
  /** Objects per list page (default 500). */
  readonly pageSize?: number;
}

export interface RunningMirror {
  /** Whether this process follows the garden now. */
  readonly leading: () => boolean;
  /** Resolves once every kind has been listed (or resumed) since this process took the lease. */
  readonly synced: () => Promise<void>;
  stop(): Promise<void>;
}

// `beforeShoots`: the shoots follower starts once these have synced. Not NamespacedCloudProfiles:
// a garden from before them answers 404 (or RBAC applied before them 403) for as long as it runs,
// and shoots must not wait on that; a namespaced profile that comes later rewrites its shoots'
// columns as any changed profile does (shoots_columns_version).
const RESOURCES = [
  { plural: "cloudprofiles", kind: "CloudProfile", beforeShoots: true },
  // Listed and watched across all namespaces, like shoots.
  { plural: "namespacedcloudprofiles", kind: "NamespacedCloudProfile", beforeShoots: false },
  { plural: "seeds", kind: "Seed", beforeShoots: true },
  { plural: "projects", kind: "Project", beforeShoots: true },
] as const;

export function startGardenMirror(db: Db, kubeConfig: KubeConfig, options: MirrorOptions): RunningMirror {
  // Positions belong to one garden: the same database pointed at another starts over there.
  const garden = kubeConfig.getCurrentCluster()?.server ?? "";
  const positionKey = (plural: string) => `${garden} ${plural}`;
  const leaseMs = options.leaseMs ?? 15_000;
  const holder = options.holder ?? `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const ctx: MirrorContext = { db, lease: MIRROR_LEASE, holder, rewriteBatch: options.rewriteBatch, log: options.log };
  let following: { abort: AbortController; done: Promise<void> } | undefined;
  let renewedAt = 0;
  let stopped = false;
  let syncedNow: () => void = () => {};
  let synced = new Promise<void>((resolve) => (syncedNow = resolve));

  const follow = (plural: string, handlers: ListWatchHandlers, signal: AbortSignal, onSynced: () => void) =>
    // Without a readable position the mirror lists from scratch, which is always right.
    watchPosition(db, positionKey(plural))
      .catch(() => undefined)
      .then((resumeFrom) =>
        listWatch(
          {
            kubeConfig,
            plural,
            resumeFrom,
            signal,
            log: options.log,
            watchSeconds: options.watchSeconds,
            backoff: options.backoff,
            pageSize: options.pageSize,
          },
          handlers,
          onSynced,
        ),
      );

  function startFollowing() {
    const abort = new AbortController();
    const running: Promise<void>[] = [];
    // The profiles as mirrored so far (a resumed follower lists nothing), kept by the profile
    // follower from then on; until they are read, nothing is followed.
    const profiles = new ProfileCache();
    const loaded = (async () => {
      for (;;) {
        try {
          profiles.load(await profilesByKey(db));
          return;
        } catch (error) {
          if (abort.signal.aborted) return;
          options.log(
            `Reading the mirrored cloud profiles failed (${error instanceof Error ? error.message : error}).`,
          );
          await new Promise((r) => setTimeout(r, options.backoff?.initialMs ?? 500));
        }
      }
    })();
    // A profile rewrite a previous holder left unfinished (a resumed follower lists nothing, so
    // nothing else would notice), beside the followers: shoot events do not wait for it.
    running.push(
      loaded.then(() =>
        abort.signal.aborted
          ? undefined
          : rewriteChangedProfiles(ctx, profiles).catch((error) =>
              options.log(
                `Rewriting the shoots of changed cloud profiles failed (${error instanceof Error ? error.message : error}); the next profile change tries again.`,
              ),
            ),
      ),
    );
    // Each kind's first sync; the shoots follower waits for those its columns need.
    const firstSync = RESOURCES.map((r) => {
      let synced: () => void = () => {};
      const sync = new Promise<void>((resolve) => (synced = resolve));
      running.push(
        loaded.then(() =>
          abort.signal.aborted
            ? synced()
            : follow(r.plural, objectHandlers(ctx, r.kind, positionKey(r.plural), profiles), abort.signal, synced),
        ),
      );
      return r.beforeShoots ? sync : undefined;
    });
    const shoots = Promise.all(firstSync).then(() => {
      if (abort.signal.aborted) return;
      return follow("shoots", shootHandlers(ctx, positionKey("shoots"), profiles), abort.signal, () => syncedNow());
    });
    following = {
      abort,
      done: Promise.allSettled([...running, shoots]).then(() => undefined),
    };
    options.log(`Following the garden (this process holds the lease as ${holder}).`);
  }

  async function stopFollowing(why: string) {
    if (!following) return;
    const { abort, done } = following;
    following = undefined;
    abort.abort();
    await done;
    synced = new Promise<void>((resolve) => (syncedNow = resolve));
    options.log(`Stopped following the garden: ${why}.`);
  }

  let ticking = false;
  async function tick() {
    if (stopped || ticking) return;
    ticking = true;
    try {
      if (await takeLease(db, MIRROR_LEASE, holder, leaseMs)) {
        renewedAt = Date.now();
        if (stopped) return; // stop() came while the lease was asked for; it gives the lease up
        if (!following) startFollowing();
        // The mirror's holder also closes write intents left open (a writer that died mid-write).
        resolveWriteIntentsSometimes(db, Date.now());
      } else if (following) {
        await stopFollowing("another process holds the lease");
      }
    } catch (error) {
      // Without the database the lease cannot be renewed: once it has run out, someone else may hold it.
      if (following && Date.now() - renewedAt >= leaseMs)
        await stopFollowing(`the lease could not be renewed (${error instanceof Error ? error.message : error})`);
    } finally {
      ticking = false;
    }
  }

  const timer = setInterval(() => void tick(), Math.max(100, Math.floor(leaseMs / 3)));
  timer.unref();
  void tick();

  return {
    leading: () => following !== undefined,
    synced: () => synced,
    async stop() {
      stopped = true;
      clearInterval(timer);
      // A lease request under way ends first (within the lease's time, even on a database that hangs).
      const waitUntil = Date.now() + leaseMs;
      while (ticking && Date.now() < waitUntil) await new Promise((r) => setTimeout(r, 10));
      await stopFollowing("Almanac stops");
      await releaseLease(db, MIRROR_LEASE, holder).catch(() => {});
    },
  };
}
