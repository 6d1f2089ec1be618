// Scheduled maintenance and "maintain now", with a real job queue and worker, on a real
// PostgreSQL: shoots are maintained at their moment in the window, exactly as the engine decides.
import { shootPatchSchema } from "../../lib/api/shoot-patch.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Landscape } from "../../lib/demo/landscape.ts";
import { findSchedule } from "../../lib/store/schedules.ts";
import type { Shoot } from "../../lib/gardener/types.ts";
import { type PgBoss, QUEUES, startQueue } from "../../lib/jobs/queue.ts";
import { requestMaintainNow } from "../../lib/server/maintain-now.ts";
import { enqueueMaintenance } from "../../lib/jobs/schedule-maintenance.ts";
import { seedLandscape } from "../../lib/server/seed-landscape.ts";
import { shoot as buildShoot, profile, worker } from "../support/builders.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { FAST, startTestWorker, uidAtWindowStart, unfinishedJobs, waitUntil, windowAt } from "../support/jobs.ts";
import { embeddedShootWrites } from "../../lib/garden/embedded/embedded-shoot-writes.ts";
import type { GardenAdmissionRule } from "../../lib/engine/garden-admission.ts";
import { updateShootFromPatch } from "../../lib/server/update-shoot.ts";
import { Refusal } from "../../lib/api/refusal.ts";
import { refusalAnswer } from "../../lib/http/refusal-answer.ts";

const DAY = 86_400_000;
// The garden's production freeze, as the demo landscape writes it for the shoots it blocked.
const FREEZE: GardenAdmissionRule = {
  webhook: "shoot-policy.platform.example.com",
  match: { shoots: ["garden-dev/frozen-due", "garden-dev/frozen-later"] },
  action: { type: "Deny", message: "changes to production shoots are frozen until the quarter closes" },
};
const REJECTED =
  'Updates to the Shoot failed to be applied: admission webhook "shoot-policy.platform.example.com" denied the request: changes to production shoots are frozen until the quarter closes';
const now = Date.now();
const dueAt = now + 5_000;
let database: TestDatabase;
let workerBoss: PgBoss;
let client: PgBoss;

function testShoot(
  name: string,
  version: string,
  window: { begin: string; end: string },
  autoKubernetes: boolean,
  uid: string,
): Shoot {
  const s = buildShoot(version, {
    workers: [worker("pool", "gardenlinux", "1592.4.0")],
    autoUpdate: { kubernetesVersion: autoKubernetes, machineImageVersion: false },
  });
  s.metadata = { ...s.metadata, name, namespace: "garden-dev", uid, generation: 1 };
  s.spec.maintenance = { ...s.spec.maintenance, timeWindow: window };
  s.status = { ...s.status, seedName: "seed-1" };
  return s;
}

/** A shoot whose control plane is moving to another seed (spec.seedName differs from status.seedName). */
function migratingShoot(s: Shoot): Shoot {
  s.spec.seedName = "seed-2";
  s.status = { ...s.status, seedName: "seed-1", lastOperation: { type: "Migrate", state: "Processing", progress: 30 } };
  return s;
}

/** A shoot whose machine image versions are updated automatically. */
function imageAutoUpdate(s: Shoot): Shoot {
  s.spec.maintenance = { ...s.spec.maintenance, autoUpdate: { kubernetesVersion: false, machineImageVersion: true } };
  return s;
}

function landscape(): Landscape {
  const iso = (ms: number) => new Date(ms).toISOString();
  const soon = windowAt(dueAt);
  const later = windowAt(now + 3 * 3_600_000);
  return {
    cloudProfiles: [
      profile(
        [
          { version: "1.30.1", expirationDate: iso(now - 10 * DAY) },
          { version: "1.30.5", classification: "supported" },
          { version: "1.31.2", classification: "supported" },
          { version: "1.31.4", classification: "supported" },
        ],
        [
          {
            name: "gardenlinux",
            updateStrategy: "minor",
            versions: [
              { version: "1592.4.0", classification: "supported", cri: [{ name: "containerd" }] },
              // Not available for another month: auto-update picks it, the API server refuses it.
              {
                version: "1592.5.0",
                lifecycle: [{ classification: "supported", startTime: iso(now + 30 * DAY) }],
                cri: [{ name: "containerd" }],
              },
            ],
          },
        ],
      ),
    ],
    seeds: [
      {
        metadata: { name: "seed-1" },
        spec: { provider: { type: "aws", region: "eu-west-1" } },
        status: { conditions: [{ type: "GardenletReady", status: "True" }] },
      },
    ],
    projects: [{ metadata: { name: "dev" }, spec: { namespace: "garden-dev" } }],
    shoots: [
      testShoot("expired-due", "1.30.1", soon, false, uidAtWindowStart()),
      testShoot("expired-later", "1.30.1", later, false, uidAtWindowStart()),
      testShoot("auto-on", "1.31.2", soon, true, uidAtWindowStart()),
      testShoot("auto-off", "1.31.2", soon, false, uidAtWindowStart()),
      testShoot("up-to-date", "1.31.4", later, true, uidAtWindowStart()),
      testShoot("missed", "1.30.1", windowAt(now - 2 * 3_600_000), false, uidAtWindowStart()),
      migratingShoot(testShoot("migrating", "1.30.1", soon, false, uidAtWindowStart())),
      testShoot("frozen-due", "1.30.1", soon, false, uidAtWindowStart()),
      testShoot("frozen-later", "1.30.1", later, false, uidAtWindowStart()),
      imageAutoUpdate(testShoot("image-not-yet", "1.31.4", soon, false, uidAtWindowStart())),
    ],
    maintenanceHistory: [],
    admissionRules: [FREEZE],
  };
}

const version = async (name: string) =>
  (
    (await database.db.shoot.findUniqueOrThrow({ where: { namespace_name: { namespace: "garden-dev", name } } }))
      .spec as Shoot["spec"]
  ).kubernetes.version;
const runs = (name: string) =>
  database.db.maintenanceRun.findMany({ where: { namespace: "garden-dev", name }, orderBy: { createdAt: "asc" } });

beforeAll(async () => {
  database = await createTestDatabase();
  client = await startQueue(database.url, { expireSeconds: FAST.jobExpireSeconds, supervise: false });
  await seedLandscape(database.db, landscape(), { actor: "test", now, boss: client });
  workerBoss = await startTestWorker(database.url, database.db);
});

afterAll(async () => {
  await workerBoss?.stop({ graceful: false });
  await client?.stop({ graceful: false });
  await database?.drop();
});

describe("scheduled maintenance", () => {
  it("places each shoot's run at its moment in the window", async () => {
    const schedule = await findSchedule(database.db, "garden-dev", "expired-due");
    expect(schedule!.dueAt.getTime()).toBe(Math.floor(dueAt / 1000) * 1000);
    const later = await findSchedule(database.db, "garden-dev", "expired-later");
    expect(later!.dueAt.getTime()).toBeGreaterThan(now + 3 * 3_600_000 - 1_000);
  });

  it("forces an expired version at the window and not before", async () => {
    // Not before the moment: the window's job may not start earlier, and the run records when it did.
    const moment = new Date(Math.floor(dueAt / 1000) * 1000);
    const jobs = await client.findJobs(QUEUES.maintenance, {
      data: { namespace: "garden-dev", name: "expired-due", dueAt: moment.toISOString() },
    });
    expect(jobs.map((j) => j.startAfter)).toEqual([moment]);
    const [run] = await waitUntil("the run of expired-due", async () => {
      const r = await runs("expired-due");
      return r.length > 0 && r;
    });
    expect(run.startedAt!.getTime()).toBeGreaterThanOrEqual(Math.floor(dueAt / 1000) * 1000);
    expect(run).toMatchObject({ trigger: "window", state: "Succeeded" });
    expect(run.changes).toEqual([
      expect.objectContaining({
        target: "controlPlane",
        from: "1.30.1",
        to: "1.30.5",
        reason: "Kubernetes version expired - force update required",
      }),
    ]);
    expect(await version("expired-due")).toBe("1.30.5");
    // The next run is the same moment tomorrow.
    const next = await findSchedule(database.db, "garden-dev", "expired-due");
    expect(next!.dueAt.getTime()).toBe(run.scheduledFor!.getTime() + DAY);
    // The shoot outside its window was not touched.
    expect(await version("expired-later")).toBe("1.30.1");
    expect(await runs("expired-later")).toEqual([]);
    const audit = await database.db.auditEvent.findMany({
      where: { targetName: "expired-due", action: "shoot.maintain" },
    });
    expect(audit).toHaveLength(1);
    expect(audit[0].changes).toContainEqual({ field: "spec.kubernetes.version", before: "1.30.1", after: "1.30.5" });
  });

  it("fails the window's run of a shoot the garden's webhook blocks, with the webhook's answer", async () => {
    const [run] = await waitUntil("the run of frozen-due", async () => {
      const r = await runs("frozen-due");
      return r.length > 0 && r;
    });
    expect(run).toMatchObject({
      trigger: "window",
      state: "Failed",
      description: "Maintenance failed",
      failureReason: REJECTED,
    });
    expect(await version("frozen-due")).toBe("1.30.1");
    const shoot = await database.db.shoot.findUniqueOrThrow({
      where: { namespace_name: { namespace: "garden-dev", name: "frozen-due" } },
    });
    expect((shoot.status as Shoot["status"])?.lastMaintenance).toMatchObject({
      state: "Failed",
      failureReason: REJECTED,
    });
    // The same version, the same window, no webhook: updated (expired-due above).
    await waitUntil("expired-due's run", async () => (await version("expired-due")) === "1.30.5");
  });

  it("fails the run of an image update to a version not yet available, as the API server refuses it", async () => {
    const [run] = await waitUntil("the run of image-not-yet", async () => {
      const r = await runs("image-not-yet");
      return r.length > 0 && r;
    });
    const reason =
      'Updates to the Shoot failed to be applied: shoots.core.gardener.cloud "image-not-yet" is forbidden: ' +
      'spec.provider.workers[0].machine.image: Invalid value: {"name":"gardenlinux","version":"1592.5.0"}: ' +
      "machine image version 'gardenlinux:1592.5.0' is expired, supported machine image versions are: [gardenlinux:1592.4.0]";
    expect(run).toMatchObject({ trigger: "window", state: "Failed", failureReason: reason });
    const shoot = await database.db.shoot.findUniqueOrThrow({
      where: { namespace_name: { namespace: "garden-dev", name: "image-not-yet" } },
    });
    const spec = shoot.spec as Shoot["spec"];
    expect(spec.provider?.workers?.[0].machine.image).toEqual({ name: "gardenlinux", version: "1592.4.0" });
    expect((shoot.status as Shoot["status"])?.lastMaintenance).toMatchObject({
      state: "Failed",
      failureReason: reason,
    });
  });

  it("does not maintain a shoot while its control plane migrates: it waits for the next window", async () => {
    await waitUntil("the migrating shoot's window to pass", async () => {
      const s = await findSchedule(database.db, "garden-dev", "migrating");
      return s && s.dueAt.getTime() > dueAt + 1000 && s;
    });
    expect(await runs("migrating")).toEqual([]);
    expect(await version("migrating")).toBe("1.30.1");
  });

  it("updates patch versions automatically only where the flag is set", async () => {
    await waitUntil(
      "runs of auto-on and auto-off",
      async () => (await runs("auto-on")).length > 0 && (await runs("auto-off")).length > 0,
    );
    expect(await version("auto-on")).toBe("1.31.4");
    expect((await runs("auto-on"))[0].changes).toEqual([
      expect.objectContaining({
        from: "1.31.2",
        to: "1.31.4",
        reason: "Automatic update of Kubernetes version configured",
      }),
    ]);
    expect(await version("auto-off")).toBe("1.31.2");
    expect((await runs("auto-off"))[0]).toMatchObject({ state: "Succeeded", changes: [] });
  });
});

describe("a run that comes late", () => {
  it("does not maintain outside the window (the workers were down): it waits for the next one", async () => {
    // As if the workers had been down since the window two hours ago.
    const missedAt = new Date(Math.floor((now - 2 * 3_600_000) / 1000) * 1000);
    await database.db.maintenanceSchedule.update({
      where: { namespace_name: { namespace: "garden-dev", name: "missed" } },
      data: { dueAt: missedAt },
    });
    await database.db.$transaction((tx) =>
      enqueueMaintenance(tx, client, [{ namespace: "garden-dev", name: "missed", dueAt: missedAt, secondOfDay: 0 }]),
    );
    const next = await waitUntil("the late job to reschedule", async () => {
      const s = await findSchedule(database.db, "garden-dev", "missed");
      return s && s.dueAt.getTime() > Date.now() && s;
    });
    expect(next.dueAt.getTime()).toBe(missedAt.getTime() + DAY);
    expect(await runs("missed")).toEqual([]);
    expect(await version("missed")).toBe("1.30.1");
  });
});

describe("maintain now", () => {
  it("queues one run however often it is asked, and records a successful run that changed nothing", async () => {
    const ask = () =>
      requestMaintainNow(
        embeddedShootWrites(database.db, () => client),
        {
          namespace: "garden-dev",
          name: "up-to-date",
          actor: "alice",
          requestId: "r",
          identity: { kind: "almanac" as const },
          now: Date.now(),
        },
      );
    const answers = [await ask(), await ask(), await ask()];
    expect(answers.map((a) => a.queued)).toEqual([true, false, false]);
    expect(answers[0].plan.changes).toEqual([]);
    const shoot = await database.db.shoot.findUniqueOrThrow({
      where: { namespace_name: { namespace: "garden-dev", name: "up-to-date" } },
    });
    expect((shoot.metadata as Shoot["metadata"]).annotations?.["gardener.cloud/operation"]).toBe("maintain");

    const [run] = await waitUntil("the maintain-now run", async () => {
      const r = await runs("up-to-date");
      return r.length > 0 && r;
    });
    expect(run).toMatchObject({
      trigger: "maintain-now",
      state: "Succeeded",
      changes: [],
      description: "No maintenance operations were needed.",
    });
    // At once, outside any window: before its moment in the window (hours away).
    const schedule = await findSchedule(database.db, "garden-dev", "up-to-date");
    expect(run.startedAt!.getTime()).toBeLessThan(schedule!.dueAt.getTime());
    const after = await database.db.shoot.findUniqueOrThrow({
      where: { namespace_name: { namespace: "garden-dev", name: "up-to-date" } },
    });
    expect((after.metadata as Shoot["metadata"]).annotations?.["gardener.cloud/operation"]).not.toBe("maintain");
    // Each ask sent a job (in case an earlier one was lost); once none of them is left to run,
    // there is still just the one run.
    await waitUntil(
      "the maintain-now jobs of up-to-date to finish",
      async () =>
        (await unfinishedJobs(client, QUEUES.maintainNow, { namespace: "garden-dev", name: "up-to-date" })).length ===
        0,
    );
    expect(
      await client.findJobs(QUEUES.maintainNow, { data: { namespace: "garden-dev", name: "up-to-date" } }),
    ).toHaveLength(3);
    expect(await runs("up-to-date")).toHaveLength(1);
  });
});

describe("the garden's admission webhooks and a user", () => {
  const garden = () => embeddedShootWrites(database.db, () => client);
  const patchFrozen = (body: unknown) =>
    updateShootFromPatch(garden(), {
      namespace: "garden-dev",
      name: "frozen-later",
      body: shootPatchSchema.parse(body),
      ifMatch: null,
      actor: "alice",
      requestId: "r",
      identity: { kind: "almanac" as const },
      now: Date.now(),
    });

  it("refuses a user's spec change of a blocked shoot with the webhook's answer", async () => {
    const refused = await patchFrozen({ spec: { kubernetes: { version: "1.30.5" } } }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(Refusal);
    const error = refused as Refusal;
    expect(refusalAnswer(error).status).toBe(422);
    expect(error.message).toContain(
      'admission webhook "shoot-policy.platform.example.com" denied the request: changes to production shoots are frozen until the quarter closes',
    );
    expect(error.errors).toEqual([
      {
        field: "metadata",
        type: "Forbidden",
        detail: REJECTED.replace("Updates to the Shoot failed to be applied: ", ""),
      },
    ]);
    expect(await version("frozen-later")).toBe("1.30.1");
    // Another shoot is not blocked.
    const other = await updateShootFromPatch(garden(), {
      namespace: "garden-dev",
      name: "expired-later",
      body: { spec: { kubernetes: { version: "1.30.5" } } },
      ifMatch: null,
      actor: "alice",
      requestId: "r",
      identity: { kind: "almanac" as const },
      now: Date.now(),
    });
    expect(other.spec.kubernetes.version).toBe("1.30.5");
  });

  it("accepts maintain now, whose run then fails with the webhook's answer", async () => {
    const answer = await requestMaintainNow(garden(), {
      namespace: "garden-dev",
      name: "frozen-later",
      actor: "alice",
      requestId: "r",
      identity: { kind: "almanac" as const },
      now: Date.now(),
    });
    expect(answer.queued).toBe(true);
    expect(answer.plan.summary).toBe(`The garden will reject the run's update, so it will fail: ${REJECTED}`);
    const [run] = await waitUntil("the maintain-now run of frozen-later", async () => {
      const r = await runs("frozen-later");
      return r.length > 0 && r;
    });
    expect(run).toMatchObject({ trigger: "maintain-now", state: "Failed", failureReason: REJECTED });
    const after = await database.db.shoot.findUniqueOrThrow({
      where: { namespace_name: { namespace: "garden-dev", name: "frozen-later" } },
    });
    const metadata = after.metadata as Shoot["metadata"];
    expect(metadata.annotations?.["gardener.cloud/operation"]).toBeUndefined();
    expect((after.spec as Shoot["spec"]).kubernetes.version).toBe("1.30.1");
  });
});
