// Following one kind of a live garden, as Kubernetes informers do: list it (in pages, one
// consistent snapshot), then watch from the list's resourceVersion with bookmarks; when the watch
// ends, watch again from the last version seen; when the garden answers 410 Gone (it no longer
// has the events since then), list again; when the garden cannot be reached, try again with a
// growing pause.
//
// At landscape scale nothing is held whole: each list page is handed over as it arrives (the
// handlers write it, and find deletions by mark and sweep when the list ends), and watch events
// are handed over in batches, in order. The watch response is read here (fetch with client-node's
// authentication), not through client-node's Watch, which pushes every line to a callback and
// cannot pause: while the queue of events not yet written is full this stops reading, and the
// garden's stream waits in TCP. The position moves only once the handlers are done with a batch,
// so nothing is skipped when a handler fails (the database is down): the watch starts over from
// the last batch written. managedFields (about 12 KB of a real shoot) are dropped on arrival.
//
// What can never be mirrored (a line that is not JSON, an object of another kind, without a name,
// with text PostgreSQL cannot hold: garden-object-faults.ts) is logged with its key, counted and
// skipped here, so neither a list nor a watch stalls on it. A list page the garden fails to send
// (unreachable, 5xx) is asked for again with a growing pause, with the same continue token: the
// list goes on where it stopped; a continue token the garden no longer honours (410) lists again.
import { CustomObjectsApi, HttpMethod, type KubeConfig, RequestContext } from "@kubernetes/client-node";
// client-node's own fetch (the same undici), whose dispatcher carries the kubeconfig's TLS settings.
import { type Dispatcher, fetch } from "undici";
import { badInputCounted } from "../../observability/garden-bad-input.ts";
import {
  type BadInputReason,
  dataErrorText,
  isDataError,
  objectFault,
  objectKeyText,
  type ResourceShape,
} from "./garden-object-faults.ts";

export const GARDENER_GROUP = "core.gardener.cloud";
export const GARDENER_VERSION = "v1beta1";

export type WatchEventType = "ADDED" | "MODIFIED" | "DELETED";

// Objects as the garden sends them: Kubernetes objects, checked by the handlers that use them.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type GardenObject = any;

export interface WatchEvent {
  readonly type: WatchEventType;
  readonly object: GardenObject;
}

export interface ListWatchHandlers {
  /** A list (the first, or a relist) starts; its pages follow, then listEnded. */
  listStarted(): Promise<void>;
  /** One page of the list, as it arrives. */
  listPage(items: readonly GardenObject[]): Promise<void>;
  /** The list is whole as of `resourceVersion`: what it did not include is gone. */
  listEnded(resourceVersion: string): Promise<void>;
  /** Changes, in the garden's order (one or more; one transaction). */
  apply(events: readonly WatchEvent[]): Promise<void>;
  /** How far the mirror has come (after a batch, or a bookmark). */
  reached(resourceVersion: string): Promise<void>;
  /**
   * Objects of the current list skipped because they can never be written, though they exist:
   * what the mirror holds of them stays (it is not swept as gone).
   */
  listSkipped?(items: readonly GardenObject[]): Promise<void>;
}

/** The resources the mirror follows, by plural: what their objects must look like. */
const SHAPES: Readonly<Record<string, ResourceShape>> = {
  shoots: { kind: "Shoot", namespaced: true },
  namespacedcloudprofiles: { kind: "NamespacedCloudProfile", namespaced: true },
  cloudprofiles: { kind: "CloudProfile", namespaced: false },
  seeds: { kind: "Seed", namespaced: false },
  projects: { kind: "Project", namespaced: false },
};

const REASON_WORDS: Record<BadInputReason, string> = {
  "not-json": "a watch line that is not JSON",
  "unknown-event": "a watch event of an unknown type",
  "unknown-kind": "an object of another kind",
  "no-name": "an object without metadata.name (or metadata.namespace)",
  "unwritable-text": "an object with text the database cannot hold (a NUL character or a lone surrogate)",
  unwritable: "an object the database refuses",
  "missing-profile": "a shoot naming a profile the mirror does not have", // logged by mirror-writes.ts
};

/**
 * Writes `items` (a page, or a batch of events) with `write`; when that fails on what one of them
 * holds (isDataError), writes them again one at a time, in order, and skips (logs, counts and
 * hands to `skipped`) each that fails alone the same way. Any other failure is thrown: the write
 * is retried whole later (the writes are idempotent, so what was written one by one before it
 * is written again unchanged).
 */
async function writeIsolating<T>(
  options: ListWatchOptions,
  items: readonly T[],
  objectOf: (item: T) => GardenObject,
  write: (items: readonly T[]) => Promise<void>,
  skipped: (item: T) => void = () => {},
): Promise<void> {
  try {
    await write(items);
  } catch (error) {
    if (!isDataError(error)) throw error;
    if (items.length > 1) {
      for (const item of items) await writeIsolating(options, [item], objectOf, write, skipped);
      return;
    }
    const key = `${objectKeyText(objectOf(items[0]))} (${dataErrorText(error)})`;
    reportBadInput(options.log, options.plural, "unwritable", key);
    skipped(items[0]);
  }
}

/** Logs and counts what the garden sent that cannot be mirrored as it is. */
export function reportBadInput(
  log: (line: string) => void,
  resource: string,
  reason: BadInputReason,
  key: string,
): void {
  badInputCounted(resource, reason);
  log(`The garden sent ${resource} ${key}: ${REASON_WORDS[reason]}; skipped.`);
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
  /** Most events in one batch (default 500); the stream pauses while twice as many wait. */
  readonly batchSize?: number;
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

// A list answers 410 as an ApiException (`code`), a watch request with the HTTP status.
const isGone = (error: unknown) => {
  const e = error as { code?: number; statusCode?: number } | undefined;
  return e?.code === 410 || e?.statusCode === 410;
};

/** Drops what Almanac never reads and a real garden sends with every object (review m9). */
export function withoutManagedFields(object: GardenObject): GardenObject {
  if (object?.metadata?.managedFields !== undefined) delete object.metadata.managedFields;
  return object;
}

// A page the garden could not send for a while (unreachable, overloaded) is asked for again; any
// other refusal (4xx: a token it does not understand) lists again from the start.
const isTransient = (error: unknown) => {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code !== "number" || code >= 500 || code === 429;
};

async function listAll(options: ListWatchOptions, handlers: ListWatchHandlers): Promise<string | undefined> {
  const api = options.kubeConfig.makeApiClient(CustomObjectsApi);
  const { initialMs, maxMs } = options.backoff ?? { initialMs: 500, maxMs: 30_000 };
  const shape = SHAPES[options.plural];
  const fetchPage = (token: string | undefined) => {
    const page = api.listClusterCustomObject({
      group: GARDENER_GROUP,
      version: GARDENER_VERSION,
      plural: options.plural,
      limit: options.pageSize ?? 500,
      ...(token ? { _continue: token } : {}),
    });
    // A page asked for ahead whose list fails meanwhile is not waited for.
    page.catch(() => {});
    return page;
  };
  let resourceVersion: string | undefined;
  await handlers.listStarted();
  // The continue token of the page asked for (undefined: the first).
  let token: string | undefined;
  let pageNumber = 1;
  let failures = 0;
  // The next page is asked for while this one is written (at most two pages in memory): the
  // garden's work and the database's overlap.
  let next: ReturnType<typeof fetchPage> | undefined = fetchPage(undefined);
  while (next && !options.signal.aborted) {
    let page: Awaited<ReturnType<typeof fetchPage>>;
    try {
      page = await next;
      failures = 0;
    } catch (error) {
      if (options.signal.aborted) return undefined;
      if (token && isGone(error)) {
        // The garden no longer holds the snapshot the list began from: a new list, a new snapshot.
        options.log(`The garden no longer continues the ${options.plural} list (410); listing again from the start.`);
        resourceVersion = undefined;
        token = undefined;
        pageNumber = 1;
        await handlers.listStarted();
        next = fetchPage(undefined);
        continue;
      }
      if (!isTransient(error)) throw error;
      failures++;
      const pause = Math.min(maxMs, initialMs * 2 ** Math.min(failures - 1, 16));
      options.log(
        `Listing ${options.plural} failed at page ${pageNumber} (${describe(error)}); asking for that page again in ${Math.round(pause)} ms.`,
      );
      await sleep(pause, options.signal);
      next = fetchPage(token);
      continue;
    }
    resourceVersion ??= page.metadata?.resourceVersion ?? "";
    token = page.metadata?.continue || undefined;
    pageNumber++;
    next = token ? fetchPage(token) : undefined;
    if (options.signal.aborted) return undefined;
    const items: GardenObject[] = [];
    const skipped: GardenObject[] = [];
    for (const item of page.items ?? []) {
      const fault = shape && objectFault(withoutManagedFields(item), shape);
      if (!fault) items.push(item);
      else {
        reportBadInput(options.log, options.plural, fault, objectKeyText(item));
        if (fault === "unwritable-text") skipped.push(item);
      }
    }
    await writeIsolating(
      options,
      items,
      (item) => item,
      (some) => handlers.listPage(some),
      (item) => skipped.push(item),
    );
    if (skipped.length > 0) await handlers.listSkipped?.(skipped);
  }
  if (options.signal.aborted || resourceVersion === undefined) return undefined;
  await handlers.listEnded(resourceVersion);
  await handlers.reached(resourceVersion);
  return resourceVersion;
}

/** How far the handlers got: moved after each batch they committed, read when a watch fails. */
interface Progress {
  position: string | undefined;
}

type Line = { type: string; object: GardenObject };

/**
 * One watch from the position; resolves when the garden ends it (or it goes quiet), rejects with
 * Gone on 410 and with the error when it fails. `proven` runs once the garden has accepted the
 * position (an event came, or the stream stayed open a second without an error).
 */
async function watchOnce(
  options: ListWatchOptions,
  handlers: ListWatchHandlers,
  progress: Progress,
  proven: () => void,
): Promise<void> {
  const cluster = options.kubeConfig.getCurrentCluster();
  if (!cluster) throw new Error("The garden kubeconfig has no current cluster.");
  const watchSeconds = options.watchSeconds ?? 300;
  const url = new URL(`${cluster.server}/apis/${GARDENER_GROUP}/${GARDENER_VERSION}/${options.plural}`);
  url.searchParams.set("watch", "true");
  url.searchParams.set("resourceVersion", progress.position ?? "");
  url.searchParams.set("allowWatchBookmarks", "true");
  url.searchParams.set("timeoutSeconds", String(watchSeconds));
  const request = new RequestContext(url.toString(), HttpMethod.GET);
  await options.kubeConfig.applySecurityAuthentication(request);

  const controller = new AbortController();
  const stop = () => controller.abort();
  options.signal.addEventListener("abort", stop, { once: true });
  // A watch that sends nothing (not even a bookmark) for longer than it is meant to last is dead.
  let quiet: ReturnType<typeof setTimeout> | undefined;
  let wentQuiet = false;
  const heard = () => {
    clearTimeout(quiet);
    quiet = setTimeout(
      () => {
        wentQuiet = true;
        controller.abort();
      },
      watchSeconds * 1000 + 30_000,
    );
    quiet.unref?.();
  };
  const batchSize = options.batchSize ?? 500;
  const shape = SHAPES[options.plural];
  // A deletion needs only the key: its text is never written.
  const faultOf = (line: Line): BadInputReason | undefined => {
    if (line?.type === "BOOKMARK") return undefined;
    if (line?.type !== "ADDED" && line?.type !== "MODIFIED" && line?.type !== "DELETED") return "unknown-event";
    const fault = shape && objectFault(line.object, shape);
    return fault === "unwritable-text" && line.type === "DELETED" ? undefined : fault;
  };
  const queue: Line[] = [];
  let readerDone = false;
  let readerError: unknown;
  let wake: (() => void) | undefined;
  const signalWriter = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  // Wakes the reader paused for room in the queue.
  const paused: { resume?: () => void } = {};
  const resumeReader = () => {
    const r = paused.resume;
    paused.resume = undefined;
    r?.();
  };
  // A stop while the reader waits for room ends it too (the writer, stopped, makes none).
  controller.signal.addEventListener("abort", resumeReader, { once: true });
  let failure: unknown;

  try {
    heard();
    const response = await fetch(url, {
      method: "GET",
      headers: request.getHeaders(),
      dispatcher: request.getDispatcher() as Dispatcher | undefined,
      signal: controller.signal,
    });
    if (response.status !== 200) {
      const error = new Error(response.statusText || `HTTP ${response.status}`) as Error & { statusCode: number };
      error.statusCode = response.status;
      await response.body?.cancel().catch(() => {});
      throw error;
    }
    const provenTimer = setTimeout(proven, 1_000);
    provenTimer.unref?.();

    const read = async () => {
      const reader = response.body!.getReader();
      const decoder = new TextDecoder();
      let buffered = "";
      try {
        for (;;) {
          // Backpressure: while the writer is behind, the response is not read.
          while (queue.length >= batchSize * 2 && failure === undefined && !controller.signal.aborted)
            await new Promise<void>((r) => (paused.resume = r));
          if (failure !== undefined || controller.signal.aborted) break;
          const { done, value } = await reader.read();
          if (done) break;
          heard();
          buffered += decoder.decode(value, { stream: true });
          let newline = buffered.indexOf("\n");
          while (newline >= 0) {
            const text = buffered.slice(0, newline).trim();
            buffered = buffered.slice(newline + 1);
            newline = buffered.indexOf("\n");
            if (!text) continue;
            let line: Line;
            try {
              line = JSON.parse(text) as Line;
            } catch {
              reportBadInput(options.log, options.plural, "not-json", `(${JSON.stringify(text.slice(0, 80))})`);
              continue;
            }
            if (line?.type !== "ERROR") withoutManagedFields(line?.object);
            queue.push(line);
          }
          signalWriter();
        }
      } catch (error) {
        readerError = error;
      } finally {
        readerDone = true;
        reader.releaseLock();
        signalWriter();
      }
    };

    const write = async () => {
      for (;;) {
        // Stopped (the lease is gone, or Almanac stops): what waits is left for the next holder.
        if (options.signal.aborted) return;
        if (queue.length === 0) {
          if (readerDone || failure !== undefined) return;
          await new Promise<void>((r) => (wake = r));
          continue;
        }
        // Whatever waits now, up to the batch size: no event waits longer than one batch's write.
        const lines = queue.splice(0, batchSize);
        resumeReader();
        const events: WatchEvent[] = [];
        let version: string | undefined;
        let error: unknown;
        for (const line of lines) {
          if (line?.type === "ERROR") {
            error = isGone(line.object)
              ? new Gone(line.object?.message)
              : new Error(line.object?.message ?? "watch error");
            break;
          }
          const fault = faultOf(line);
          if (fault) reportBadInput(options.log, options.plural, fault, objectKeyText(line?.object));
          else if (line.type !== "BOOKMARK") events.push({ type: line.type as WatchEventType, object: line.object });
          // Past a skipped event too: it can never be written.
          const lineVersion = line?.object?.metadata?.resourceVersion;
          if (typeof lineVersion === "string" && lineVersion) version = lineVersion;
        }
        try {
          if (events.length > 0)
            await writeIsolating(
              options,
              events,
              (event) => event.object,
              (some) => handlers.apply(some),
            );
          if (version) {
            progress.position = version;
            proven();
            await handlers.reached(version);
          }
        } catch (handlerError) {
          error ??= handlerError;
        }
        if (error !== undefined) {
          failure = error;
          controller.abort();
          resumeReader();
          return;
        }
      }
    };

    await Promise.all([read(), write()]);
    clearTimeout(provenTimer);
    if (failure !== undefined) throw failure;
    if (options.signal.aborted || wentQuiet) return;
    if (readerError !== undefined) throw readerError;
    proven();
  } catch (error) {
    if (failure !== undefined) throw failure;
    // A watch that went quiet longer than it is meant to last, or our own stop: not a fault.
    if (options.signal.aborted || wentQuiet) return;
    throw error;
  } finally {
    clearTimeout(quiet);
    options.signal.removeEventListener("abort", stop);
  }
}

/**
 * Lists and watches until `signal` aborts. `synced` runs once, after the first list or the first
 * resumption the garden accepted (the mirror then holds the garden's state).
 */
export async function listWatch(
  options: ListWatchOptions,
  handlers: ListWatchHandlers,
  synced: () => void = () => {},
): Promise<void> {
  const { initialMs, maxMs } = options.backoff ?? { initialMs: 500, maxMs: 30_000 };
  // After a failure the next watch starts from the last batch committed, not from where the
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
        if (progress.position === undefined) break; // stopped mid-list
        failures = 0;
        markSynced();
      }
      const started = { position: progress.position, at: Date.now() };
      // A resumed position counts as synced only once the garden has accepted it (review m6).
      await watchOnce(options, handlers, progress, markSynced);
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
