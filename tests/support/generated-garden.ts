// A generated garden for benchmarks: the Kubernetes API server's list (limit/continue) and watch
// (bookmarks, 410 for a compacted position) of Gardener's kinds, over a landscape of up to
// 100,000 shoots that is never held whole. Shoot i is computed on demand from one of 1,000
// template shoots of the demo landscape (even i from the templates on the "aws" profile, odd i
// from the others: a change of "aws" touches half the shoots), with ~12 KB of managedFields as a
// real API server keeps them, so each is ~16 KB on the wire; only the shoots changed since start
// are remembered. Runs in its own process (`node tests/support/generated-garden.ts --shoots N`,
// which prints {"url"} on its first line), so its memory is measured apart from the mirror's.
//
// Not the stand-in garden (tests/support/stand-in-garden.ts, which tests use): no writes through
// the API, no RBAC, and a list during changes is not one snapshot. The bench drives it through
// POST /bench/... (status updates one by one or in a burst at a given rate, a profile change).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { parseArgs } from "node:util";
import { generateLandscape } from "../../lib/demo/landscape.ts";
import { cloudProfileNameOf, type Shoot } from "../../lib/gardener/types.ts";
import { managedFieldsOfSize } from "./stand-in-garden.ts";

type Json = any;
type Plural = "cloudprofiles" | "namespacedcloudprofiles" | "seeds" | "projects" | "shoots";
const KIND: Record<Plural, string> = {
  cloudprofiles: "CloudProfile",
  namespacedcloudprofiles: "NamespacedCloudProfile",
  seeds: "Seed",
  projects: "Project",
  shoots: "Shoot",
};
const API = "core.gardener.cloud/v1beta1";
const HALF_PROFILE = "aws";
/** Events a watch can resume from; older positions get 410 Gone, as after etcd's compaction. */
const LOG_LIMIT = 500_000;

interface Change {
  readonly rv: number;
  readonly plural: Plural;
  /** A shoot's index, or a cluster-scoped object's name. */
  readonly key: number | string;
}

interface Watcher {
  readonly plural: Plural;
  readonly response: http.ServerResponse;
  /** The next log index to send. */
  cursor: number;
  waiting: boolean;
  closed: boolean;
}

export function startGeneratedGarden(shootCount: number, managedFieldsBytes = 12_000) {
  const landscape = generateLandscape({ now: Date.now(), shoots: 1000 });
  const onHalf = landscape.shoots.filter((s) => cloudProfileNameOf(s) === HALF_PROFILE);
  const others = landscape.shoots.filter((s) => cloudProfileNameOf(s) !== HALF_PROFILE);
  const managedFields = managedFieldsOfSize(managedFieldsBytes);
  let revision = 1000;
  const objects = new Map<string, Map<string, Json>>(
    (["cloudprofiles", "namespacedcloudprofiles", "seeds", "projects"] as const).map((plural) => {
      const list =
        plural === "namespacedcloudprofiles"
          ? (landscape.namespacedCloudProfiles ?? [])
          : plural === "cloudprofiles"
            ? landscape.cloudProfiles
            : plural === "seeds"
              ? landscape.seeds
              : landscape.projects;
      return [
        plural,
        new Map(
          list.map((o: Json) => [
            // A namespaced one by "namespace/name".
            o.metadata.namespace ? `${o.metadata.namespace}/${o.metadata.name}` : o.metadata.name,
            { ...o, metadata: { ...o.metadata, resourceVersion: String(revision) } },
          ]),
        ),
      ];
    }),
  );
  /** Shoots changed since start: their resourceVersion and how many status updates they had. */
  const changed = new Map<number, { rv: number; updates: number }>();
  const log: Change[] = [];
  let logStart = 0; // the log index of log[0]
  let compactedRevision = 0;
  const watchers = new Set<Watcher>();

  const template = (i: number): Shoot => {
    const pool = i % 2 === 0 ? onHalf : others;
    return pool[Math.floor(i / 2) % pool.length];
  };
  function shoot(i: number): Json {
    const t = template(i);
    const state = changed.get(i);
    const uid = `00000000-0000-4000-8000-${i.toString(16).padStart(12, "0")}`;
    return {
      apiVersion: API,
      kind: "Shoot",
      ...t,
      metadata: {
        ...t.metadata,
        name: `${t.metadata.name}-${i}`,
        uid,
        resourceVersion: String(state?.rv ?? 1000),
        managedFields,
      },
      status: state
        ? {
            ...t.status,
            lastOperation: {
              type: "Reconcile",
              state: "Processing",
              progress: state.updates % 100,
              lastUpdateTime: new Date().toISOString(),
              description: `Flow task ${state.updates} done`,
            },
          }
        : t.status,
    };
  }
  const objectOf = (change: Change): Json =>
    change.plural === "shoots"
      ? shoot(change.key as number)
      : { apiVersion: API, kind: KIND[change.plural], ...objects.get(change.plural)!.get(change.key as string) };

  function record(change: Change) {
    log.push(change);
    if (log.length > LOG_LIMIT) {
      const dropped = log.length - LOG_LIMIT;
      compactedRevision = log[dropped - 1].rv;
      log.splice(0, dropped);
      logStart += dropped;
    }
    for (const watcher of watchers) pump(watcher);
  }

  /** Sends what the watcher has not seen yet, until its socket's buffer is full (then on drain). */
  function pump(watcher: Watcher) {
    if (watcher.closed || watcher.waiting) return;
    while (watcher.cursor < logStart + log.length) {
      const change = log[watcher.cursor - logStart];
      watcher.cursor++;
      if (change.plural !== watcher.plural) continue;
      const ok = watcher.response.write(`${JSON.stringify({ type: "MODIFIED", object: objectOf(change) })}\n`);
      if (!ok) {
        watcher.waiting = true;
        watcher.response.once("drain", () => {
          watcher.waiting = false;
          pump(watcher);
        });
        return;
      }
    }
  }

  const updateShoot = (i: number) => {
    const state = changed.get(i) ?? { rv: 0, updates: 0 };
    state.rv = ++revision;
    state.updates++;
    changed.set(i, state);
    record({ rv: revision, plural: "shoots", key: i });
    const t = template(i);
    return { rv: String(revision), namespace: t.metadata.namespace, name: `${t.metadata.name}-${i}` };
  };

  function list(plural: Plural, query: URLSearchParams): Json {
    const limit = Number(query.get("limit") ?? "0") || Number.MAX_SAFE_INTEGER;
    const start = Number(query.get("continue") ?? "0");
    let items: Json[];
    let next: number | undefined;
    if (plural === "shoots") {
      const end = Math.min(shootCount, start + limit);
      items = [];
      for (let i = start; i < end; i++) items.push(shoot(i));
      next = end < shootCount ? end : undefined;
    } else {
      const all = [...objects.get(plural)!.values()];
      items = all.slice(start, start + limit).map((o) => ({ apiVersion: API, kind: KIND[plural], ...o }));
      next = start + limit < all.length ? start + limit : undefined;
    }
    return {
      apiVersion: API,
      kind: `${KIND[plural]}List`,
      metadata: { resourceVersion: String(revision), ...(next !== undefined ? { continue: String(next) } : {}) },
      items,
    };
  }

  function watch(plural: Plural, query: URLSearchParams, response: http.ServerResponse) {
    const from = Number(query.get("resourceVersion") ?? "0");
    response.writeHead(200, { "Content-Type": "application/json", "Transfer-Encoding": "chunked" });
    if (from > 0 && from < compactedRevision) {
      response.end(
        `${JSON.stringify({ type: "ERROR", object: { kind: "Status", apiVersion: "v1", status: "Failure", reason: "Expired", code: 410, message: `too old resource version: ${from}` } })}\n`,
      );
      return;
    }
    let cursor = logStart;
    while (cursor < logStart + log.length && log[cursor - logStart].rv <= from) cursor++;
    const watcher: Watcher = { plural, response, cursor, waiting: false, closed: false };
    watchers.add(watcher);
    const bookmarks = setInterval(() => {
      if (watcher.waiting || watcher.cursor < logStart + log.length) return;
      response.write(
        `${JSON.stringify({ type: "BOOKMARK", object: { apiVersion: API, kind: KIND[plural], metadata: { resourceVersion: String(revision) } } })}\n`,
      );
    }, 1_000);
    const timeout = setTimeout(() => response.end(), Number(query.get("timeoutSeconds") ?? "300") * 1000);
    response.on("close", () => {
      watcher.closed = true;
      watchers.delete(watcher);
      clearInterval(bookmarks);
      clearTimeout(timeout);
    });
    pump(watcher);
  }

  const bench = async (action: string, query: URLSearchParams): Promise<Json> => {
    if (action === "status") return updateShoot(Number(query.get("shoot")));
    if (action === "burst") {
      // `count` status updates of shoots picked across the garden, `rate` per second.
      const count = Number(query.get("count"));
      const rate = Number(query.get("rate"));
      const started = Date.now();
      let last: Json;
      for (let n = 0; n < count; n++) {
        last = updateShoot((n * 7919) % shootCount);
        const due = started + ((n + 1) * 1000) / rate;
        if (due > Date.now() + 5) await new Promise((r) => setTimeout(r, due - Date.now()));
      }
      return { ...last, sentMs: Date.now() - started };
    }
    if (action === "profile") {
      // A new expiration date for a Kubernetes version: every shoot of the profile gets new columns.
      const profile = objects.get("cloudprofiles")!.get(HALF_PROFILE);
      const versions = profile.spec.kubernetes.versions.map((v: Json, i: number) =>
        i === 0 ? { ...v, expirationDate: new Date(Date.now() + 90 * 86_400_000).toISOString() } : v,
      );
      revision++;
      objects.get("cloudprofiles")!.set(HALF_PROFILE, {
        ...profile,
        metadata: { ...profile.metadata, resourceVersion: String(revision) },
        spec: { ...profile.spec, kubernetes: { ...profile.spec.kubernetes, versions } },
      });
      record({ rv: revision, plural: "cloudprofiles", key: HALF_PROFILE });
      return { rv: String(revision), profile: HALF_PROFILE };
    }
    if (action === "memory") return { peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024) };
    throw new Error(`unknown bench action ${action}`);
  };

  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://generated");
    const send = (status: number, body: Json) => {
      response.writeHead(status, { "Content-Type": "application/json" });
      response.end(JSON.stringify(body));
    };
    const benchMatch = /^\/bench\/(\w+)$/.exec(url.pathname);
    if (benchMatch) {
      bench(benchMatch[1], url.searchParams).then(
        (body) => send(200, body),
        (error) => send(500, { message: String(error) }),
      );
      return;
    }
    const match =
      /^\/apis\/core\.gardener\.cloud\/v1beta1\/(cloudprofiles|namespacedcloudprofiles|seeds|projects|shoots)$/.exec(
        url.pathname,
      );
    if (!match) return send(404, { kind: "Status", code: 404, message: `${url.pathname} not found` });
    const plural = match[1] as Plural;
    if (url.searchParams.get("watch") === "true") return watch(plural, url.searchParams, response);
    send(200, list(plural, url.searchParams));
  });
  return new Promise<{ url: string; close: () => Promise<void> }>((resolve) => {
    server.listen(0, "127.0.0.1", () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        close: () => {
          for (const w of watchers) w.response.destroy();
          return new Promise((r) => server.close(() => r()));
        },
      }),
    );
  });
}

if (import.meta.filename === process.argv[1]) {
  const { values } = parseArgs({ options: { shoots: { type: "string", default: "10000" } } });
  const garden = await startGeneratedGarden(Number(values.shoots));
  console.log(JSON.stringify({ url: garden.url }));
}
