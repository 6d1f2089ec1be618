// The simulated gardenlet rolls worker nodes at step 3 of a reconcile, behind a real queue and
// worker: a pool's new machine image rolls through (old and new nodes listed side by side while it
// does), a node-critical component that never becomes ready holds the roll and ends the attempt in
// Error naming the node and the component, an in-place pool keeps its node names, and a change held
// for the window mid-roll does not redirect the roll, and a migration mid-roll finishes it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ShootNodesAnswer } from "../../lib/api/nodes.ts";
import { shootPatchSchema } from "../../lib/api/shoot-patch.ts";
import { CRITICAL_COMPONENTS_NOT_READY_TAINT } from "../../lib/engine/node-readiness.ts";
import type { Shoot } from "../../lib/gardener/types.ts";
import { embeddedShootNodes } from "../../lib/garden/embedded/embedded-shoot-nodes.ts";
import { embeddedShootWrites } from "../../lib/garden/embedded/embedded-shoot-writes.ts";
import { type PgBoss, startQueue } from "../../lib/jobs/queue.ts";
import { readShootNodes } from "../../lib/server/shoot-nodes.ts";
import { seedLandscape } from "../../lib/server/seed-landscape.ts";
import { startShootMigration } from "../../lib/server/start-migration.ts";
import { updateShootFromPatch } from "../../lib/server/update-shoot.ts";
import { seed, worker } from "../support/builders.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { FAST, startTestWorker, waitUntil } from "../support/jobs.ts";
import { smallLandscape } from "../support/small-landscape.ts";

const OLD_IMAGE = "1592.4.0";
const NEW_IMAGE = "1877.2.0";
const config = {
  ...FAST,
  gardenlet: true,
  reconcileStepMs: 100,
  // Ticks slow enough to see a roll under way, a hold that ends the attempt soon.
  nodeRollStepMs: 150,
  nodeRollHoldTimeoutMs: 1_500,
  reconcileRetryMs: 60_000,
};

let database: TestDatabase;
let client: PgBoss;
let workerBoss: PgBoss;

beforeAll(async () => {
  database = await createTestDatabase();
  const now = Date.now();
  const landscape = smallLandscape(now, 5);
  landscape.seeds = [seed("seed-1"), seed("seed-2")];
  const pool = (name: string, extra = {}) =>
    worker(name, "gardenlinux", OLD_IMAGE, { minimum: 2, maximum: 4, zones: ["eu-west-1a", "eu-west-1b"], ...extra });
  landscape.shoots.forEach((s, i) => {
    const inPlace = i === 2 ? { updateStrategy: "AutoInPlaceUpdate", maxSurge: 0, maxUnavailable: 1 } : {};
    s.spec = { ...s.spec, provider: { ...s.spec.provider!, workers: [pool("pool-a", inPlace)] } };
    s.status = {
      ...s.status,
      technicalID: `shoot--dev--${s.metadata.name}`,
      conditions: ["APIServerAvailable", "ControlPlaneHealthy", "EveryNodeReady", "SystemComponentsHealthy"].map(
        (type) => ({
          type,
          status: "True",
          reason: "Healthy",
          lastTransitionTime: new Date(now - 86_400_000).toISOString(),
        }),
      ),
      // A dated success: the record of what runs (running-versions.ts) is the spec's.
      lastOperation: {
        type: "Reconcile",
        state: "Succeeded",
        progress: 100,
        lastUpdateTime: new Date(now - 3_600_000).toISOString(),
      },
    };
  });
  client = await startQueue(database.url, { expireSeconds: FAST.jobExpireSeconds, supervise: false });
  await seedLandscape(database.db, landscape, { actor: "test", now, boss: client });
  // cluster-1's CNI node agent crash-loops on every new node.
  await database.db.$executeRaw`
    UPDATE shoot_inventories SET document = document || '{"criticalComponentFault": {"component": "cni"}}'::jsonb
    WHERE namespace = 'garden-dev' AND name = 'cluster-1'`;
  workerBoss = await startTestWorker(database.url, database.db, config);
});

afterAll(async () => {
  await workerBoss?.stop({ graceful: false });
  await client?.stop({ graceful: false });
  await database?.drop();
});

const nodesOf = (name: string) =>
  readShootNodes(embeddedShootNodes(database.db), {
    namespace: "garden-dev",
    name,
    actor: "alice",
    requestId: `n-${name}`,
    identity: { kind: "almanac" },
    throughViewerKubeconfig: false,
    now: Date.now(),
  });

const shootOf = async (name: string) =>
  (await database.db.shoot.findUniqueOrThrow({ where: { namespace_name: { namespace: "garden-dev", name } } }))
    .status as Shoot["status"];

const newImage = (name: string) =>
  updateShootFromPatch(
    embeddedShootWrites(database.db, () => client),
    {
      namespace: "garden-dev",
      name,
      body: shootPatchSchema.parse({
        spec: { provider: { workers: [{ name: "pool-a", machine: { image: { version: NEW_IMAGE } } }] } },
      }),
      ifMatch: null,
      actor: "alice",
      requestId: `r-${name}`,
      identity: { kind: "almanac" as const },
      now: Date.now(),
    },
  );

/** A done-predicate: the reconcile the change started has run (Processing seen) and succeeded. */
function reconciled() {
  let processing = false;
  return (_: ShootNodesAnswer, status: Shoot["status"]) => {
    processing ||= status?.lastOperation?.state === "Processing";
    return processing && status?.lastOperation?.state === "Succeeded";
  };
}

/** Samples the nodes answer (and the shoot's status) until `done` holds. */
async function watch(
  name: string,
  done: (answer: ShootNodesAnswer, status: Shoot["status"]) => boolean,
  timeoutMs = 30_000,
) {
  const samples: { answer: ShootNodesAnswer; status: Shoot["status"] }[] = [];
  await waitUntil(
    `${name}'s nodes`,
    async () => {
      const sample = { answer: await nodesOf(name), status: await shootOf(name) };
      samples.push(sample);
      return done(sample.answer, sample.status);
    },
    timeoutMs,
  );
  return samples;
}

describe("the simulated roll of worker nodes", () => {
  it("rolls a pool's new machine image through, listing old and new nodes while it does", async () => {
    const before = await nodesOf("cluster-0");
    expect(before.items.map((n) => n.image.version)).toEqual([OLD_IMAGE, OLD_IMAGE]);
    expect(before.pools).toEqual([
      expect.objectContaining({
        pool: "pool-a",
        state: "Stable",
        updated: 2,
        desired: 2,
        maxSurge: "1",
        maxUnavailable: "0",
      }),
    ]);

    await newImage("cluster-0");
    const samples = await watch("cluster-0", reconciled());

    const midRoll = samples.find(
      (s) =>
        s.answer.items.some((n) => n.image.version === OLD_IMAGE) &&
        s.answer.items.some((n) => n.image.version === NEW_IMAGE),
    );
    expect(midRoll).toBeDefined();
    expect(midRoll!.answer.pools[0].state).toBe("Rolling");
    // Never more than desired + maxSurge nodes.
    for (const s of samples) expect(s.answer.items.length).toBeLessThanOrEqual(3);
    // A new node joins with the critical-components taint, and says what it waits for.
    const joining = samples.flatMap((s) => s.answer.items).find((n) => n.state === "Joining");
    expect(joining?.taints).toContainEqual({ key: CRITICAL_COMPONENTS_NOT_READY_TAINT, effect: "NoSchedule" });

    // The progress moves between 70 and 90 during the roll; EveryNodeReady names the pool.
    const rolling = samples
      .map((s) => s.status?.lastOperation)
      .filter((o) => o?.description === "Reconciling shoot worker nodes");
    expect(rolling.every((o) => o!.progress! >= 70 && o!.progress! < 90)).toBe(true);
    expect(
      samples.some((s) =>
        s.status?.conditions?.some(
          (c) => c.type === "EveryNodeReady" && c.status === "Progressing" && c.message?.includes('"pool-a"'),
        ),
      ),
    ).toBe(true);

    const after = samples.at(-1)!.answer;
    expect(after.items).toHaveLength(2);
    expect(
      after.items.every((n) => n.image.version === NEW_IMAGE && n.state === "Ready" && n.taints.length === 0),
    ).toBe(true);
    expect(after.items.some((n) => before.items.some((b) => b.name === n.name))).toBe(false);
    expect(after.pools[0]).toMatchObject({ state: "Stable", updated: 2, target: { image: { version: NEW_IMAGE } } });
  });

  it("holds when a node-critical component never becomes ready, then ends the attempt in Error naming node and component", async () => {
    await newImage("cluster-1");
    const held = await watch("cluster-1", (answer) => answer.pools[0]?.state === "Held");
    const pool = held.at(-1)!.answer.pools[0];
    const waiting = held.at(-1)!.answer.items.find((n) => n.name === pool.heldBy?.node);
    expect(waiting).toMatchObject({ state: "Joining", image: { version: NEW_IMAGE } });
    expect(pool.heldBy?.waits).toEqual([
      expect.objectContaining({ kind: "Pod", namespace: "kube-system", reason: "CrashLoopBackOff" }),
    ]);
    const podName = pool.heldBy!.waits[0].name;
    expect(podName).toMatch(/^calico-node-/);
    // The old nodes keep serving.
    expect(held.at(-1)!.answer.items.filter((n) => n.image.version === OLD_IMAGE && n.state === "Ready")).toHaveLength(
      2,
    );

    const errored = await watch("cluster-1", (_, status) => status?.lastOperation?.state === "Error");
    const status = errored.at(-1)!.status!;
    expect(status.lastErrors?.[0]?.description).toContain(`node "${pool.heldBy!.node}"`);
    expect(status.lastErrors?.[0]?.description).toContain(`kube-system/${podName}: CrashLoopBackOff`);
    expect(status.lastErrors?.[0]?.taskID).toBe("Reconciling shoot worker nodes");
    const everyNodeReady = status.conditions?.find((c) => c.type === "EveryNodeReady");
    expect(everyNodeReady?.message).toContain(pool.heldBy!.node);
    // Still held: the roll does not go on by itself.
    expect((await nodesOf("cluster-1")).pools[0].state).toBe("Held");
  });

  it("updates an in-place pool without replacing its nodes", async () => {
    const before = await nodesOf("cluster-2");
    await newImage("cluster-2");
    const samples = await watch("cluster-2", reconciled());
    expect(samples.some((s) => s.answer.items.some((n) => n.state === "UpdatingInPlace"))).toBe(true);
    const after = samples.at(-1)!.answer;
    expect(after.items.map((n) => n.name)).toEqual(before.items.map((n) => n.name));
    expect(after.items.every((n) => n.image.version === NEW_IMAGE && n.state === "Ready")).toBe(true);
    expect(after.pools[0]).toMatchObject({ updateStrategy: "AutoInPlaceUpdate", state: "Stable" });
  });

  it("keeps rolling towards the targets it started with when a change held for the window comes mid-roll", async () => {
    await newImage("cluster-3");
    await watch(
      "cluster-3",
      (answer, status) =>
        status?.lastOperation?.state === "Processing" && answer.items.some((n) => n.image.version === NEW_IMAGE),
    );
    // Mid-roll: a Kubernetes patch version the pool's nodes would take where they are, held for the
    // window (the generation does not move, so no reconcile starts).
    await updateShootFromPatch(
      embeddedShootWrites(database.db, () => client),
      {
        namespace: "garden-dev",
        name: "cluster-3",
        body: shootPatchSchema.parse({
          spec: { kubernetes: { version: "1.31.4" }, maintenance: { confineSpecUpdateRollout: true } },
        }),
        ifMatch: null,
        actor: "alice",
        requestId: "r-held",
        identity: { kind: "almanac" as const },
        now: Date.now(),
      },
    );
    const samples = await watch("cluster-3", reconciled());
    expect(samples.at(-1)!.status?.lastOperation?.state).toBe("Succeeded");
    const after = samples.at(-1)!.answer;
    expect(after.items).toHaveLength(2);
    for (const node of after.items)
      expect(node).toMatchObject({ kubernetesVersion: "1.31.2", image: { version: NEW_IMAGE } });
    expect(samples.flatMap((s) => s.answer.items).some((n) => n.kubernetesVersion === "1.31.4")).toBe(false);
    expect(after.pools[0]).toMatchObject({ state: "Stable", target: { kubernetesVersion: "1.31.2" } });
    // What runs by the record is what the reconcile rolled out: the new image, the old Kubernetes.
    const row = await database.db.shoot.findUniqueOrThrow({
      where: { namespace_name: { namespace: "garden-dev", name: "cluster-3" } },
    });
    expect(row.runningVersions).toMatchObject({
      kubernetesVersion: "1.31.2",
      since: samples.at(-1)!.status?.lastOperation?.lastUpdateTime,
      workers: [{ name: "pool-a", image: { version: NEW_IMAGE } }],
    });
  });

  it("finishes a roll a control-plane migration interrupted once the migration succeeds", async () => {
    await newImage("cluster-4");
    await watch(
      "cluster-4",
      (answer, status) =>
        status?.lastOperation?.state === "Processing" && answer.items.some((n) => n.image.version === NEW_IMAGE),
    );
    await startShootMigration(
      embeddedShootWrites(database.db, () => client),
      {
        namespace: "garden-dev",
        name: "cluster-4",
        body: { seedName: "seed-2" },
        actor: "ops@example.com",
        requestId: "m-cluster-4",
        identity: { kind: "almanac" as const },
        now: Date.now(),
      },
    );
    const samples = await watch(
      "cluster-4",
      (_, status) => status?.lastOperation?.type === "Restore" && status.lastOperation.state === "Succeeded",
    );
    // The roll stood still while the migration ran, and stands finished after it (read again: a
    // sample takes the nodes just before the status).
    expect(samples.some((s) => s.answer.items.some((n) => n.state !== "Ready"))).toBe(true);
    const after = await nodesOf("cluster-4");
    expect(after.items).toHaveLength(2);
    for (const node of after.items) expect(node).toMatchObject({ state: "Ready", image: { version: NEW_IMAGE } });
    expect(after.pools[0]).toMatchObject({ state: "Stable", updated: 2 });
  });
});
