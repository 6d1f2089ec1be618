// The notification sweep on a real job queue: two worker processes' sweeps (each asking every
// 200 ms) find a failed maintenance run once between them, with one delivery to the subscription,
// and a sweep started after a restart does not tell it again.
import { afterAll, beforeAll, expect, it } from "vitest";
import { type PgBoss, startQueue } from "../../lib/jobs/queue.ts";
import { type RunningSweep, startNotificationSweep } from "../../lib/server/notification-events-sweep.ts";
import { seedLandscape } from "../../lib/server/seed-landscape.ts";
import { insertMaintenanceRuns } from "../../lib/store/maintenance-runs.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { FAST, waitUntil } from "../support/jobs.ts";
import { smallLandscape } from "../support/small-landscape.ts";

let t: TestDatabase;
const workers: { boss: PgBoss; sweep: RunningSweep }[] = [];

async function startSweepWorker() {
  const boss = await startQueue(t.url, { expireSeconds: FAST.jobExpireSeconds, supervise: true });
  const sweep = await startNotificationSweep(t.db, boss, { everyMs: 200, pollSeconds: 0.5 });
  workers.push({ boss, sweep });
  return workers.at(-1)!;
}

async function stop(worker: { boss: PgBoss; sweep: RunningSweep }) {
  worker.sweep.stop();
  await worker.boss.stop({ graceful: true, timeout: 5_000 });
}

beforeAll(async () => {
  t = await createTestDatabase();
  await seedLandscape(t.db, smallLandscape(Date.now()), { actor: "test", now: Date.now() });
});
afterAll(async () => {
  for (const w of workers) await stop(w).catch(() => {});
  await t?.drop();
});

const sweepsRun = async () =>
  (
    await t.db.$queryRawUnsafe<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'notification-sweep' AND state = 'completed'`,
    )
  )[0]!.n;

it("tells a failed maintenance run once across two workers and a restart", async () => {
  const subscription = await t.db.notificationSubscription.create({
    data: {
      channel: "webhook",
      url: "http://127.0.0.1:9/hook",
      secret: "0123456789abcdef",
      kinds: ["maintenance-failed"],
      enabled: true,
      createdBy: "test",
      createdAt: new Date(Date.now() - 3_600_000),
    },
  });
  const [a, b] = [await startSweepWorker(), await startSweepWorker()];
  await t.db.$transaction((tx) =>
    insertMaintenanceRuns(tx, [
      {
        namespace: "garden-dev",
        name: "cluster-1",
        trigger: "window",
        state: "Failed",
        changes: [],
        description: "Maintenance failed",
        failureReason: "denied",
        startedAt: new Date(Date.now() - 60_000),
        finishedAt: new Date(Date.now() - 60_000),
      },
    ]),
  );
  await waitUntil("the event", async () => (await t.db.notificationEvent.count()) > 0);
  const done = await sweepsRun();
  await waitUntil("more sweeps", async () => (await sweepsRun()) >= done + 3);
  await stop(a);
  await stop(b);
  const restarted = await startSweepWorker();
  const before = await sweepsRun();
  await waitUntil("a sweep after the restart", async () => (await sweepsRun()) > before);
  await stop(restarted);

  expect(await t.db.notificationEvent.findMany({ select: { kind: true, shootName: true } })).toEqual([
    { kind: "maintenance-failed", shootName: "cluster-1" },
  ]);
  expect(await t.db.notificationDelivery.findMany({ select: { subscriptionId: true } })).toEqual([
    { subscriptionId: subscription.id },
  ]);
});
