// Backpressure of the watch (lib/garden/kubernetes/list-watch.ts): while the handler is behind,
// the watch response is not read, so the garden's events wait on the garden's side (in its
// socket's buffer, then in the stand-in's write buffer) instead of in Almanac's memory; once the
// handler catches up, every event arrives, in order, none lost.
import { KubeConfig } from "@kubernetes/client-node";
import { afterAll, beforeAll, expect, test } from "vitest";
import { type GardenObject, type ListWatchHandlers, listWatch } from "../../lib/garden/kubernetes/list-watch.ts";
import { eventually } from "../support/garden-landscape.ts";
import { type StandInGarden, startStandInGarden } from "../support/stand-in-garden.ts";

let garden: StandInGarden;

// Each event carries ~16 KB (as a real shoot with its managedFields): 1,500 events are ~24 MB,
// more than the sockets between the two sides hold.
const EVENTS = 1_500;
const BATCH = 10;
const PADDING = "x".repeat(16_000);

beforeAll(async () => {
  garden = await startStandInGarden({ bookmarkIntervalMs: 60_000 });
  garden.put("Seed", { apiVersion: "core.gardener.cloud/v1beta1", kind: "Seed", metadata: { name: "s" }, spec: {} });
});

afterAll(() => garden?.close());

test("a handler that is behind stops the watch being read, and then gets every event in order", async () => {
  const kc = new KubeConfig();
  kc.loadFromFile(garden.writeKubeconfig());
  const steps: number[] = [];
  let inHandler = 0;
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const handlers: ListWatchHandlers = {
    async listStarted() {},
    async listPage() {},
    async listEnded() {},
    async apply(events) {
      inHandler += events.length;
      await gate; // the database is slow
      for (const { object } of events as readonly { object: GardenObject }[])
        steps.push(Number(object.metadata.labels.step));
    },
    async reached() {},
  };
  const abort = new AbortController();
  let synced = false;
  const running = listWatch(
    { kubeConfig: kc, plural: "seeds", signal: abort.signal, log: () => {}, batchSize: BATCH },
    handlers,
    () => (synced = true),
  );
  try {
    await eventually(
      () => synced && garden.openWatches() === 1,
      (ok) => ok,
    );
    for (let n = 1; n <= EVENTS; n++)
      garden.update("Seed", undefined, "s", (s) => {
        s.metadata.labels = { step: String(n) };
        s.metadata.annotations = { padding: PADDING };
      });
    // The first batch (what had come, up to BATCH) reaches the handler, which waits.
    const first = await eventually(
      () => inHandler,
      (n) => n > 0,
    );
    expect(first).toBeLessThanOrEqual(BATCH);
    // Meanwhile the rest stays on the garden's side: the stand-in cannot hand most of it to the
    // socket, because nobody reads the other end (the reader takes at most two batches more).
    await new Promise((r) => setTimeout(r, 500));
    expect(inHandler).toBe(first);
    expect(garden.watchBacklogBytes()).toBeGreaterThan(8 * 2 ** 20);

    open();
    await eventually(
      () => steps.length,
      (n) => n === EVENTS,
      30_000,
    );
    expect(steps).toEqual(Array.from({ length: EVENTS }, (_, i) => i + 1));
    expect(garden.watchBacklogBytes()).toBe(0);
  } finally {
    open();
    abort.abort();
    await running;
  }
});

test("a stop while the watch waits for room ends it once the batch in hand is written", async () => {
  const kc = new KubeConfig();
  kc.loadFromFile(garden.writeKubeconfig());
  let inHandler = 0;
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const handlers: ListWatchHandlers = {
    async listStarted() {},
    async listPage() {},
    async listEnded() {},
    async apply(events) {
      inHandler += events.length;
      await gate;
    },
    async reached() {},
  };
  const abort = new AbortController();
  let synced = false;
  const running = listWatch(
    { kubeConfig: kc, plural: "seeds", signal: abort.signal, log: () => {}, batchSize: BATCH },
    handlers,
    () => (synced = true),
  );
  let ended = false;
  void running.then(() => (ended = true));
  await eventually(
    () => synced && garden.openWatches() === 1,
    (ok) => ok,
  );
  for (let n = 1; n <= 200; n++)
    garden.update("Seed", undefined, "s", (s) => {
      s.metadata.annotations = { padding: PADDING, n: String(n) };
    });
  await eventually(
    () => inHandler,
    (n) => n > 0,
  );
  await new Promise((r) => setTimeout(r, 300)); // the reader has filled the queue and waits
  abort.abort();
  open();
  await eventually(
    () => ended,
    (done) => done,
  );
  expect(garden.openWatches()).toBe(0);
});
