// The simulated gardenlet behind a real queue and worker: a spec change is followed by a Reconcile
// whose progress rises to Succeeded; faults with Gardener codes end in Error (retried by itself)
// or Failed (until a user retries; rate limits until the controller-manager's retry controller
// does, Gardener's pkg/controllermanager/controller/shoot/retry); `reconcile` acts through the
// generation (gardener-apiserver's strategy.go); confineSpecUpdateRollout holds changes for the
// window without raising the generation; the tasks annotation is gone once the reconcile is done.
import { shootPatchSchema } from "../../lib/api/shoot-patch.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { onChange, revision } from "../../lib/db/change-feed.ts";
import { crc32 } from "../../lib/engine/crc32.ts";
import { drawFault } from "../../lib/engine/reconcile-simulation.ts";
import type { Shoot } from "../../lib/gardener/types.ts";
import { type PgBoss, QUEUES, startQueue } from "../../lib/jobs/queue.ts";
import { requestMaintainNow } from "../../lib/server/maintain-now.ts";
import { maintenancePlan } from "../../lib/server/maintenance-plan.ts";
import { seedLandscape } from "../../lib/server/seed-landscape.ts";
import { updateShootFromPatch } from "../../lib/server/update-shoot.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { FAST, startTestWorker, unfinishedJobs, waitUntil } from "../support/jobs.ts";
import { smallLandscape } from "../support/small-landscape.ts";
import { embeddedShootWrites } from "../../lib/garden/embedded/embedded-shoot-writes.ts";

const FAULT_RATE = 0.5;
const config = {
  ...FAST,
  gardenlet: true,
  faultRate: FAULT_RATE,
  reconcileStepMs: 150,
  reconcileRetryMs: 400,
  conditionThresholdMs: 1_200,
};
let database: TestDatabase;
let client: PgBoss;
let workerBoss: PgBoss;

/**
 * A uid whose first attempt at generation 2 draws the wanted fault kind, and whose next attempt
 * none: the gardenlet's own retry of an Error is the second attempt at generation 2; a retry of
 * a Failed shoot (by a user or the retry controller) raises the generation, so it is the first
 * attempt at generation 3.
 */
const usedUids = new Set<string>();
function uidFor(kind: "none" | "retryable" | "failing" | "rateLimited"): string {
  for (let i = 0; ; i++) {
    const uid = `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`;
    if (usedUids.has(uid)) continue;
    const first = drawFault(config.faultSeed, uid, 2, 1, FAULT_RATE);
    if (drawFault(config.faultSeed, uid, 2, 2, FAULT_RATE) || drawFault(config.faultSeed, uid, 3, 1, FAULT_RATE))
      continue;
    if (
      (kind === "none" && !first) ||
      (kind === "retryable" && first?.retryable) ||
      (kind === "failing" && first && !first.retryable && first.code !== "ERR_INFRA_RATE_LIMITS_EXCEEDED") ||
      (kind === "rateLimited" && first?.code === "ERR_INFRA_RATE_LIMITS_EXCEEDED")
    ) {
      usedUids.add(uid);
      return uid;
    }
  }
}

/** A uid without faults at generations 2 and 3, whose demo inventory has no problematic webhook. */
function sleeperUid(): string {
  for (let i = 0; ; i++) {
    const uid = `00000000-0000-4000-9000-${String(i).padStart(12, "0")}`;
    const clean = [2, 3].every((generation) => !drawFault(config.faultSeed, uid, generation, 1, FAULT_RATE));
    if (clean && crc32(`inventory|${uid}`) % 8 >= 2) return uid;
  }
}

beforeAll(async () => {
  database = await createTestDatabase();
  const now = Date.now();
  const landscape = smallLandscape(now, 7);
  const kinds = ["none", "retryable", "failing", "none", "none", "none", "rateLimited"] as const;
  const checks = [
    "APIServerAvailable",
    "ControlPlaneHealthy",
    "ObservabilityComponentsHealthy",
    "EveryNodeReady",
    "SystemComponentsHealthy",
  ];
  landscape.shoots.forEach((s, i) => {
    s.metadata = { ...s.metadata, uid: i === 5 ? sleeperUid() : uidFor(kinds[i]), generation: 1 };
    s.status = {
      ...s.status,
      observedGeneration: 1,
      conditions: checks.map((type) => ({
        type,
        status: "True",
        reason: "Healthy",
        lastTransitionTime: new Date(now - 86_400_000).toISOString(),
      })),
    };
  });
  client = await startQueue(database.url, { expireSeconds: FAST.jobExpireSeconds, supervise: false });
  await seedLandscape(database.db, landscape, { actor: "test", now, boss: client });
  workerBoss = await startTestWorker(database.url, database.db, config);
});

afterAll(async () => {
  await workerBoss?.stop({ graceful: false });
  await client?.stop({ graceful: false });
  await database?.drop();
});

const read = async (name: string) =>
  database.db.shoot.findUniqueOrThrow({ where: { namespace_name: { namespace: "garden-dev", name } } }).then((row) => ({
    status: row.status as Shoot["status"],
    metadata: row.metadata as Shoot["metadata"],
    spec: row.spec as Shoot["spec"],
    label: row.statusLabel,
  }));

const patch = (name: string, body: unknown) =>
  updateShootFromPatch(
    embeddedShootWrites(database.db, () => client),
    {
      namespace: "garden-dev",
      name,
      body: shootPatchSchema.parse(body),
      ifMatch: null,
      actor: "alice",
      requestId: `r-${name}`,
      identity: { kind: "almanac" as const },
      now: Date.now(),
    },
  );

/** Samples the shoot's status until `done` holds. */
async function follow(name: string, done: (s: Awaited<ReturnType<typeof read>>) => boolean, timeoutMs = 15_000) {
  const samples: Awaited<ReturnType<typeof read>>[] = [];
  await waitUntil(
    `${name} to settle`,
    async () => {
      const s = await read(name);
      samples.push(s);
      return done(s);
    },
    timeoutMs,
  );
  return samples;
}

describe("the simulated gardenlet", () => {
  it("reconciles after a spec change: Processing with rising progress, checks through Progressing, then Succeeded", async () => {
    await patch("cluster-0", { spec: { maintenance: { autoUpdate: { kubernetesVersion: true } } } });
    const samples = await follow(
      "cluster-0",
      (s) => s.status?.lastOperation?.state === "Succeeded" && s.status.observedGeneration === 2,
    );
    const progress = samples
      .map((s) => s.status?.lastOperation)
      .filter((o) => o?.state === "Processing")
      .map((o) => o!.progress!);
    expect(progress.length).toBeGreaterThan(2);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(
      samples.some((s) => s.status?.conditions?.some((c) => c.type === "EveryNodeReady" && c.status === "Progressing")),
    ).toBe(true);
    expect(samples.some((s) => s.label === "progressing")).toBe(true);
    const last = samples.at(-1)!;
    expect(last.status?.lastOperation).toMatchObject({ type: "Reconcile", state: "Succeeded", progress: 100 });
    expect(last.status?.conditions?.every((c) => c.status === "True")).toBe(true);
    expect(last.label).toBe("healthy");
    // Its steps ran as jobs of the reconcile queue, which the tests below look into for "nothing left to run".
    expect(
      (await client.findJobs(QUEUES.reconcile, { data: { namespace: "garden-dev", name: "cluster-0" } })).length,
    ).toBeGreaterThanOrEqual(5);
  });

  it("retries a retryable error by itself", async () => {
    await patch("cluster-1", { spec: { maintenance: { autoUpdate: { kubernetesVersion: true } } } });
    const samples = await follow(
      "cluster-1",
      (s) => s.status?.lastOperation?.state === "Succeeded" && s.status.observedGeneration === 2,
    );
    const error = samples.find((s) => s.status?.lastOperation?.state === "Error");
    expect(error, "an Error state on the way").toBeDefined();
    expect(
      error!.status?.lastErrors?.[0].codes?.some((c) =>
        ["ERR_RETRYABLE_INFRA_DEPENDENCIES", "ERR_INFRA_RESOURCES_DEPLETED"].includes(c),
      ),
    ).toBe(true);
    expect(error!.status?.lastOperation?.description).toMatch(/\] Operation will be retried\.$/);
    expect(samples.at(-1)!.status?.lastErrors).toBeUndefined();
  });

  it("leaves a non-retryable error Failed, its check False after the threshold, until a user retries", async () => {
    await patch("cluster-2", { spec: { maintenance: { autoUpdate: { kubernetesVersion: true } } } });
    const samples = await follow("cluster-2", (s) => s.status?.conditions?.some((c) => c.status === "False") ?? false);
    const failed = samples.at(-1)!;
    expect(failed.status?.lastOperation?.state).toBe("Failed");
    expect(failed.status?.lastErrors?.[0].codes?.[0]).toMatch(
      /^ERR_(INFRA_QUOTA_EXCEEDED|CONFIGURATION_PROBLEM|INFRA_UNAUTHORIZED)$/,
    );
    expect(failed.status?.lastOperation?.description).not.toMatch(/Operation will be retried/);
    expect(failed.label).toBe("unhealthy");
    // The check showed Progressing first.
    expect(
      samples.some((s) =>
        s.status?.conditions?.some((c) => c.status === "Progressing" && c.reason === "HealthCheckFailing"),
      ),
    ).toBe(true);
    // Nothing happens by itself: the gardenlet has no step of cluster-2 left to run, and still it is Failed.
    await waitUntil(
      "cluster-2's reconcile jobs to finish",
      async () =>
        (await unfinishedJobs(client, QUEUES.reconcile, { namespace: "garden-dev", name: "cluster-2" })).length === 0,
    );
    expect((await read("cluster-2")).status?.lastOperation?.state).toBe("Failed");
    // `reconcile` does not act on a Failed shoot: it stays, the generation does not move, nothing runs.
    await patch("cluster-2", { metadata: { annotations: { "gardener.cloud/operation": "reconcile" } } });
    const ignored = await read("cluster-2");
    expect(ignored.metadata.annotations?.["gardener.cloud/operation"]).toBe("reconcile");
    expect(ignored.metadata.generation).toBe(2);
    expect(await unfinishedJobs(client, QUEUES.reconcile, { namespace: "garden-dev", name: "cluster-2" })).toEqual([]);
    // gardener.cloud/operation=retry raises the generation and is consumed: the new attempt succeeds.
    await patch("cluster-2", { metadata: { annotations: { "gardener.cloud/operation": "retry" } } });
    const retried = await follow(
      "cluster-2",
      (s) => s.status?.lastOperation?.state === "Succeeded" && s.status.observedGeneration === 3,
    );
    expect(retried.at(-1)!.metadata.annotations?.["gardener.cloud/operation"]).toBeUndefined();
    expect(retried.at(-1)!.metadata.generation).toBe(3);
    expect(retried.at(-1)!.label).toBe("healthy");
  });

  it("fails on rate limits at once, and the retry controller retries after the retry period", async () => {
    await patch("cluster-6", { spec: { maintenance: { autoUpdate: { kubernetesVersion: true } } } });
    const samples = await follow(
      "cluster-6",
      (s) => s.status?.lastOperation?.state === "Succeeded" && s.status.observedGeneration === 3,
    );
    const failed = samples.find((s) => s.status?.lastOperation?.state === "Failed");
    expect(failed, "Failed on the way").toBeDefined();
    expect(failed!.status?.lastErrors?.[0].codes).toEqual(["ERR_INFRA_RATE_LIMITS_EXCEEDED"]);
    expect(samples.some((s) => s.status?.lastOperation?.state === "Error")).toBe(false);
    const retry = await database.db.auditEvent.findFirstOrThrow({
      where: { targetName: "cluster-6", action: "shoot.retry" },
    });
    expect(retry.actor).toBe("system:gardener-controller-manager");
    // Not before the retry period had passed since it failed.
    const failedAt = Date.parse(failed!.status!.lastOperation!.lastUpdateTime!);
    expect(retry.at.getTime()).toBeGreaterThan(failedAt + config.shootRetryPeriodMs);
    expect(samples.at(-1)!.metadata.annotations?.["gardener.cloud/operation"]).toBeUndefined();
  });

  it("reconciles on `reconcile`, holds a change for the window with confineSpecUpdateRollout, and rolls it out with maintenance", async () => {
    // `reconcile` on a shoot whose last operation succeeded: consumed, the generation raised.
    await patch("cluster-3", { metadata: { annotations: { "gardener.cloud/operation": "reconcile" } } });
    const reconciled = await follow(
      "cluster-3",
      (s) => s.status?.lastOperation?.state === "Succeeded" && s.status.observedGeneration === 2,
    );
    expect(reconciled.at(-1)!.metadata.annotations?.["gardener.cloud/operation"]).toBeUndefined();
    const before = await read("cluster-3");
    await patch("cluster-3", {
      spec: { kubernetes: { version: "1.31.4" }, maintenance: { confineSpecUpdateRollout: true } },
    });
    // The generation does not move (strategy.go), so no reconcile was queued and nothing rolls the
    // change out before the window.
    expect(await unfinishedJobs(client, QUEUES.reconcile, { namespace: "garden-dev", name: "cluster-3" })).toEqual([]);
    const held = await read("cluster-3");
    expect(held.status?.lastOperation).toEqual(before.status?.lastOperation);
    expect(held.metadata.generation).toBe(2);
    expect(held.status?.observedGeneration).toBe(2);
    const pending = async () =>
      JSON.parse(
        (
          await database.db.shoot.findUniqueOrThrow({
            where: { namespace_name: { namespace: "garden-dev", name: "cluster-3" } },
          })
        ).listing,
      ).rolloutPending;
    expect(await pending()).toBe(true);
    // What runs stays what the last reconcile rolled out, in the row's record, its listing and
    // the maintenance plan; the asked version is the window's change.
    const running = async () =>
      (
        await database.db.shoot.findUniqueOrThrow({
          where: { namespace_name: { namespace: "garden-dev", name: "cluster-3" } },
        })
      ).runningVersions as { kubernetesVersion: string; since: string } | null;
    const ranBefore = before.spec.kubernetes.version;
    expect(await running()).toMatchObject({
      kubernetesVersion: ranBefore,
      since: before.status?.lastOperation?.lastUpdateTime,
    });
    const listed = JSON.parse(
      (
        await database.db.shoot.findUniqueOrThrow({
          where: { namespace_name: { namespace: "garden-dev", name: "cluster-3" } },
        })
      ).listing,
    );
    expect(listed.kubernetes.version).toBe("1.31.4");
    expect(listed.rollout).toEqual({
      runningSince: before.status?.lastOperation?.lastUpdateTime,
      when: "window",
      changes: [
        { target: "controlPlane", kind: "kubernetes", subject: "Kubernetes", running: ranBefore, asked: "1.31.4" },
      ],
    });
    const plan = await maintenancePlan(database.db, "garden-dev", "cluster-3", Date.now());
    expect(plan.rollout?.changes.map((c) => [c.running, c.asked])).toEqual([[ranBefore, "1.31.4"]]);
    expect(plan.summary).toContain(`rolls out Kubernetes ${ranBefore} -> 1.31.4 (control plane)`);
    // The maintenance run (here: maintain now) sets `reconcile` and its tasks; the strategy raises
    // the generation, the reconcile rolls the change out and removes the tasks one by one.
    await requestMaintainNow(
      embeddedShootWrites(database.db, () => client),
      {
        namespace: "garden-dev",
        name: "cluster-3",
        actor: "alice",
        requestId: "r",
        identity: { kind: "almanac" as const },
        now: Date.now(),
      },
    );
    const rolled = await follow(
      "cluster-3",
      (s) => s.status?.lastOperation?.state === "Succeeded" && s.status.observedGeneration === 3,
    );
    expect(rolled.some((s) => s.metadata.annotations?.["shoot.gardener.cloud/tasks"])).toBe(true);
    expect(rolled.at(-1)!.metadata.annotations?.["shoot.gardener.cloud/tasks"]).toBeUndefined();
    expect(rolled.at(-1)!.metadata.annotations?.["gardener.cloud/operation"]).toBeUndefined();
    expect(await pending()).toBe(false);
    expect(await running()).toMatchObject({
      kubernetesVersion: "1.31.4",
      since: rolled.at(-1)!.status?.lastOperation?.lastUpdateTime,
    });
    expect((await maintenancePlan(database.db, "garden-dev", "cluster-3", Date.now())).rollout).toBeNull();
  });

  it("tells listeners which shoots changed", async () => {
    revision(database.url);
    await waitUntil("the change feed", async () => revision(database.url) !== undefined);
    const seen: string[] = [];
    const off = onChange((c) => c.name && seen.push(c.name));
    try {
      await patch("cluster-4", { spec: { maintenance: { autoUpdate: { kubernetesVersion: true } } } });
      await waitUntil(
        "notifications of cluster-4's reconcile",
        async () => seen.filter((n) => n === "cluster-4").length >= 3,
      );
    } finally {
      off();
    }
  });
  it("hibernates: after the reconcile the constraints are not checked (Gardener shootHibernatedConstraints), and waking up checks them again", async () => {
    await patch("cluster-5", { spec: { hibernation: { enabled: true } } });
    const asleep = await follow(
      "cluster-5",
      (s) => s.status?.lastOperation?.state === "Succeeded" && s.status.observedGeneration === 2,
    );
    const slept = asleep.at(-1)!;
    expect(slept.status?.hibernated).toBe(true);
    expect(slept.status?.constraints?.map((c) => [c.type, c.status, c.reason])).toEqual([
      ["HibernationPossible", "True", "ConstraintNotChecked"],
      ["MaintenancePreconditionsSatisfied", "True", "ConstraintNotChecked"],
      ["CACertificateValiditiesAcceptable", "True", "ConstraintNotChecked"],
      ["CRDsWithProblematicConversionWebhooks", "True", "ConstraintNotChecked"],
    ]);
    await patch("cluster-5", { spec: { hibernation: { enabled: false } } });
    const awake = await follow(
      "cluster-5",
      (s) => s.status?.lastOperation?.state === "Succeeded" && s.status.observedGeneration === 3,
    );
    expect(awake.at(-1)!.status?.hibernated).toBe(false);
    expect(awake.at(-1)!.status?.constraints?.find((c) => c.type === "HibernationPossible")).toMatchObject({
      status: "True",
      reason: "NoProblematicWebhooks",
    });
  });
});
