// Following one kind of a live garden, as Kubernetes informers do, through @kubernetes/client-node:
// list it (in pages, one consistent snapshot), then watch from the list's resourceVersion with
// bookmarks; when the watch ends, watch again from the last version seen; when the garden answers
// 410 Gone (it no longer has the events since then), list again; when the garden cannot be
// reached, try again with a growing pause. Events are handed over one at a time, in order, and
// the position moves only once the handler is done with an event, so nothing is skipped when a
// handler fails (the database is down): the watch starts over from the last event written.
import { CustomObjectsApi, type KubeConfig, Watch } from "@kubernetes/client-node";

export const GARDENER_GROUP = "core.gardener.cloud";
export const GARDENER_VERSION = "v1beta1";

export type WatchEventType = "ADDED" | "MODIFIED" | "DELETED";

// Objects as the garden sends them: Kubernetes objects, checked by the handlers that use them.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type GardenObject = any;

export interface ListWatchHandlers {
  /** The whole collection as of `resourceVersion` (a first list, or a relist): the mirror becomes it. */
  replace(items: readonly GardenObject[], resourceVersion: string): Promise<void>;
  /** One change, in the garden's order. */
  apply(type: WatchEventType, object: GardenObject): Promise<void>;
  /** How far the mirror has come (after an event, or a bookmark). */
  reached(resourceVersion: string): Promise<void>;
}

export interface ListWatchOptions {
  readonly kubeConfig: KubeConfig;
  /** e.g. "shoots": every namespace's (the garden's cluster-wide collection). */
  readonly plural: string;
  /** Where a previous holder stopped: watch from here first (a relist follows if it is too old). */
  readonly resumeFrom?: string;
  readonly signal: AbortSignal;
  readonly log: (line: string) => void;
  readonly pageSize?: number;
  /** How long the garden keeps one watch open before it ends it and we watch again (seconds). */
  readonly watchSeconds?: number;
  readonly backoff?: { readonly initialMs: number; readonly maxMs: number };
}

/** The garden no longer has the events since the version asked for (410): list again. */
class Gone extends Error {}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

// A list answers 410 as an ApiException (`code`), a watch request as an Error with `statusCode`.
const isGone = (error: unknown) => {
  const e = error as { code?: number; statusCode?: number } | undefined;
  return e?.code === 410 || e?.statusCode === 410;
};

async function listAll(options: ListWatchOptions, handlers: ListWatchHandlers): Promise<string> {
  const api = options.kubeConfig.makeApiClient(CustomObjectsApi);
  const items: GardenObject[] = [];
  let resourceVersion = "";
  let token: string | undefined;
  do {
    const page = await api.listClusterCustomObject({
      group: GARDENER_GROUP,
      version: GARDENER_VERSION,
      plural: options.plural,
      limit: options.pageSize ?? 500,
      ...(token ? { _continue: token } : {}),
    });
    items.push(...(page.items ?? []));
    if (!token) resourceVersion = page.metadata?.resourceVersion ?? "";
    token = page.metadata?.continue || undefined;
  } while (token && !options.signal.aborted);
  if (options.signal.aborted) return resourceVersion;
  await handlers.replace(items, resourceVersion);
  await handlers.reached(resourceVersion);
  return resourceVersion;
}

/** How far the handlers got: moved after each event they committed, read when a watch fails. */
interface Progress {
  position: string | undefined;
}

/**
 * One watch from `from`; resolves with the last version handled when the garden ends it (or it
 * goes quiet), rejects with Gone on 410 and with the error when it fails.
 */
function watchOnce(options: ListWatchOptions, handlers: ListWatchHandlers, progress: Progress): Promise<void> {
  const from = progress.position ?? "";
  return new Promise((resolve, reject) => {
    let failure: unknown;
    let chain = Promise.resolve();
    let controller: AbortController | undefined;
    const stop = () => controller?.abort();
    options.signal.addEventListener("abort", stop, { once: true });
    const handle = (type: string, object: GardenObject) => {
      chain = chain.then(async () => {
        if (failure !== undefined || options.signal.aborted) return;
        try {
          if (type === "ERROR") {
            failure = isGone(object) ? new Gone(object?.message) : new Error(object?.message ?? "watch error");
            stop();
            return;
          }
          const version: string | undefined = object?.metadata?.resourceVersion;
          if (type === "ADDED" || type === "MODIFIED" || type === "DELETED") await handlers.apply(type, object);
          if (version) {
            progress.position = version;
            await handlers.reached(version);
          }
        } catch (error) {
          failure = error;
          stop();
        }
      });
    };
    const done = (error: unknown) => {
      options.signal.removeEventListener("abort", stop);
      void chain.then(() => {
        if (failure !== undefined) return reject(failure);
        // A watch that went quiet longer than the client waits ends with a timeout: not a fault.
        if (error && (error as { name?: string }).name !== "TimeoutError" && !options.signal.aborted) {
          return reject(error);
        }
        resolve();
      });
    };
    const watch = new Watch(options.kubeConfig);
    // client-node gives up on a watch after 30 s without data, while API servers send bookmarks
    // about once a minute: wait as long as the watch is meant to last.
    (watch as unknown as { requestTimeoutMs: number }).requestTimeoutMs = (options.watchSeconds ?? 300) * 1000 + 30_000;
    watch
      .watch(
        `/apis/${GARDENER_GROUP}/${GARDENER_VERSION}/${options.plural}`,
        {
          resourceVersion: from,
          allowWatchBookmarks: true,
          timeoutSeconds: options.watchSeconds ?? 300,
        },
        handle,
        done,
      )
      .then((c) => {
        controller = c;
        if (options.signal.aborted) c.abort();
      }, done);
  });
}

/**
 * Lists and watches until `signal` aborts. `synced` runs once, after the first list or the first
 * successful resumption (the mirror then holds the garden's state).
 */
export async function listWatch(
  options: ListWatchOptions,
  handlers: ListWatchHandlers,
  synced: () => void = () => {},
): Promise<void> {
  const { initialMs, maxMs } = options.backoff ?? { initialMs: 500, maxMs: 30_000 };
  // After a failure the next watch starts from the last event committed, not from where the
  // failed watch started: nothing is handled twice, nothing is skipped.
  const progress: Progress = { position: options.resumeFrom };
  let failures = 0;
  let isSynced = false;
  const markSynced = () => {
    if (!isSynced) synced();
    isSynced = true;
  };
  while (!options.signal.aborted) {
    try {
      if (!progress.position) {
        progress.position = await listAll(options, handlers);
        failures = 0;
      }
      markSynced();
      const started = { position: progress.position, at: Date.now() };
      await watchOnce(options, handlers, progress);
      if (progress.position !== started.position) failures = 0;
      // A garden that ends every watch at once, with nothing new, is not asked again right away.
      else if (Date.now() - started.at < 1_000) await sleep(initialMs, options.signal);
    } catch (error) {
      if (options.signal.aborted) break;
      if (error instanceof Gone || isGone(error)) {
        options.log(`The garden no longer has the ${options.plural} events since ${progress.position}; listing again.`);
        progress.position = undefined;
        continue;
      }
      failures++;
      const pause = Math.min(maxMs, initialMs * 2 ** Math.min(failures - 1, 16));
      options.log(`Following ${options.plural} failed (${describe(error)}); trying again in ${Math.round(pause)} ms.`);
      await sleep(pause, options.signal);
    }
  }
}
