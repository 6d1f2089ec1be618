// list-then-watch through client-node against the stand-in API server: a handler that fails (the
// database is down) mid-watch makes the watch start over from the last event it committed, so
// every event is handled exactly once and in order, without a list; a watch the garden answers
// with 410 Gone lists again.
import { KubeConfig } from "@kubernetes/client-node";
import { afterAll, beforeAll, expect, test } from "vitest";
import { type GardenObject, type ListWatchHandlers, listWatch } from "../../lib/garden/kubernetes/list-watch.ts";
import { type StandInGarden, startStandInGarden } from "../support/stand-in-garden.ts";

let garden: StandInGarden;

beforeAll(async () => {
  garden = await startStandInGarden({ bookmarkIntervalMs: 100 });
  for (const name of ["a", "b"])
    garden.put("Seed", { apiVersion: "core.gardener.cloud/v1beta1", kind: "Seed", metadata: { name }, spec: {} });
});

afterAll(() => garden?.close());

const kubeConfig = () => {
  const kc = new KubeConfig();
  kc.loadFromFile(garden.writeKubeconfig());
  return kc;
};

async function until(check: () => boolean, what: string) {
  const deadline = Date.now() + 8_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function recorder(failOn?: (label: string) => boolean) {
  const seen = { lists: 0, labels: [] as string[], failures: 0 };
  // A list has its snapshot once it ended: a change made after listStarted may still be in it.
  let listsEnded = 0;
  const failedOnce = new Set<string>();
  const handlers: ListWatchHandlers = {
    async listStarted() {
      seen.lists++;
    },
    async listPage() {},
    async listEnded() {
      listsEnded++;
    },
    // A batch is one transaction: it fails whole, and nothing of it counts.
    async apply(events) {
      const labels: string[] = [];
      for (const { object } of events as readonly { object: GardenObject }[]) {
        const label = object.metadata.labels?.step;
        if (label && failOn?.(label) && !failedOnce.has(label)) {
          failedOnce.add(label);
          seen.failures++;
          throw new Error("the database is down");
        }
        if (label) labels.push(label);
      }
      seen.labels.push(...labels);
    },
    async reached() {},
  };
  return { seen, handlers, listsEnded: () => listsEnded };
}

const step = (name: string, label: string) =>
  garden.update("Seed", undefined, name, (s) => {
    s.metadata.labels = { step: label };
  });

test("a handler that fails mid-watch gets the same event again, and nothing twice, without a list", async () => {
  const abort = new AbortController();
  const { seen, handlers } = recorder((label) => label === "2");
  let synced = false;
  const running = listWatch(
    {
      kubeConfig: kubeConfig(),
      plural: "seeds",
      signal: abort.signal,
      log: () => {},
      backoff: { initialMs: 20, maxMs: 50 },
    },
    handlers,
    () => (synced = true),
  );
  await until(() => synced, "the first list");
  step("a", "1");
  step("b", "2");
  step("a", "3");
  await until(() => seen.labels.length === 3, "three events handled");
  abort.abort();
  await running;
  expect(seen).toEqual({ lists: 1, labels: ["1", "2", "3"], failures: 1 });
});

test("a watch the garden no longer has the events for lists again", async () => {
  const abort = new AbortController();
  const { seen, handlers, listsEnded } = recorder();
  const old = garden.resourceVersion();
  step("a", "4");
  garden.compact();
  const running = listWatch(
    {
      kubeConfig: kubeConfig(),
      plural: "seeds",
      resumeFrom: old,
      signal: abort.signal,
      log: () => {},
      backoff: { initialMs: 20, maxMs: 50 },
    },
    handlers,
  );
  await until(() => listsEnded() === 1, "a list after 410 Gone");
  step("b", "5");
  await until(() => seen.labels.includes("5"), "the watch after the list");
  abort.abort();
  await running;
  expect(seen.labels).toEqual(["5"]);
});

test("a list hands each page over as it arrives, at most one page ahead, without managedFields", async () => {
  const big = await startStandInGarden({ bookmarkIntervalMs: 100, managedFieldsBytes: 12_000 });
  try {
    for (const name of ["p1", "p2", "p3", "p4", "p5"])
      big.put("Seed", { apiVersion: "core.gardener.cloud/v1beta1", kind: "Seed", metadata: { name }, spec: {} });
    expect(JSON.stringify(big.get("Seed", undefined, "p1")).length).toBeGreaterThan(12_000);
    const kc = new KubeConfig();
    kc.loadFromFile(big.writeKubeconfig());
    const listRequests = () => big.requests.filter((r) => r.path.endsWith("/seeds") && !r.query.watch).length;
    const pages: { size: number; listRequestsSoFar: number }[] = [];
    const kept: GardenObject[] = [];
    const abort = new AbortController();
    let ended = false;
    const running = listWatch(
      { kubeConfig: kc, plural: "seeds", signal: abort.signal, log: () => {}, pageSize: 2 },
      {
        async listStarted() {},
        async listPage(items) {
          pages.push({ size: items.length, listRequestsSoFar: listRequests() });
          kept.push(...items);
        },
        async listEnded() {
          ended = true;
        },
        async apply(events) {
          kept.push(...events.map((e) => e.object));
        },
        async reached() {},
      },
    );
    await until(() => ended, "the list");
    big.update("Seed", undefined, "p1", (s) => {
      s.metadata.labels = { step: "watched" };
    });
    await until(() => kept.some((o) => o.metadata.labels?.step === "watched"), "the watch event");
    abort.abort();
    await running;
    // The next page is asked for while one is written, never more.
    expect(pages.map((p) => p.size)).toEqual([2, 2, 1]);
    pages.forEach((p, i) => expect(p.listRequestsSoFar).toBeLessThanOrEqual(i + 2));
    expect(kept.filter((o) => o.metadata.managedFields !== undefined)).toEqual([]);
  } finally {
    await big.close();
  }
});

test("events that come while a batch is written are written together, in order, up to the batch size", async () => {
  const abort = new AbortController();
  const batches: string[][] = [];
  let release: () => void = () => {};
  const held = new Promise<void>((r) => (release = r));
  let listed = false;
  const running = listWatch(
    { kubeConfig: kubeConfig(), plural: "seeds", signal: abort.signal, log: () => {}, batchSize: 5 },
    {
      async listStarted() {},
      async listPage() {},
      async listEnded() {
        listed = true;
      },
      async apply(events) {
        // The first batch is slow (the database is busy): what comes meanwhile waits in the queue.
        if (batches.length === 0) await held;
        batches.push(events.map((e) => e.object.metadata.labels?.step));
      },
      async reached() {},
    },
  );
  await until(() => listed, "the list");
  const steps = Array.from({ length: 21 }, (_, i) => `burst-${i}`);
  for (const label of steps) step(label.endsWith("0") || Number(label.slice(6)) % 2 === 0 ? "a" : "b", label);
  await new Promise((r) => setTimeout(r, 300));
  release();
  await until(() => batches.flat().length === steps.length, "every event written");
  abort.abort();
  await running;
  expect(batches.flat()).toEqual(steps);
  expect(Math.max(...batches.map((b) => b.length))).toBe(5);
  expect(batches.length).toBeLessThan(steps.length);
});
