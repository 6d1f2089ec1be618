// Several worker processes (`npm run worker`) on one database maintain each due shoot exactly
// once, and a worker killed in the middle of a run loses nothing: its jobs run again elsewhere
// and no run is half-written.
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Landscape } from "../../lib/demo/landscape.ts";
import type { Shoot } from "../../lib/gardener/types.ts";
import { QUEUES, startQueue } from "../../lib/jobs/queue.ts";
import { seedLandscape } from "../../lib/server/seed-landscape.ts";
import { shoot as buildShoot, profile, worker } from "../support/builders.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { FAST, uidAtWindowStart, unfinishedJobs, waitUntil, windowAt } from "../support/jobs.ts";

const SHOOTS = 300;
const DAY = 86_400_000;
const script = path.resolve(import.meta.dirname, "../../scripts/worker.ts");
const children: ChildProcess[] = [];
const databases: TestDatabase[] = [];

afterEach(async () => {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  await Promise.all(databases.splice(0).map((d) => d.drop()));
});

function startWorkerProcess(url: string, env: Record<string, string> = {}): ChildProcess {
  const child = spawn(process.execPath, [script], {
    env: {
      ...process.env,
      DATABASE_URL: url,
      ALMANAC_GARDENLET: "off",
      ALMANAC_POLL_SECONDS: "0.5",
      ALMANAC_JOB_EXPIRE_SECONDS: "3",
      ...env,
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  children.push(child);
  return child;
}

/** SHOOTS shoots on an expired version, all due at `dueAt`. */
async function dueLandscape(dueAt: number): Promise<TestDatabase> {
  const database = await createTestDatabase();
  databases.push(database);
  const now = Date.now();
  const window = windowAt(dueAt);
  const shoots: Shoot[] = [];
  for (let i = 0; i < SHOOTS; i++) {
    const s = buildShoot("1.30.1", { workers: [worker("pool", "gardenlinux", "1592.4.0")] });
    s.metadata = { ...s.metadata, name: `due-${i}`, namespace: "garden-dev", uid: uidAtWindowStart(), generation: 1 };
    s.spec.maintenance = { ...s.spec.maintenance, timeWindow: window };
    shoots.push(s);
  }
  const landscape: Landscape = {
    cloudProfiles: [
      profile(
        [
          { version: "1.30.1", expirationDate: new Date(now - DAY).toISOString() },
          { version: "1.30.5", classification: "supported" },
        ],
        [
          {
            name: "gardenlinux",
            updateStrategy: "minor",
            versions: [{ version: "1592.4.0", classification: "supported", cri: [{ name: "containerd" }] }],
          },
        ],
      ),
    ],
    seeds: [],
    projects: [{ metadata: { name: "dev" }, spec: { namespace: "garden-dev" } }],
    shoots,
    maintenanceHistory: [],
    admissionRules: [],
  };
  const boss = await startQueue(database.url, { expireSeconds: FAST.jobExpireSeconds, supervise: false });
  await seedLandscape(database.db, landscape, { actor: "test", now, boss });
  await boss.stop({ graceful: false });
  return database;
}

async function expectEachMaintainedOnce(database: TestDatabase, dueAt: number) {
  await waitUntil(`${SHOOTS} runs`, async () => (await database.db.maintenanceRun.count()) >= SHOOTS, 40_000);
  // A duplicate, if there were one, would come from a job of this window still waiting, being
  // retried or running (tomorrow's jobs are queued already): wait until none is left.
  const boss = await startQueue(database.url, { expireSeconds: FAST.jobExpireSeconds, supervise: false });
  try {
    await waitUntil(
      "this window's jobs to finish",
      async () =>
        (await unfinishedJobs(boss, QUEUES.maintenance)).every(
          (j) => Date.parse(String(j.data.dueAt)) > dueAt + DAY / 2,
        ),
      40_000,
    );
  } finally {
    await boss.stop({ graceful: false });
  }
  const perShoot = await database.db.maintenanceRun.groupBy({ by: ["name"], _count: { _all: true } });
  expect(perShoot).toHaveLength(SHOOTS);
  expect(perShoot.filter((g) => g._count._all !== 1)).toEqual([]);
  // Every recorded run is in the shoot, and every changed shoot has its run: nothing half-written.
  const shoots = await database.db.shoot.findMany({ select: { kubernetesVersion: true, resourceVersion: true } });
  expect(shoots.every((s) => s.kubernetesVersion === "1.30.5" && s.resourceVersion === 2)).toBe(true);
  expect(await database.db.auditEvent.count({ where: { action: "shoot.maintain" } })).toBe(SHOOTS);
}

describe("worker processes", () => {
  it("two of them maintain each due shoot exactly once", { timeout: 60_000 }, async () => {
    const dueAt = Date.now() + 6_000;
    const database = await dueLandscape(dueAt);
    startWorkerProcess(database.url);
    startWorkerProcess(database.url);
    await expectEachMaintainedOnce(database, dueAt);
  });

  it("a worker killed mid-run loses nothing: its jobs run again in another", { timeout: 90_000 }, async () => {
    const dueAt = Date.now() + 6_000;
    const database = await dueLandscape(dueAt);
    const doomed = startWorkerProcess(database.url);
    // Kill it the moment it has taken jobs and is working on them.
    const until = Date.now() + 30_000;
    for (;;) {
      const [{ active }] = await database.db.$queryRaw<
        { active: number }[]
      >`SELECT count(*)::int AS active FROM pgboss.job WHERE name = 'maintenance' AND state = 'active'`;
      if (active > 0) break;
      if (Date.now() > until) throw new Error("the worker never took a job");
      await new Promise((r) => setTimeout(r, 5));
    }
    doomed.kill("SIGKILL");
    await new Promise((r) => doomed.once("exit", r));
    const runsAtKill = await database.db.maintenanceRun.count();
    expect(runsAtKill).toBeLessThan(SHOOTS);
    startWorkerProcess(database.url);
    await expectEachMaintainedOnce(database, dueAt);
  });
});
