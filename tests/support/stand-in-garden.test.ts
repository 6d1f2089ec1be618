// The stand-in garden, driven only through @kubernetes/client-node 2.0.1 (and, where client-node
// cannot express a request, raw node:http), the way the live garden will talk to a real one.
import http from "node:http";
import {
  ApiException,
  AuthorizationV1Api,
  CustomObjectsApi,
  KubeConfig,
  KubernetesObjectApi,
  makeInformer,
  Observable,
  PatchStrategy,
  type ObservableMiddleware,
  type RequestContext,
  type ResponseContext,
  setHeaderOptions,
  VersionApi,
  Watch,
} from "@kubernetes/client-node";
import { Agent, type Dispatcher } from "undici";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type StandInGarden, startStandInGarden } from "./stand-in-garden.ts";

const group = "core.gardener.cloud";
const version = "v1beta1";
const shootsPath = "/apis/core.gardener.cloud/v1beta1/shoots";

let garden: StandInGarden;

beforeEach(async () => {
  garden = await startStandInGarden({ bookmarkIntervalMs: 100 });
});

afterEach(async () => {
  await garden.close();
});

function kubeConfig(options?: Parameters<StandInGarden["writeKubeconfig"]>[0]): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromFile(garden.writeKubeconfig(options));
  return kc;
}

function shoot(namespace: string, name: string, extra: Record<string, unknown> = {}) {
  return {
    metadata: { name, namespace, labels: { team: namespace.replace(/^garden-/, "") } },
    spec: {
      cloudProfile: { name: "aws" },
      kubernetes: { version: "1.33.2" },
      region: "eu-west-1",
      seedName: "aws-eu1",
    },
    ...extra,
  };
}

function seedShoots(): void {
  garden.put("CloudProfile", { metadata: { name: "aws" }, spec: { type: "aws" } });
  garden.put("Shoot", shoot("garden-dev", "web"));
  garden.put("Shoot", shoot("garden-dev", "api"));
  garden.put("Shoot", shoot("garden-ops", "logs"));
}

/** The error a client-node call rejects with. */
async function failure(promise: Promise<unknown>): Promise<ApiException<unknown>> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ApiException);
    return error as ApiException<unknown>;
  }
  throw new Error("expected the call to fail");
}

/** client-node 2.x gives the error body as the response's text: parse it. */
function statusOf(error: ApiException<unknown>): any {
  return typeof error.body === "string" ? JSON.parse(error.body) : error.body;
}

async function until(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

interface Watching {
  events: { type: string; object: any }[];
  done: Promise<unknown>;
  doneCalls: number;
  controller: AbortController;
}

async function watch(
  kc: KubeConfig,
  path: string,
  query: Record<string, string | number | boolean | undefined>,
): Promise<Watching> {
  const events: { type: string; object: any }[] = [];
  let finish: (error: unknown) => void = () => {};
  const watching = {
    events,
    done: new Promise<unknown>((resolve) => (finish = resolve)),
    doneCalls: 0,
  } as Watching;
  watching.controller = await new Watch(kc).watch(
    path,
    query,
    (type, object) => events.push({ type, object }),
    (error) => {
      watching.doneCalls++;
      finish(error ?? null);
    },
  );
  return watching;
}

/** Rewrites a generated call's URL to a subresource of the object (client-node has no generic call). */
function subresource(name: string): ObservableMiddleware {
  return {
    pre(context: RequestContext) {
      const url = new URL(context.getUrl());
      url.pathname += `/${name}`;
      context.setUrl(url.toString());
      return new Observable(Promise.resolve(context));
    },
    post(response: ResponseContext) {
      return new Observable(Promise.resolve(response));
    },
  };
}

describe("the stand-in garden", () => {
  it("lists with the current resourceVersion and items without kind, gets with kind", async () => {
    seedShoots();
    const api = kubeConfig().makeApiClient(CustomObjectsApi);

    const list = await api.listClusterCustomObject({ group, version, plural: "shoots" });
    expect(list.apiVersion).toBe("core.gardener.cloud/v1beta1");
    expect(list.kind).toBe("ShootList");
    expect(list.metadata.resourceVersion).toBe(garden.resourceVersion());
    expect(list.items.map((s: any) => `${s.metadata.namespace}/${s.metadata.name}`)).toEqual([
      "garden-dev/api",
      "garden-dev/web",
      "garden-ops/logs",
    ]);
    for (const item of list.items) {
      expect(item.kind).toBeUndefined();
      expect(item.apiVersion).toBeUndefined();
      expect(item.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
      expect(item.metadata.generation).toBe(1);
    }

    const dev = await api.listNamespacedCustomObject({ group, version, namespace: "garden-dev", plural: "shoots" });
    expect(dev.items.map((s: any) => s.metadata.name)).toEqual(["api", "web"]);
    const selected = await api.listClusterCustomObject({
      group,
      version,
      plural: "shoots",
      labelSelector: "team!=dev",
    });
    expect(selected.items.map((s: any) => s.metadata.name)).toEqual(["logs"]);
    const profiles = await api.listClusterCustomObject({ group, version, plural: "cloudprofiles" });
    expect(profiles.kind).toBe("CloudProfileList");
    expect(profiles.items[0].metadata.namespace).toBeUndefined();

    const web = await api.getNamespacedCustomObject({
      group,
      version,
      namespace: "garden-dev",
      plural: "shoots",
      name: "web",
    });
    expect(web.kind).toBe("Shoot");
    expect(web.apiVersion).toBe("core.gardener.cloud/v1beta1");
    expect(web.metadata.resourceVersion).toBe(garden.get("Shoot", "garden-dev", "web").metadata.resourceVersion);

    const missing = await failure(
      api.getNamespacedCustomObject({ group, version, namespace: "garden-dev", plural: "shoots", name: "nope" }),
    );
    expect(missing.code).toBe(404);
    expect(statusOf(missing)).toEqual({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message: 'shoots.core.gardener.cloud "nope" not found',
      reason: "NotFound",
      details: { name: "nope", group: "core.gardener.cloud", kind: "shoots" },
      code: 404,
    });
  });

  it("pages with limit and continue over a consistent snapshot; an old continue token expires", async () => {
    for (const name of ["a", "b", "c", "d", "e"]) garden.put("Shoot", shoot("garden-dev", name));
    const api = kubeConfig().makeApiClient(CustomObjectsApi);

    const first = await api.listClusterCustomObject({ group, version, plural: "shoots", limit: 2 });
    expect(first.items.map((s: any) => s.metadata.name)).toEqual(["a", "b"]);
    expect(first.metadata.continue).toEqual(expect.any(String));
    expect(first.metadata.remainingItemCount).toBe(3);

    // Changes after the first page do not show on the next pages.
    garden.update("Shoot", "garden-dev", "c", (s) => (s.metadata.labels.changed = "yes"));
    garden.remove("Shoot", "garden-dev", "d");
    garden.put("Shoot", shoot("garden-dev", "f"));

    const second = await api.listClusterCustomObject({
      group,
      version,
      plural: "shoots",
      limit: 2,
      _continue: first.metadata.continue,
    });
    expect(second.metadata.resourceVersion).toBe(first.metadata.resourceVersion);
    expect(second.items.map((s: any) => s.metadata.name)).toEqual(["c", "d"]);
    expect(second.items[0].metadata.labels.changed).toBeUndefined();
    const third = await api.listClusterCustomObject({
      group,
      version,
      plural: "shoots",
      limit: 2,
      _continue: second.metadata.continue,
    });
    expect(third.items.map((s: any) => s.metadata.name)).toEqual(["e"]);
    expect(third.metadata.continue).toBeUndefined();

    garden.compact();
    const expired = await failure(
      api.listClusterCustomObject({ group, version, plural: "shoots", limit: 2, _continue: second.metadata.continue }),
    );
    expect(expired.code).toBe(410);
    expect(statusOf(expired)).toMatchObject({ kind: "Status", reason: "Expired", code: 410 });
  });

  it("watches from a resourceVersion: the later events, then live ones; the namespace filters", async () => {
    seedShoots();
    const kc = kubeConfig();
    const api = kc.makeApiClient(CustomObjectsApi);
    const list = await api.listClusterCustomObject({ group, version, plural: "shoots" });
    garden.update("Shoot", "garden-dev", "web", (s) => (s.status = { lastOperation: { state: "Processing" } }));

    const all = await watch(kc, shootsPath, { resourceVersion: list.metadata.resourceVersion });
    const ops = await watch(kc, "/apis/core.gardener.cloud/v1beta1/namespaces/garden-ops/shoots", {
      resourceVersion: list.metadata.resourceVersion,
    });
    await until(() => all.events.length === 1);
    expect(garden.openWatches()).toBe(2);
    garden.put("Shoot", shoot("garden-ops", "metrics"));
    garden.remove("Shoot", "garden-dev", "api");
    await until(() => all.events.length === 3 && ops.events.length === 1);

    expect(all.events.map((e) => [e.type, e.object.metadata.name])).toEqual([
      ["MODIFIED", "web"],
      ["ADDED", "metrics"],
      ["DELETED", "api"],
    ]);
    expect(all.events[0].object.kind).toBe("Shoot");
    expect(all.events[0].object.apiVersion).toBe("core.gardener.cloud/v1beta1");
    expect(all.events[0].object.status.lastOperation.state).toBe("Processing");
    expect(Number(all.events[2].object.metadata.resourceVersion)).toBe(Number(garden.resourceVersion()));
    expect(ops.events.map((e) => [e.type, e.object.metadata.name])).toEqual([["ADDED", "metrics"]]);

    // Without a resourceVersion: every current object as ADDED first.
    const fresh = await watch(kc, shootsPath, {});
    await until(() => fresh.events.length === 3);
    expect(fresh.events.every((e) => e.type === "ADDED")).toBe(true);

    all.controller.abort();
    ops.controller.abort();
    fresh.controller.abort();
    await until(() => garden.openWatches() === 0);
  });

  it("sends bookmarks when allowed, ends after timeoutSeconds, and 410 after compact()", async () => {
    seedShoots();
    const kc = kubeConfig();
    const rv = garden.resourceVersion();
    const bookmarked = await watch(kc, shootsPath, { resourceVersion: rv, allowWatchBookmarks: true });
    const plain = await watch(kc, shootsPath, { resourceVersion: rv });
    await until(() => bookmarked.events.length >= 2);
    expect(bookmarked.events[0]).toEqual({
      type: "BOOKMARK",
      object: {
        kind: "Shoot",
        apiVersion: "core.gardener.cloud/v1beta1",
        metadata: { resourceVersion: rv, annotations: { "k8s.io/initial-events-end": "true" } },
      },
    });
    expect(plain.events).toEqual([]);
    bookmarked.controller.abort();
    plain.controller.abort();

    const timed = await watch(kc, shootsPath, { resourceVersion: rv, timeoutSeconds: 1 });
    expect(await timed.done).toBeNull();

    garden.put("Shoot", shoot("garden-dev", "new"));
    garden.compact();
    const old = await watch(kc, shootsPath, { resourceVersion: rv });
    expect(await old.done).toBeNull();
    expect(old.events).toEqual([
      {
        type: "ERROR",
        object: {
          kind: "Status",
          apiVersion: "v1",
          metadata: {},
          status: "Failure",
          message: `too old resource version: ${rv} (${garden.resourceVersion()})`,
          reason: "Expired",
          code: 410,
        },
      },
    ]);
    // From the compaction's revision on, watching works again.
    const current = await watch(kc, shootsPath, { resourceVersion: garden.resourceVersion() });
    garden.remove("Shoot", "garden-dev", "new");
    await until(() => current.events.length === 1);
    current.controller.abort();
  });

  it("dropWatches() ends the streams abruptly: the done callback runs (once, with an error)", async () => {
    seedShoots();
    const kc = kubeConfig();
    const watching = await watch(kc, shootsPath, { resourceVersion: garden.resourceVersion() });
    await until(() => garden.openWatches() === 1);
    garden.dropWatches();
    expect(garden.openWatches()).toBe(0);
    const error = await watching.done;
    expect(error).toBeInstanceOf(Error);
    expect(watching.doneCalls).toBe(1);
  });

  it("an informer: reconnects after endWatches(), stops with an error after dropWatches(), relists after a 410", async () => {
    seedShoots();
    const kc = kubeConfig();
    const api = kc.makeApiClient(CustomObjectsApi);
    const informer = makeInformer(kc, shootsPath, () =>
      api.listClusterCustomObject({ group, version, plural: "shoots" }),
    );
    const errors: unknown[] = [];
    informer.on("error", (error) => errors.push(error));
    await informer.start();
    expect(informer.list().length).toBe(3);
    await until(() => garden.openWatches() === 1);
    const lists = () => garden.requests.filter((r) => r.method === "GET" && r.query.watch === undefined).length;
    expect(lists()).toBe(1);

    // A clean end (kube-apiserver's request timeout): the informer watches again from where it was.
    garden.endWatches();
    await until(() => garden.openWatches() === 1);
    garden.put("Shoot", shoot("garden-dev", "late"));
    await until(() => informer.list().length === 4);
    expect(lists()).toBe(1);

    // An abrupt end: client-node's ListWatch reports the error and does not restart by itself.
    garden.dropWatches();
    await until(() => errors.length === 1);
    expect(garden.openWatches()).toBe(0);

    // Restarted after the history was compacted: ERROR 410, a new list, a new watch.
    garden.remove("Shoot", "garden-dev", "late");
    garden.compact();
    await informer.start();
    await until(() => informer.list().length === 3 && garden.openWatches() === 1);
    expect(lists()).toBe(2);

    // Surprise: stop() aborts the watch, and ListWatch reports that AbortError as an "error" too.
    const before = errors.length;
    await informer.stop();
    await until(() => garden.openWatches() === 0 && errors.length === before + 1);
    expect((errors.at(-1) as Error).name).toBe("AbortError");
  });

  it("watch details: the client's abort, a refused watch, one object's watch, selectors, initial events", async () => {
    seedShoots();
    const kc = kubeConfig();

    // Aborting the controller ends the stream; client-node calls done with an AbortError.
    const aborted = await watch(kc, shootsPath, {});
    await until(() => aborted.events.length === 3);
    aborted.controller.abort();
    expect(await aborted.done).toMatchObject({ name: "AbortError" });
    await until(() => garden.openWatches() === 0);

    // A refused watch: done gets an Error whose message is the status text, with statusCode; no Status.
    const refused = await watch(kubeConfig({ as: "nobody" }), shootsPath, {});
    const error = (await refused.done) as Error & { statusCode: number };
    expect(error.message).toBe("Forbidden");
    expect(error.statusCode).toBe(403);

    // The watch of one object (GET .../shoots/web?watch=true), and a label selector: an object
    // that stops matching leaves the watch as DELETED, one that starts matching enters as ADDED.
    const one = await watch(kc, "/apis/core.gardener.cloud/v1beta1/namespaces/garden-dev/shoots/web", {
      resourceVersion: garden.resourceVersion(),
    });
    const dev = await watch(kc, shootsPath, { resourceVersion: garden.resourceVersion(), labelSelector: "team=dev" });
    garden.update("Shoot", "garden-dev", "api", (s) => (s.metadata.labels.team = "ops"));
    garden.update("Shoot", "garden-ops", "logs", (s) => (s.metadata.labels.team = "dev"));
    garden.update("Shoot", "garden-dev", "web", (s) => (s.spec.region = "eu-central-1"));
    await until(() => dev.events.length === 3 && one.events.length === 1);
    expect(dev.events.map((e) => [e.type, e.object.metadata.name])).toEqual([
      ["DELETED", "api"],
      ["ADDED", "logs"],
      ["MODIFIED", "web"],
    ]);
    expect(one.events.map((e) => [e.type, e.object.metadata.name, e.object.metadata.generation])).toEqual([
      ["MODIFIED", "web", 2],
    ]);
    one.controller.abort();
    dev.controller.abort();

    // The streaming list: ADDED for each object, then the bookmark that ends the initial events.
    const streaming = await watch(kc, shootsPath, {
      sendInitialEvents: true,
      allowWatchBookmarks: true,
      resourceVersionMatch: "NotOlderThan",
    });
    await until(() => streaming.events.length === 4);
    expect(streaming.events.map((e) => e.type)).toEqual(["ADDED", "ADDED", "ADDED", "BOOKMARK"]);
    expect(streaming.events[3].object.metadata.annotations).toEqual({ "k8s.io/initial-events-end": "true" });
    streaming.controller.abort();
  });

  it("lists at an exact resourceVersion, and answers dryRun without storing", async () => {
    seedShoots();
    const api = kubeConfig().makeApiClient(CustomObjectsApi);
    const rv = garden.resourceVersion();
    garden.remove("Shoot", "garden-dev", "api");
    const then = await api.listClusterCustomObject({
      group,
      version,
      plural: "shoots",
      resourceVersion: rv,
      resourceVersionMatch: "Exact",
    });
    expect(then.metadata.resourceVersion).toBe(rv);
    expect(then.items.map((s: any) => s.metadata.name)).toEqual(["api", "web", "logs"]);
    garden.compact();
    const gone = await failure(
      api.listClusterCustomObject({
        group,
        version,
        plural: "shoots",
        resourceVersion: rv,
        resourceVersionMatch: "Exact",
      }),
    );
    expect(gone.code).toBe(410);

    const before = garden.resourceVersion();
    const dry = await api.patchNamespacedCustomObject(
      {
        group,
        version,
        namespace: "garden-dev",
        plural: "shoots",
        name: "web",
        body: { spec: { region: "ap-south-1" } },
        dryRun: "All",
      },
      setHeaderOptions("Content-Type", PatchStrategy.MergePatch),
    );
    expect(dry.spec.region).toBe("ap-south-1");
    expect(garden.get("Shoot", "garden-dev", "web").spec.region).toBe("eu-west-1");
    expect(garden.resourceVersion()).toBe(before);
  });

  it("applies merge patches (with setHeaderOptions) and JSON patches (the default)", async () => {
    seedShoots();
    const api = kubeConfig().makeApiClient(CustomObjectsApi);
    const before = garden.get("Shoot", "garden-dev", "web");

    const merged = await api.patchNamespacedCustomObject(
      {
        group,
        version,
        namespace: "garden-dev",
        plural: "shoots",
        name: "web",
        body: { metadata: { labels: { team: null, tier: "gold" } }, spec: { kubernetes: { version: "1.33.3" } } },
      },
      setHeaderOptions("Content-Type", PatchStrategy.MergePatch),
    );
    expect(merged.spec.kubernetes.version).toBe("1.33.3");
    expect(merged.metadata.labels).toEqual({ tier: "gold" });
    expect(merged.metadata.generation).toBe(2);
    expect(Number(merged.metadata.resourceVersion)).toBeGreaterThan(Number(before.metadata.resourceVersion));
    expect(garden.requests.at(-1)).toMatchObject({
      method: "PATCH",
      path: "/apis/core.gardener.cloud/v1beta1/namespaces/garden-dev/shoots/web",
      contentType: "application/merge-patch+json",
      user: garden.almanacUser,
    });

    const patched = await api.patchNamespacedCustomObject({
      group,
      version,
      namespace: "garden-dev",
      plural: "shoots",
      name: "web",
      body: [
        { op: "test", path: "/metadata/resourceVersion", value: merged.metadata.resourceVersion },
        { op: "add", path: "/metadata/annotations", value: { "gardener.cloud/operation": "maintain" } },
        { op: "replace", path: "/spec/region", value: "eu-central-1" },
      ],
    });
    expect(garden.requests.at(-1)!.contentType).toBe("application/json-patch+json");
    expect(patched.spec.region).toBe("eu-central-1");
    expect(patched.metadata.annotations).toEqual({ "gardener.cloud/operation": "maintain" });

    const failedTest = await failure(
      api.patchNamespacedCustomObject({
        group,
        version,
        namespace: "garden-dev",
        plural: "shoots",
        name: "web",
        body: [{ op: "test", path: "/spec/region", value: "us-east-1" }],
      }),
    );
    expect(failedTest.code).toBe(422);
    expect(statusOf(failedTest)).toMatchObject({ reason: "Invalid", code: 422 });
    const badPath = await failure(
      api.patchNamespacedCustomObject({
        group,
        version,
        namespace: "garden-dev",
        plural: "shoots",
        name: "web",
        body: [{ op: "replace", path: "/spec/nothing/here", value: 1 }],
      }),
    );
    expect(badPath.code).toBe(422);
    const strategic = await failure(
      api.patchNamespacedCustomObject(
        { group, version, namespace: "garden-dev", plural: "shoots", name: "web", body: { spec: {} } },
        setHeaderOptions("Content-Type", PatchStrategy.StrategicMergePatch),
      ),
    );
    expect(strategic.code).toBe(415);
  });

  it("applies every JSON patch operation as RFC 6902 says", async () => {
    garden.put("Shoot", {
      metadata: { name: "web", namespace: "garden-dev", labels: { "a/b": "1", "x~y": "2" } },
      spec: { provider: { workers: [{ name: "w1" }, { name: "w2" }] }, region: "eu-west-1" },
    });
    const api = kubeConfig().makeApiClient(CustomObjectsApi);
    const patched = await api.patchNamespacedCustomObject({
      group,
      version,
      namespace: "garden-dev",
      plural: "shoots",
      name: "web",
      body: [
        { op: "add", path: "/spec/provider/workers/-", value: { name: "w3" } },
        { op: "add", path: "/spec/provider/workers/0", value: { name: "w0" } },
        { op: "remove", path: "/spec/provider/workers/2" },
        { op: "copy", from: "/spec/region", path: "/spec/purpose" },
        { op: "move", from: "/metadata/labels/a~1b", path: "/metadata/labels/moved" },
        { op: "replace", path: "/metadata/labels/x~0y", value: "3" },
        { op: "test", path: "/spec/provider/workers/1/name", value: "w1" },
      ],
    });
    expect(patched.spec.provider.workers.map((w: any) => w.name)).toEqual(["w0", "w1", "w3"]);
    expect(patched.spec.purpose).toBe("eu-west-1");
    expect(patched.metadata.labels).toEqual({ moved: "1", "x~y": "3" });

    // An operation that fails leaves the object as it was (the patch is all or nothing).
    const failed = await failure(
      api.patchNamespacedCustomObject({
        group,
        version,
        namespace: "garden-dev",
        plural: "shoots",
        name: "web",
        body: [
          { op: "replace", path: "/spec/region", value: "us-east-1" },
          { op: "remove", path: "/spec/provider/workers/7" },
        ],
      }),
    );
    expect(failed.code).toBe(422);
    expect(statusOf(failed)).toMatchObject({
      message: "the server rejected our request due to an error in our request",
      reason: "Invalid",
      details: { causes: [{ reason: "UnexpectedServerResponse" }] },
    });
    expect(garden.get("Shoot", "garden-dev", "web").spec.region).toBe("eu-west-1");

    // A patch that changes nothing stores nothing: same resourceVersion, no event.
    const rv = garden.resourceVersion();
    const same = await api.patchNamespacedCustomObject(
      {
        group,
        version,
        namespace: "garden-dev",
        plural: "shoots",
        name: "web",
        body: { spec: { region: "eu-west-1" } },
      },
      setHeaderOptions("Content-Type", PatchStrategy.MergePatch),
    );
    expect(same.metadata.resourceVersion).toBe(rv);
    expect(garden.resourceVersion()).toBe(rv);
  });

  it("serves /version, answers an unknown path with a 404 Status, checks delete preconditions", async () => {
    seedShoots();
    const kc = kubeConfig();
    const info = await kc.makeApiClient(VersionApi).getCode();
    expect(info.gitVersion).toMatch(/^v1\.\d+\.\d+$/);
    expect(garden.requests).toEqual([]);

    const unknown = await rawRequest("GET", "/apis/core.gardener.cloud/v1beta1/managedseeds", {
      Authorization: `Bearer ${garden.almanacToken}`,
    });
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.body)).toMatchObject({
      kind: "Status",
      status: "Failure",
      reason: "NotFound",
      code: 404,
    });

    const api = kc.makeApiClient(CustomObjectsApi);
    garden.update(
      "Shoot",
      "garden-dev",
      "web",
      (s) => (s.metadata.annotations = { "confirmation.gardener.cloud/deletion": "true" }),
    );
    const stale = await failure(
      api.deleteNamespacedCustomObject({
        group,
        version,
        namespace: "garden-dev",
        plural: "shoots",
        name: "web",
        body: { preconditions: { resourceVersion: "1" } },
      }),
    );
    expect(stale.code).toBe(409);
    expect(statusOf(stale).message).toMatch(
      /^Operation cannot be fulfilled on shoots.core.gardener.cloud "web": Precondition failed/,
    );
    expect(garden.get("Shoot", "garden-dev", "web").metadata.deletionTimestamp).toBeUndefined();
  });

  it("answers a stale resourceVersion with 409 Conflict, the Status in ApiException.body", async () => {
    seedShoots();
    const api = kubeConfig().makeApiClient(CustomObjectsApi);
    const web = await api.getNamespacedCustomObject({
      group,
      version,
      namespace: "garden-dev",
      plural: "shoots",
      name: "web",
    });
    garden.update("Shoot", "garden-dev", "web", (s) => (s.status = { hibernated: false }));

    const stale = await failure(
      api.patchNamespacedCustomObject(
        {
          group,
          version,
          namespace: "garden-dev",
          plural: "shoots",
          name: "web",
          body: { metadata: { resourceVersion: web.metadata.resourceVersion }, spec: { region: "x" } },
        },
        setHeaderOptions("Content-Type", PatchStrategy.MergePatch),
      ),
    );
    expect(stale.code).toBe(409);
    expect(typeof stale.body).toBe("string");
    expect(statusOf(stale)).toEqual({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message:
        'Operation cannot be fulfilled on shoots.core.gardener.cloud "web": the object has been modified; please apply your changes to the latest version and try again',
      reason: "Conflict",
      details: { name: "web", group: "core.gardener.cloud", kind: "shoots" },
      code: 409,
    });
    expect(garden.get("Shoot", "garden-dev", "web").spec.region).toBe("eu-west-1");

    // PUT with the stored resourceVersion works; the status stays Gardener's.
    const current = await api.getNamespacedCustomObject({
      group,
      version,
      namespace: "garden-dev",
      plural: "shoots",
      name: "web",
    });
    current.spec.region = "eu-north-1";
    current.status = { hibernated: true };
    const replaced = await api.replaceNamespacedCustomObject({
      group,
      version,
      namespace: "garden-dev",
      plural: "shoots",
      name: "web",
      body: current,
    });
    expect(replaced.spec.region).toBe("eu-north-1");
    expect(replaced.status).toEqual({ hibernated: false });
    const again = await failure(
      api.replaceNamespacedCustomObject({
        group,
        version,
        namespace: "garden-dev",
        plural: "shoots",
        name: "web",
        body: current,
      }),
    );
    expect(again.code).toBe(409);
  });

  it("answers 401 for a bad token (client-node drops that body)", async () => {
    const api = kubeConfig({ token: "wrong" }).makeApiClient(CustomObjectsApi);
    const error = await failure(api.listClusterCustomObject({ group, version, plural: "shoots" }));
    expect(error.code).toBe(401);
    expect(error.body).toBeUndefined();

    const raw = await rawRequest("GET", shootsPath, { Authorization: "Bearer wrong" });
    expect(raw.status).toBe(401);
    expect(JSON.parse(raw.body)).toEqual({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message: "Unauthorized",
      reason: "Unauthorized",
      code: 401,
    });
    const watching = await watch(kubeConfig({ token: "wrong" }), shootsPath, {});
    expect(await watching.done).toMatchObject({ statusCode: 401 });
    expect(garden.requests).toEqual([]);
  });

  it("impersonates with the user's `as` and authorizes the impersonated user", async () => {
    seedShoots();
    const alice = kubeConfig({ as: "alice@example.com" }).makeApiClient(CustomObjectsApi);
    const denied = await failure(
      alice.patchNamespacedCustomObject(
        { group, version, namespace: "garden-dev", plural: "shoots", name: "web", body: { spec: { region: "x" } } },
        setHeaderOptions("Content-Type", PatchStrategy.MergePatch),
      ),
    );
    expect(denied.code).toBe(403);
    expect(statusOf(denied)).toEqual({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message:
        'shoots.core.gardener.cloud "web" is forbidden: User "alice@example.com" cannot patch resource "shoots" in API group "core.gardener.cloud" in the namespace "garden-dev"',
      reason: "Forbidden",
      details: { name: "web", group: "core.gardener.cloud", kind: "shoots" },
      code: 403,
    });
    expect(garden.requests.at(-1)).toMatchObject({
      user: "alice@example.com",
      groups: ["system:authenticated"],
      impersonatedBy: garden.almanacUser,
    });
    const listDenied = await failure(alice.listClusterCustomObject({ group, version, plural: "shoots" }));
    expect(statusOf(listDenied).message).toBe(
      'shoots.core.gardener.cloud is forbidden: User "alice@example.com" cannot list resource "shoots" in API group "core.gardener.cloud" at the cluster scope',
    );

    garden.rbac.push({
      users: ["alice@example.com"],
      verbs: ["get", "list"],
      resources: ["shoots"],
      namespaces: ["garden-dev"],
    });
    const dev = await alice.listNamespacedCustomObject({ group, version, namespace: "garden-dev", plural: "shoots" });
    expect(dev.items.length).toBe(2);
    expect(
      (await failure(alice.listNamespacedCustomObject({ group, version, namespace: "garden-ops", plural: "shoots" })))
        .code,
    ).toBe(403);

    // Per call: a call-time header middleware (what a server acting for many users would use).
    const almanac = kubeConfig().makeApiClient(CustomObjectsApi);
    await almanac.listNamespacedCustomObject(
      { group, version, namespace: "garden-dev", plural: "shoots" },
      setHeaderOptions("Impersonate-User", "alice@example.com"),
    );
    expect(garden.requests.at(-1)).toMatchObject({ user: "alice@example.com", impersonatedBy: garden.almanacUser });

    // A user without the right to impersonate.
    garden.addToken("bob-token", "bob@example.com", ["developers"]);
    const bob = kubeConfig({ token: "bob-token", as: "alice@example.com" }).makeApiClient(CustomObjectsApi);
    const notAllowed = await failure(
      bob.listNamespacedCustomObject({ group, version, namespace: "garden-dev", plural: "shoots" }),
    );
    expect(statusOf(notAllowed)).toMatchObject({
      message:
        'users "alice@example.com" is forbidden: User "bob@example.com" cannot impersonate resource "users" in API group "" at the cluster scope',
      reason: "Forbidden",
      code: 403,
    });
    expect(garden.requests.at(-1)).toMatchObject({
      user: "bob@example.com",
      groups: ["developers", "system:authenticated"],
    });
    expect(garden.requests.at(-1)!.impersonatedBy).toBeUndefined();
  });

  it("reads repeated Impersonate-Group headers (raw node:http, and client-node through an undici interceptor)", async () => {
    seedShoots();
    garden.rbac.push({ groups: ["team-b"], verbs: ["list"], resources: ["shoots"], namespaces: ["garden-dev"] });
    const headers = {
      Authorization: `Bearer ${garden.almanacToken}`,
      "Impersonate-User": "carol@example.com",
      "Impersonate-Group": ["team-a", "team-b"], // node:http sends one line per value
    };
    const raw = await rawRequest("GET", "/apis/core.gardener.cloud/v1beta1/namespaces/garden-dev/shoots", headers);
    expect(raw.status).toBe(200);
    expect(garden.requests.at(-1)).toMatchObject({
      user: "carol@example.com",
      groups: ["team-a", "team-b", "system:authenticated"],
      impersonatedBy: garden.almanacUser,
    });
    // One header with a comma is one group named "team-a, team-b" (as Go's net/http reads it).
    const joined = await rawRequest("GET", "/apis/core.gardener.cloud/v1beta1/namespaces/garden-dev/shoots", {
      Authorization: `Bearer ${garden.almanacToken}`,
      "Impersonate-User": "carol@example.com",
      "Impersonate-Group": "team-a, team-b",
    });
    expect(joined.status).toBe(403);
    expect(garden.requests.at(-1)!.groups).toEqual(["team-a, team-b", "system:authenticated"]);

    // client-node (fetch) joins repeated values into one; an undici interceptor on the request's
    // dispatcher can put them back as separate lines, for API calls and watches alike.
    const kc = new ImpersonatingKubeConfig(["team-a", "team-b"]);
    kc.loadFromFile(garden.writeKubeconfig({ as: "carol@example.com" }));
    const api = kc.makeApiClient(CustomObjectsApi);
    const list = await api.listNamespacedCustomObject({ group, version, namespace: "garden-dev", plural: "shoots" });
    expect(list.items.length).toBe(2);
    expect(garden.requests.at(-1)!.groups).toEqual(["team-a", "team-b", "system:authenticated"]);
    garden.rbac.push({ groups: ["team-b"], verbs: ["watch"], resources: ["shoots"], namespaces: ["garden-dev"] });
    const watching = await watch(kc, "/apis/core.gardener.cloud/v1beta1/namespaces/garden-dev/shoots", {});
    await until(() => watching.events.length === 2);
    expect(garden.requests.at(-1)).toMatchObject({ query: { watch: "true" }, user: "carol@example.com" });
    expect(garden.requests.at(-1)!.groups).toEqual(["team-a", "team-b", "system:authenticated"]);
    watching.controller.abort();
  });

  it("answers subject access reviews from its rbac", async () => {
    garden.rbac.push({ groups: ["project:dev"], verbs: ["patch"], resources: ["shoots"], namespaces: ["garden-dev"] });
    garden.rbac.push({ users: ["scheduler"], verbs: ["update", "patch"], resources: ["shoots/binding"] });
    const api = kubeConfig().makeApiClient(AuthorizationV1Api);
    const review = (user: string, groups: string[], verb: string, namespace: string, subresource?: string) =>
      api.createSubjectAccessReview({
        body: {
          apiVersion: "authorization.k8s.io/v1",
          kind: "SubjectAccessReview",
          spec: {
            user,
            groups,
            resourceAttributes: {
              namespace,
              verb,
              group,
              resource: "shoots",
              name: "web",
              ...(subresource ? { subresource } : {}),
            },
          },
        },
      });
    expect((await review("dora", ["project:dev"], "patch", "garden-dev")).status?.allowed).toBe(true);
    expect((await review("dora", ["project:dev"], "patch", "garden-ops")).status?.allowed).toBe(false);
    expect((await review("dora", ["project:dev"], "delete", "garden-dev")).status?.allowed).toBe(false);
    expect((await review("scheduler", [], "patch", "garden-dev", "binding")).status?.allowed).toBe(true);
    expect((await review("scheduler", [], "patch", "garden-dev")).status?.allowed).toBe(false);

    garden.addToken("dora-token", "dora", ["project:dev"]);
    const dora = kubeConfig({ token: "dora-token" }).makeApiClient(AuthorizationV1Api);
    const self = await dora.createSelfSubjectAccessReview({
      body: {
        apiVersion: "authorization.k8s.io/v1",
        kind: "SelfSubjectAccessReview",
        spec: { resourceAttributes: { namespace: "garden-dev", verb: "patch", group, resource: "shoots" } },
      },
    });
    expect(self.status?.allowed).toBe(true);
    const forbidden = await failure(
      dora.createSubjectAccessReview({
        body: { spec: { user: "x", resourceAttributes: { verb: "get", resource: "shoots" } } },
      }),
    );
    expect(forbidden.code).toBe(403);
  });

  it("changes only spec.seedName through shoots/binding (a middleware rewriting the URL)", async () => {
    seedShoots();
    garden.put("Seed", { metadata: { name: "aws-eu2" }, spec: { provider: { type: "aws" } } });
    const api = kubeConfig().makeApiClient(CustomObjectsApi);
    const target = { group, version, namespace: "garden-dev", plural: "shoots", name: "web" };

    const moved = await api.patchNamespacedCustomObject(
      { ...target, body: { spec: { seedName: "aws-eu2" } } },
      setHeaderOptions("Content-Type", PatchStrategy.MergePatch, { middleware: [subresource("binding")] }),
    );
    expect(moved.spec.seedName).toBe("aws-eu2");
    expect(moved.metadata.generation).toBe(2);
    expect(garden.requests.at(-1)).toMatchObject({
      method: "PATCH",
      path: "/apis/core.gardener.cloud/v1beta1/namespaces/garden-dev/shoots/web/binding",
      contentType: "application/merge-patch+json",
    });

    const other = await failure(
      api.patchNamespacedCustomObject(
        { ...target, body: { spec: { seedName: "aws-eu1", region: "us-east-1" } } },
        setHeaderOptions("Content-Type", PatchStrategy.MergePatch, { middleware: [subresource("binding")] }),
      ),
    );
    expect(other.code).toBe(422);
    expect(statusOf(other)).toMatchObject({ reason: "Invalid", details: { kind: "Shoot", name: "web" } });

    // JSON patch and PUT reach the binding the same way.
    await api.patchNamespacedCustomObject(
      { ...target, body: [{ op: "replace", path: "/spec/seedName", value: "aws-eu1" }] },
      { middleware: [subresource("binding")], middlewareMergeStrategy: "append" },
    );
    expect(garden.get("Shoot", "garden-dev", "web").spec.seedName).toBe("aws-eu1");
    const current = garden.get("Shoot", "garden-dev", "web");
    current.spec.seedName = "aws-eu2";
    const put = await api.replaceNamespacedCustomObject(
      { ...target, body: current },
      { middleware: [subresource("binding")], middlewareMergeStrategy: "append" },
    );
    expect(put.spec.seedName).toBe("aws-eu2");
    expect(garden.requests.at(-1)!.path).toMatch(/\/binding$/);

    // The main resource keeps the stored seed (silently, as gardener-apiserver); a user needs the binding verb.
    const unchanged = await api.patchNamespacedCustomObject(
      { ...target, body: { spec: { seedName: "aws-eu1" } } },
      setHeaderOptions("Content-Type", PatchStrategy.MergePatch),
    );
    expect(unchanged.spec.seedName).toBe("aws-eu2");
    expect(unchanged.metadata.resourceVersion).toBe(put.metadata.resourceVersion);
    garden.rbac.push({ users: ["erin"], verbs: ["patch"], resources: ["shoots"] });
    const erin = kubeConfig({ as: "erin" }).makeApiClient(CustomObjectsApi);
    const noBinding = await failure(
      erin.patchNamespacedCustomObject(
        { ...target, body: { spec: { seedName: "aws-eu1" } } },
        setHeaderOptions("Content-Type", PatchStrategy.MergePatch, { middleware: [subresource("binding")] }),
      ),
    );
    expect(statusOf(noBinding).message).toBe(
      'shoots.core.gardener.cloud "web" is forbidden: User "erin" cannot patch resource "shoots/binding" in API group "core.gardener.cloud" in the namespace "garden-dev"',
    );
  });

  it("deletes a shoot only with Gardener's confirmation, keeping it with a deletionTimestamp", async () => {
    seedShoots();
    const kc = kubeConfig();
    const api = kc.makeApiClient(CustomObjectsApi);
    const target = { group, version, namespace: "garden-dev", plural: "shoots", name: "web" };

    const unconfirmed = await failure(api.deleteNamespacedCustomObject(target));
    expect(unconfirmed.code).toBe(403);
    expect(statusOf(unconfirmed)).toEqual({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message:
        'shoots.core.gardener.cloud "web" is forbidden: must have a "confirmation.gardener.cloud/deletion" annotation to delete',
      reason: "Forbidden",
      details: { name: "web", group: "core.gardener.cloud", kind: "shoots" },
      code: 403,
    });

    await api.patchNamespacedCustomObject(
      { ...target, body: { metadata: { annotations: { "confirmation.gardener.cloud/deletion": "true" } } } },
      setHeaderOptions("Content-Type", PatchStrategy.MergePatch),
    );
    const watching = await watch(kc, shootsPath, { resourceVersion: garden.resourceVersion() });
    const deleting = await api.deleteNamespacedCustomObject(target);
    expect(deleting.metadata.deletionTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(deleting.metadata.generation).toBe(2);
    expect(garden.get("Shoot", "garden-dev", "web").metadata.deletionTimestamp).toBe(
      deleting.metadata.deletionTimestamp,
    );

    garden.remove("Shoot", "garden-dev", "web");
    await until(() => watching.events.length === 2);
    expect(watching.events.map((e) => e.type)).toEqual(["MODIFIED", "DELETED"]);
    watching.controller.abort();

    // Cluster-scoped kinds go at once.
    await api.deleteClusterCustomObject({ group, version, plural: "cloudprofiles", name: "aws" });
    expect(garden.get("CloudProfile", undefined, "aws")).toBeUndefined();
  });

  it("creates shoots (201, then 409 AlreadyExists) and lets the admit hook refuse writes", async () => {
    const api = kubeConfig().makeApiClient(CustomObjectsApi);
    const body = { apiVersion: "core.gardener.cloud/v1beta1", kind: "Shoot", ...shoot("garden-dev", "new") };
    const created = await api.createNamespacedCustomObject({
      group,
      version,
      namespace: "garden-dev",
      plural: "shoots",
      body,
    });
    expect(created.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.metadata.generation).toBe(1);
    const exists = await failure(
      api.createNamespacedCustomObject({ group, version, namespace: "garden-dev", plural: "shoots", body }),
    );
    expect(statusOf(exists)).toMatchObject({ reason: "AlreadyExists", code: 409 });

    garden.admit = (request, old, updated) =>
      request.method === "PATCH" && updated.spec.kubernetes.version !== old.spec.kubernetes.version
        ? {
            code: 403,
            reason: "Forbidden",
            message: 'admission webhook "versions" denied the request: no upgrades today',
          }
        : undefined;
    const refused = await failure(
      api.patchNamespacedCustomObject(
        {
          group,
          version,
          namespace: "garden-dev",
          plural: "shoots",
          name: "new",
          body: { spec: { kubernetes: { version: "1.34.0" } } },
        },
        setHeaderOptions("Content-Type", PatchStrategy.MergePatch),
      ),
    );
    expect(statusOf(refused)).toMatchObject({
      message: 'admission webhook "versions" denied the request: no upgrades today',
      reason: "Forbidden",
      code: 403,
    });
    expect(garden.get("Shoot", "garden-dev", "new").spec.kubernetes.version).toBe("1.33.2");
  });

  it("serves discovery, so KubernetesObjectApi works too", async () => {
    seedShoots();
    const objects = KubernetesObjectApi.makeApiClient(kubeConfig());
    const web = await objects.read({
      apiVersion: "core.gardener.cloud/v1beta1",
      kind: "Shoot",
      metadata: { name: "web", namespace: "garden-dev" },
    });
    expect(web.metadata?.uid).toBe(garden.get("Shoot", "garden-dev", "web").metadata.uid);
    const patched: any = await objects.patch(
      {
        apiVersion: "core.gardener.cloud/v1beta1",
        kind: "Shoot",
        metadata: { name: "web", namespace: "garden-dev", labels: { tier: "gold" } },
      },
      undefined,
      undefined,
      undefined,
      undefined,
      PatchStrategy.MergePatch,
    );
    expect(patched.metadata.labels.tier).toBe("gold");
  });
});

/** A KubeConfig that sends Impersonate-Group once per group (fetch alone would join them). */
class ImpersonatingKubeConfig extends KubeConfig {
  private dispatcher: Dispatcher | undefined;
  private readonly groups: string[];

  constructor(groups: string[]) {
    super();
    this.groups = groups;
  }

  override async applySecurityAuthentication(context: RequestContext): Promise<void> {
    await super.applySecurityAuthentication(context);
    const groups = this.groups;
    this.dispatcher ??= (context.getDispatcher() ?? new Agent()).compose(
      (dispatch) => (options, handler) =>
        dispatch({ ...options, headers: { ...(options.headers as object), "impersonate-group": groups } }, handler),
    );
    context.setDispatcher(this.dispatcher);
  }
}

function rawRequest(
  method: string,
  path: string,
  headers: Record<string, string | string[]>,
): Promise<{ status: number; body: string }> {
  const url = new URL(path, garden.url);
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method, headers }, (response) => {
      let body = "";
      response.on("data", (chunk) => (body += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on("error", reject);
    request.end();
  });
}
