// The notification events' producers and sweep (issue 30) on a real PostgreSQL, with the simulated
// garden's data: a landscape seeded as the demo is, its forecast facts computed as the worker's
// refresh computes them, maintenance runs, migrations, update runs and shoot statuses as the
// simulated garden writes them. Each kind is found once (a second sweep records nothing new),
// thresholds 7 and 1 give two events, a shoot that recovered and turned unhealthy again gives a
// second event, nobody subscribed means nothing recorded, transitions older than the look-back
// are left alone, and an event reaches a subscription's delivery.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { NotificationKind } from "../../lib/api/notifications.ts";
import type { Prisma } from "../../lib/db/generated/client.ts";
import type { Landscape } from "../../lib/demo/landscape.ts";
import { DAY_MS, HOUR_MS } from "../../lib/engine/time-units.ts";
import type { Shoot } from "../../lib/gardener/types.ts";
import { refreshForecasts } from "../../lib/jobs/forecast-refresh.ts";
import { LOOK_BACK_MS, sweepNotificationEvents } from "../../lib/server/notification-events-sweep.ts";
import { seedLandscape } from "../../lib/server/seed-landscape.ts";
import { recordAuditEvent } from "../../lib/store/audit.ts";
import { insertMaintenanceRuns } from "../../lib/store/maintenance-runs.ts";
import { profilesByKey } from "../../lib/store/cloud-profiles.ts";
import { shootColumns } from "../../lib/store/shoot-columns.ts";
import { findShoot, updateShoot } from "../../lib/store/shoots.ts";
import { profileKeyOf } from "../../lib/gardener/profile-reference.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { smallLandscape } from "../support/small-landscape.ts";

// A moment past the day's maintenance window (22:00-23:00 UTC), so the first window is tonight's.
const T0 = Date.parse("2026-11-20T08:00:00Z");
let t: TestDatabase;

/**
 * The small landscape, plus: 1.32.0 expiring in 10 days with nothing after it (cluster-5, which
 * runs it, will be stuck), and an expired machine image in one of cluster-4's pools.
 */
function landscape(): Landscape {
  const l = smallLandscape(T0, 6);
  const profile = l.cloudProfiles[0]!;
  for (const v of profile.spec.kubernetes!.versions)
    if (v.version === "1.32.0") v.expirationDate = new Date(T0 + 10 * DAY_MS).toISOString();
  l.shoots[5]!.spec.kubernetes.version = "1.32.0";
  // cluster-4's pool-a runs an image that expired yesterday: tonight's maintenance forces it up.
  l.shoots[4]!.spec.provider!.workers![0]!.machine.image!.version = "1592.1.0";
  return l;
}

beforeAll(async () => {
  t = await createTestDatabase();
  await seedLandscape(t.db, landscape(), { actor: "test", now: T0 });
});
afterAll(() => t?.drop());
beforeEach(async () => {
  await t.db.$executeRawUnsafe(
    "TRUNCATE notification_subscriptions, notification_events, notification_unhealthy_shoots, notification_sweep_marks CASCADE",
  );
});

async function subscribe(kinds: NotificationKind[], days?: number[], createdAt = new Date(T0 - DAY_MS)) {
  const row = await t.db.notificationSubscription.create({
    data: {
      channel: "webhook",
      url: "http://127.0.0.1:9/hook",
      secret: "0123456789abcdef",
      kinds,
      ...(days ? { days } : {}),
      enabled: true,
      createdBy: "test",
      createdAt,
    },
  });
  return row.id;
}

/** A sweep at `now` after the worker's refresh of the forecast facts at that moment. */
async function sweep(now: number, lookBackMs?: number) {
  await refreshForecasts(t.db, now, 1000);
  return sweepNotificationEvents(t.db, now, lookBackMs !== undefined ? { lookBackMs } : {});
}

async function events(kind: NotificationKind) {
  return t.db.notificationEvent.findMany({ where: { kind }, orderBy: { key: "asc" } });
}

/** The stored forecast item's moment of a shoot (the forced update or the stuck maintenance). */
async function itemAt(name: string, stuck: boolean): Promise<number> {
  const rows = await t.db.$queryRawUnsafe<{ at: Date }[]>(
    `SELECT at FROM shoot_forecast_items WHERE namespace = 'garden-dev' AND name = $1 AND stuck = $2 AND NOT held ORDER BY at LIMIT 1`,
    name,
    stuck,
  );
  expect(rows).toHaveLength(1);
  return rows[0]!.at.getTime();
}

/** Writes the shoot's Kubernetes version as a PATCH would (its columns derived again, its facts stale). */
async function setVersion(name: string, version: string, now: number) {
  await t.db.$transaction(async (tx) => {
    const held = (await findShoot(tx, "garden-dev", name, true))!;
    const shoot = { ...held.shoot, spec: { ...held.shoot.spec, kubernetes: { version } } };
    const profiles = await profilesByKey(tx);
    const columns = shootColumns(shoot, profiles.get(profileKeyOf(shoot)), now, held.resourceVersion + 1, held.running);
    await updateShoot(tx, shoot, columns, held.resourceVersion);
    // The database's clock stamps the write; this test's clock is its own.
    await tx.$executeRawUnsafe(
      "UPDATE shoots SET updated_at = $1 WHERE namespace = 'garden-dev' AND name = $2",
      new Date(now),
      name,
    );
  });
}

describe("condition events from the forecast and the profiles", () => {
  const clusterZero = async () => (await events("forced-update")).filter((e) => e.shootName === "cluster-0");

  it("tells a forced update once per threshold: 7 days ahead, then 1 day ahead", async () => {
    await subscribe(["forced-update"]);
    await refreshForecasts(t.db, T0, 1000);
    const at = await itemAt("cluster-0", false);
    // 1.30.5 expires in 20 days: the maintenance after that forces 1.31.
    expect(at).toBeGreaterThan(T0 + 20 * DAY_MS);

    const weekBefore = at - 5 * DAY_MS;
    // (cluster-4's expired image, never maintained here, is forced at every sweep's next window too.)
    await sweep(weekBefore);
    expect(await clusterZero()).toHaveLength(1);
    expect((await sweep(weekBefore)).recorded).toBe(0);
    // An hour on, the same update: nothing new for it (cluster-4's window may pass meanwhile, moving
    // its own forced update to the next window: a new event of cluster-4's).
    await sweep(weekBefore + HOUR_MS);
    expect(await clusterZero()).toHaveLength(1);
    const [seven] = await clusterZero();
    expect(seven).toMatchObject({
      days: 7,
      projects: ["dev"],
      shootNamespace: "garden-dev",
      shootName: "cluster-0",
      until: new Date(at),
      key: `forced-update:garden-dev/cluster-0:kubernetes:-:1.30.5:${new Date(at).toISOString()}:7`,
    });
    expect(seven!.summary).toBe(
      `garden-dev/cluster-0: Gardener will force-update Kubernetes 1.30.5 → 1.31.4 on ` +
        `${new Date(at).toISOString().slice(0, 16).replace("T", " ")} UTC (in 5 days): ` +
        `${(seven!.data as { reason: string }).reason}`,
    );
    expect(seven!.data).toMatchObject({ from: "1.30.5", to: "1.31.4", target: "controlPlane", days: 7 });

    const dayBefore = at - 12 * HOUR_MS;
    await sweep(dayBefore);
    expect((await sweep(dayBefore)).recorded).toBe(0);
    expect((await clusterZero()).map((e) => e.days)).toEqual([1, 7]);
  });

  it("tells both thresholds at once when the first sweep is already within a day", async () => {
    await subscribe(["forced-update"], [7, 1]);
    await refreshForecasts(t.db, T0, 1000);
    const at = await itemAt("cluster-0", false);
    await sweep(at - 2 * HOUR_MS);
    expect((await clusterZero()).map((e) => e.days)).toEqual([1, 7]);
    expect((await sweep(at - HOUR_MS)).recorded).toBe(0);
  });

  it("tells a pool's forced machine image update with the image's name", async () => {
    await subscribe(["forced-update"], [1]);
    expect((await sweep(T0 + HOUR_MS)).recorded).toBe(1);
    const [image] = await events("forced-update");
    const at = image!.until!.getTime();
    expect(image!.key).toBe(
      `forced-update:garden-dev/cluster-4:machineImage:pool-a:1592.1.0:${new Date(at).toISOString()}:1`,
    );
    expect(image!.summary).toMatch(
      /^garden-dev\/cluster-4: Gardener will force-update pool "pool-a": gardenlinux 1592\.1\.0 → 1592\.4\.0 on 2026-11-20 22:\d\d UTC \(in 1[34] hours\): /,
    );
    expect(image!.data).toMatchObject({ image: "gardenlinux", worker: "pool-a", kind: "machineImage" });
  });

  it("tells a version in use expiring within each threshold, once", async () => {
    await subscribe(["version-expiring"], [7, 1, 30]);
    const report = await sweep(T0 + 14 * DAY_MS);
    // 1.30.5 (cluster-0) expires at T0 + 20 days: within 7 and 30 days; 1.32.0 (cluster-5)
    // expired at T0 + 10 days: no longer expiring.
    expect(report.recorded).toBe(2);
    const found = await events("version-expiring");
    expect(found.map((e) => [e.shootName, e.days, e.until?.getTime()])).toEqual([
      ["cluster-0", 30, T0 + 20 * DAY_MS],
      ["cluster-0", 7, T0 + 20 * DAY_MS],
    ]);
    expect(found[1]!.summary).toBe(
      "garden-dev/cluster-0: Kubernetes 1.30.5 (control plane) expires on 2026-12-10 08:00 UTC (in 6 days); " +
        "Gardener then force-updates it in the next maintenance window",
    );
    expect((await sweep(T0 + 14 * DAY_MS + HOUR_MS)).recorded).toBe(0);
    expect((await sweep(T0 + 19.5 * DAY_MS)).recorded).toBe(1);
    expect((await events("version-expiring")).map((e) => e.days)).toEqual([1, 30, 7]);
  });

  it("finds, from the last sweep's mark, what crossed a threshold and what was written since", async () => {
    await subscribe(["forced-update", "version-expiring"], [7]);
    await refreshForecasts(t.db, T0, 1000);
    const at = await itemAt("cluster-0", false);
    // Just before the forced update's and the version's 7-day moments, then just after: the second
    // sweep looks only at what changed since the first (its mark), and finds both.
    const crossing = Math.min(at, T0 + 20 * DAY_MS) - 7 * DAY_MS;
    await sweep(crossing - 10 * 60_000);
    expect((await clusterZero()).length).toBe(0);
    expect((await events("version-expiring")).length).toBe(0);
    await sweep(crossing + 10 * 60_000);
    await sweep(Math.max(at, T0 + 20 * DAY_MS) - 7 * DAY_MS + 10 * 60_000);
    expect((await clusterZero()).map((e) => e.days)).toEqual([7]);
    expect((await events("version-expiring")).map((e) => e.shootName)).toEqual(["cluster-0"]);
    // cluster-1 is moved to 1.30.5 (a write): the next sweep finds it, though nothing crossed.
    const later = Math.max(at, T0 + 20 * DAY_MS) - 7 * DAY_MS + 20 * 60_000;
    await setVersion("cluster-1", "1.30.5", later);
    await sweep(later);
    expect((await events("version-expiring")).map((e) => e.shootName)).toEqual(["cluster-0", "cluster-1"]);
    expect((await clusterZero()).length).toBe(1);
    expect((await events("forced-update")).some((e) => e.shootName === "cluster-1")).toBe(true);
    await setVersion("cluster-1", "1.31.2", later);
  });

  it("tells a cluster that will be stuck, once", async () => {
    await subscribe(["stuck"]);
    const report = await sweep(T0 + DAY_MS);
    expect(report.recorded).toBe(1);
    const [stuck] = await events("stuck");
    const at = await itemAt("cluster-5", true);
    expect(stuck).toMatchObject({
      shootName: "cluster-5",
      until: new Date(at),
      key: `stuck:garden-dev/cluster-5:kubernetes:-:1.32.0:${new Date(at).toISOString()}`,
      days: null,
    });
    expect(stuck!.summary).toMatch(
      /^garden-dev\/cluster-5: the maintenance on .* UTC \(in \d+ days\) cannot move Kubernetes 1\.32\.0, so the cluster will be stuck: /,
    );
    expect((await sweep(T0 + DAY_MS + HOUR_MS)).recorded).toBe(0);
  });
});

describe("transitions", () => {
  const now = T0 + 2 * DAY_MS;

  it("tells a maintenance run that failed within the look-back, once", async () => {
    await subscribe(["maintenance-failed"]);
    await t.db.$transaction((tx) =>
      insertMaintenanceRuns(tx, [
        {
          namespace: "garden-dev",
          name: "cluster-1",
          trigger: "window",
          state: "Failed",
          changes: [],
          description: "Maintenance failed",
          failureReason: "Updates to the Shoot failed to be applied: denied by policy",
          startedAt: new Date(now - HOUR_MS),
          finishedAt: new Date(now - HOUR_MS),
        },
        {
          namespace: "garden-dev",
          name: "cluster-2",
          trigger: "window",
          state: "Failed",
          changes: [],
          description: "Maintenance failed",
          failureReason: "long ago",
          startedAt: new Date(now - LOOK_BACK_MS - HOUR_MS),
          finishedAt: new Date(now - LOOK_BACK_MS - HOUR_MS),
        },
      ]),
    );
    expect((await sweep(now)).recorded).toBe(1);
    expect((await sweep(now + 60_000)).recorded).toBe(0);
    const [failed] = await events("maintenance-failed");
    expect(failed).toMatchObject({ shootName: "cluster-1", occurredAt: new Date(now - HOUR_MS), until: null });
    expect(failed!.summary).toBe(
      `garden-dev/cluster-1: maintenance (window) failed at 2026-11-22 07:00 UTC: Updates to the Shoot failed to be applied: denied by policy`,
    );
  });

  it("tells a migration that failed and one that finished, once each", async () => {
    await subscribe(["migration-failed", "migration-finished"]);
    const flow = (state: string, steps: Prisma.InputJsonObject[]): Prisma.InputJsonObject => ({
      source: "seed-1",
      destination: "seed-2",
      state,
      step: 0,
      steps,
    });
    const failedId = randomUUID();
    const finishedId = randomUUID();
    await t.db.controlPlaneMigration.createMany({
      data: [
        {
          id: failedId,
          namespace: "garden-dev",
          name: "cluster-3",
          source: "seed-1",
          destination: "seed-2",
          state: "Failed",
          flow: flow("Failed", [
            {
              name: "Restore",
              outcome: "Error",
              message: "etcd restore failed",
              endedAt: now - 2 * HOUR_MS,
              attempts: 3,
            },
          ]),
          actor: "ann",
          createdAt: new Date(now - 3 * HOUR_MS),
          finishedAt: new Date(now - 2 * HOUR_MS),
        },
        {
          id: finishedId,
          namespace: "garden-dev",
          name: "cluster-4",
          source: "seed-1",
          destination: "seed-2",
          state: "Succeeded",
          flow: flow("Succeeded", []),
          actor: "ann",
          createdAt: new Date(now - 3 * HOUR_MS),
          finishedAt: new Date(now - HOUR_MS),
        },
        {
          namespace: "garden-dev",
          name: "cluster-4",
          source: "seed-2",
          destination: "seed-1",
          state: "Succeeded",
          flow: flow("Succeeded", []),
          actor: "ann",
          createdAt: new Date(now - 3 * DAY_MS),
          finishedAt: new Date(now - 2 * DAY_MS),
        },
      ],
    });
    expect((await sweep(now)).recorded).toBe(2);
    expect((await sweep(now)).recorded).toBe(0);
    expect((await events("migration-failed"))[0]).toMatchObject({
      key: `migration-failed:${failedId}`,
      summary:
        "garden-dev/cluster-3: the control plane's migration from seed seed-1 to seed-2 failed at 2026-11-22 06:00 UTC: Restore: etcd restore failed",
    });
    expect((await events("migration-finished")).map((e) => e.key)).toEqual([`migration-finished:${finishedId}`]);
    await t.db.controlPlaneMigration.deleteMany({});
  });

  it("tells an update run's stage waiting for approval and a pause, once each, with the run's projects", async () => {
    await subscribe(["update-run-waiting", "update-run-paused"]);
    const waiting = await t.db.updateRun.create({
      data: {
        name: "k8s 1.31",
        target: { kubernetes: "1.31" },
        actor: "ann",
        identity: {},
        projects: ["dev", "prod"],
        state: "WaitingForApproval",
        startedAt: new Date(now - 2 * HOUR_MS),
        stages: {
          create: [
            {
              position: 0,
              name: "canary",
              when: "now",
              soakSeconds: 0,
              approval: false,
              state: "Succeeded",
              finishedAt: new Date(now - HOUR_MS),
            },
            { position: 1, name: "rest", when: "now", soakSeconds: 0, approval: true, state: "WaitingForApproval" },
          ],
        },
      },
    });
    const paused = await t.db.updateRun.create({
      data: {
        name: "images",
        target: { action: "maintain" },
        actor: "ann",
        identity: {},
        projects: ["dev"],
        state: "Paused",
        message: "Paused by ann.",
      },
    });
    await recordAuditEvent(t.db, {
      actor: "ann",
      action: "update-run.pause",
      target: { kind: "UpdateRun", name: paused.id },
      changes: [],
      at: new Date(now - 10 * 60_000),
    });
    expect((await sweep(now)).recorded).toBe(2);
    expect((await sweep(now)).recorded).toBe(0);
    expect((await events("update-run-waiting"))[0]).toMatchObject({
      key: `update-run-waiting:${waiting.id}:1`,
      projects: ["dev", "prod"],
      occurredAt: new Date(now - HOUR_MS),
      summary: `Update run "k8s 1.31": stage "rest" waits for approval (since 2026-11-22 07:00 UTC)`,
    });
    expect((await events("update-run-paused"))[0]).toMatchObject({
      key: `update-run-paused:${paused.id}:${new Date(now - 10 * 60_000).toISOString()}`,
      summary: `Update run "images" paused at 2026-11-22 07:50 UTC by ann`,
    });
    // Resumed, then paused again (by its gate): a second pause.
    await recordAuditEvent(t.db, {
      actor: "system:almanac-update-run",
      action: "update-run.gate-pause",
      target: { kind: "UpdateRun", name: paused.id },
      changes: [],
      at: new Date(now + 60_000),
    });
    expect((await sweep(now + 2 * 60_000)).recorded).toBe(1);
    await t.db.updateRun.deleteMany({});
  });
});

describe("a shoot turning unhealthy", () => {
  const now = T0 + 3 * DAY_MS;
  const iso = (ms: number) => new Date(ms).toISOString();

  /** Writes the shoot's status as the simulated garden's reconcile leaves it, and its label. */
  async function setStatus(name: string, status: Shoot["status"], label: string) {
    await t.db.$executeRawUnsafe(
      `UPDATE shoots SET status = $1::jsonb, status_label = $2 WHERE namespace = 'garden-dev' AND name = $3`,
      JSON.stringify(status),
      label,
      name,
    );
  }
  const unhealthy = (since: number, opTime = since): Shoot["status"] => ({
    lastOperation: {
      type: "Reconcile",
      state: "Error",
      progress: 60,
      lastUpdateTime: iso(opTime),
      description: "retrying",
    },
    conditions: [
      { type: "APIServerAvailable", status: "True", lastTransitionTime: iso(T0 - DAY_MS) },
      { type: "EveryNodeReady", status: "False", lastTransitionTime: iso(since), message: "node not ready" },
    ],
  });
  const healthy: Shoot["status"] = { lastOperation: { type: "Reconcile", state: "Succeeded", progress: 100 } };

  it("is told once per spell, and again after it recovered and relapsed", async () => {
    await subscribe(["shoot-unhealthy"]);
    await setStatus("cluster-1", unhealthy(now - 5 * 60_000), "unhealthy");
    expect((await sweep(now)).recorded).toBe(1);
    // Still unhealthy; the operation's retries rewrite its time: the same spell.
    await setStatus("cluster-1", unhealthy(now - 5 * 60_000, now + 30_000), "unhealthy");
    expect((await sweep(now + 60_000)).recorded).toBe(0);
    const [first] = await events("shoot-unhealthy");
    expect(first).toMatchObject({
      key: `shoot-unhealthy:garden-dev/cluster-1:${iso(now - 5 * 60_000)}`,
      occurredAt: new Date(now - 5 * 60_000),
      summary:
        "garden-dev/cluster-1 turned unhealthy at 2026-11-23 07:55 UTC: condition EveryNodeReady False: node not ready",
    });
    // Recovered, seen so; then unhealthy again.
    await setStatus("cluster-1", healthy, "healthy");
    expect((await sweep(now + 2 * 60_000)).recorded).toBe(0);
    await setStatus("cluster-1", unhealthy(now + 3 * 60_000), "unhealthy");
    expect((await sweep(now + 4 * 60_000)).recorded).toBe(1);
    expect(await events("shoot-unhealthy")).toHaveLength(2);
    await setStatus("cluster-1", healthy, "healthy");
  });

  it("is one spell while a failing operation is retried, its time rewritten at each attempt", async () => {
    await subscribe(["shoot-unhealthy"]);
    const erring = (at: number): Shoot["status"] => ({
      lastOperation: {
        type: "Reconcile",
        state: "Error",
        progress: 40,
        lastUpdateTime: iso(at),
        description: "timeout",
      },
      conditions: [{ type: "APIServerAvailable", status: "True", lastTransitionTime: iso(T0 - DAY_MS) }],
    });
    await setStatus("cluster-3", erring(now - 60_000), "unhealthy");
    expect((await sweep(now)).recorded).toBe(1);
    for (let i = 1; i <= 3; i++) {
      await setStatus("cluster-3", erring(now + i * 60_000), "unhealthy");
      expect((await sweep(now + i * 60_000 + 1000)).recorded).toBe(0);
    }
    expect((await events("shoot-unhealthy"))[0]!.summary).toBe(
      "garden-dev/cluster-3 turned unhealthy at 2026-11-23 07:59 UTC: last operation Reconcile Error: timeout",
    );
    await setStatus("cluster-3", healthy, "healthy");
  });

  it("tells a spell without a moment in its status once, though the sweep died after recording it", async () => {
    await subscribe(["shoot-unhealthy"]);
    // No time anywhere: the spell is keyed on when the sweep first sees it.
    await setStatus(
      "cluster-4",
      { lastOperation: { type: "Reconcile", state: "Failed", progress: 10, description: "quota" } },
      "unhealthy",
    );
    // The sweep dies as it writes that it saw the shoot (a crash between the two writes).
    await t.db.$executeRawUnsafe(`CREATE FUNCTION test_refuse() RETURNS trigger LANGUAGE plpgsql AS
      $$ BEGIN RAISE EXCEPTION 'the sweep died'; END $$`);
    await t.db.$executeRawUnsafe(
      "CREATE TRIGGER test_refuse BEFORE INSERT ON notification_unhealthy_shoots FOR EACH ROW EXECUTE FUNCTION test_refuse()",
    );
    try {
      await expect(sweep(now)).rejects.toThrow(/the sweep died/);
    } finally {
      await t.db.$executeRawUnsafe("DROP TRIGGER test_refuse ON notification_unhealthy_shoots");
      await t.db.$executeRawUnsafe("DROP FUNCTION test_refuse()");
    }
    // The next sweep, a minute later, tells it once.
    expect((await sweep(now + 60_000)).recorded).toBe(1);
    expect((await sweep(now + 2 * 60_000)).recorded).toBe(0);
    const told = await events("shoot-unhealthy");
    expect(told).toHaveLength(1);
    expect(told[0]!.summary).toBe("garden-dev/cluster-4 turned unhealthy at 2026-11-23 08:01 UTC");
    await setStatus("cluster-4", healthy, "healthy");
  });

  it("leaves a spell that began before the look-back alone, and does not tell it later", async () => {
    await subscribe(["shoot-unhealthy"]);
    await setStatus("cluster-2", unhealthy(now - LOOK_BACK_MS - HOUR_MS), "unhealthy");
    expect((await sweep(now)).recorded).toBe(0);
    expect((await sweep(now + 60_000, 10 * LOOK_BACK_MS)).recorded).toBe(0);
    await setStatus("cluster-2", healthy, "healthy");
  });
});

describe("the sweep", () => {
  it("records nothing when nobody subscribes", async () => {
    const report = await sweep(T0 + 14 * DAY_MS);
    expect(report.recorded).toBe(0);
    expect(report.kinds).toEqual({});
    expect(await t.db.notificationEvent.count()).toBe(0);
  });

  it("records nothing for a disabled subscription", async () => {
    const id = await subscribe(["forced-update", "version-expiring", "stuck"]);
    await t.db.notificationSubscription.update({ where: { id }, data: { enabled: false } });
    expect((await sweep(T0 + 14 * DAY_MS)).recorded).toBe(0);
  });

  it("brings a found event to a subscription's delivery", async () => {
    const id = await subscribe(["version-expiring"], [7]);
    await subscribe(["maintenance-failed"]);
    expect((await sweep(T0 + 14 * DAY_MS)).recorded).toBe(1);
    const deliveries = await t.db.notificationDelivery.findMany({ include: { event: true } });
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({ subscriptionId: id, state: "Pending", attempts: 0 });
    expect(deliveries[0]!.event.kind).toBe("version-expiring");
  });
});
