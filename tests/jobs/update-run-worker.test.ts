// Update runs worked by the real job queue. A worker process (`npm run worker`) killed mid-stage:
// another resumes the run and no shoot is acted on twice (each has exactly one audit event for
// its write). And a two-stage "now" run with a health gate, on the simulated garden with its
// gardenlet reconciling each change, from start to Succeeded.
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { updateRunRequestId } from "../../lib/api/update-runs.ts";
import type { Principal } from "../../lib/auth/principal.ts";
import { embeddedGardenAccess } from "../../lib/garden/embedded/embedded-garden-access.ts";
import { embeddedShootWrites } from "../../lib/garden/embedded/embedded-shoot-writes.ts";
import { type PgBoss, startQueue } from "../../lib/jobs/queue.ts";
import { fleetScope } from "../../lib/server/fleet-scope.ts";
import { seedLandscape } from "../../lib/server/seed-landscape.ts";
import { startUpdateRunWorker } from "../../lib/server/update-run-job.ts";
import { getUpdateRun, previewOrStartUpdateRun } from "../../lib/server/update-runs.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { FAST, startTestWorker, waitUntil } from "../support/jobs.ts";
import { smallLandscape } from "../support/small-landscape.ts";
import { tokenHeader } from "../support/tokens.ts";

const SHOOTS = 120;
const script = path.resolve(import.meta.dirname, "../../scripts/worker.ts");
const children: ChildProcess[] = [];
let database: TestDatabase;
let client: PgBoss;
let inProcess: PgBoss | undefined;

const operator: Principal = {
  kind: "token",
  id: "t-ops",
  name: "ops",
  bindings: [{ role: "operator", scope: "dev" }],
};

async function caller() {
  const scope = await fleetScope(database.db, operator, embeddedGardenAccess);
  return { scope, actor: "token:ops", identity: { kind: "person" as const, user: "almanac:token:ops", groups: [] } };
}

function startWorkerProcess(): ChildProcess {
  const child = spawn(process.execPath, [script], {
    env: {
      ...process.env,
      DATABASE_URL: database.url,
      ALMANAC_GARDENLET: "off",
      ALMANAC_POLL_SECONDS: "0.5",
      ALMANAC_JOB_EXPIRE_SECONDS: "3",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  children.push(child);
  return child;
}

const names = (from: number, to: number) =>
  Array.from({ length: to - from }, (_, i) => ({ namespace: "garden-dev", name: `cluster-${from + i}` }));

beforeAll(async () => {
  database = await createTestDatabase();
  client = await startQueue(database.url, { expireSeconds: FAST.jobExpireSeconds, supervise: false });
  await seedLandscape(database.db, smallLandscape(Date.now(), SHOOTS + 4), { actor: "test", now: Date.now() });
  // The token the runs are made with (a run acts only while its maker's role allows it).
  await tokenHeader(database.db, "ops", "operator", "dev");
}, 120_000);

afterAll(async () => {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  await inProcess?.stop({ graceful: false });
  await client?.stop({ graceful: false });
  await database?.drop();
});

describe("update runs on the job queue", () => {
  it(
    "a worker killed mid-stage: another resumes the run, and no shoot is acted on twice",
    { timeout: 150_000 },
    async () => {
      const started = await previewOrStartUpdateRun(
        database.db,
        {
          name: "kill",
          target: { kubernetes: "1.31.4" },
          stages: [
            { name: "first", shoots: names(0, SHOOTS / 2), when: "now" },
            { name: "second", shoots: names(SHOOTS / 2, SHOOTS), when: "now" },
          ],
        },
        await caller(),
        Date.now(),
        () => client,
      );
      const id = (started.answer as { id: string }).id;
      const settled = async () =>
        database.db.updateRunItem.count({ where: { runId: id, state: { notIn: ["Pending", "Acting"] } } });
      const doomed = startWorkerProcess();
      await waitUntil("the first shoots to be acted on", async () => (await settled()) > 0, 60_000);
      doomed.kill("SIGKILL");
      await new Promise((r) => doomed.once("exit", r));
      expect(await settled()).toBeLessThan(SHOOTS);

      startWorkerProcess();
      const done = await waitUntil(
        "the run to end",
        async () => {
          const answer = await getUpdateRun(database.db, id, await caller());
          return ["Succeeded", "Failed", "Cancelled"].includes(answer.state) && answer;
        },
        120_000,
      );
      expect(done.state).toBe("Succeeded");
      expect(done.stages.flatMap((s) => s.items).every((i) => i.state === "Succeeded")).toBe(true);
      const events = await database.db.auditEvent.groupBy({
        by: ["requestId"],
        where: { requestId: { startsWith: `run:${id}:` } },
        _count: { _all: true },
      });
      expect(events.filter((e) => e._count._all !== 1)).toEqual([]);
      expect(new Set(events.map((e) => e.requestId))).toEqual(
        new Set(Array.from({ length: SHOOTS }, (_, n) => updateRunRequestId(id, n))),
      );
      for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
    },
  );

  it("a two-stage run with a health gate ends Succeeded on the simulated garden", { timeout: 120_000 }, async () => {
    inProcess = await startTestWorker(database.url, database.db, { gardenlet: true });
    await startUpdateRunWorker(
      database.db,
      inProcess,
      embeddedShootWrites(database.db, () => inProcess!),
      {
        pollSeconds: 0.5,
        jobExpireSeconds: FAST.jobExpireSeconds,
      },
    );
    const started = await previewOrStartUpdateRun(
      database.db,
      {
        name: "two stages",
        target: { kubernetes: "1.31.4" },
        stages: [
          { name: "canary", shoots: names(SHOOTS, SHOOTS + 2), when: "now" },
          { name: "rest", shoots: names(SHOOTS + 2, SHOOTS + 4), when: "now" },
        ],
        healthGate: { healthySeconds: 2 },
      },
      await caller(),
      Date.now(),
      () => client,
    );
    const id = (started.answer as { id: string }).id;
    const done = await waitUntil(
      "the run to end",
      async () => {
        const answer = await getUpdateRun(database.db, id, await caller());
        return ["Succeeded", "Failed", "Cancelled", "Paused"].includes(answer.state) && answer;
      },
      100_000,
    );
    expect(done.state).toBe("Succeeded");
    expect(done.stages.map((s) => s.state)).toEqual(["Succeeded", "Succeeded"]);
    // The second stage began only after the first one's shoots were reconciled and healthy for 2 s.
    const [first, second] = done.stages;
    expect(Date.parse(second!.startedAt!)).toBeGreaterThanOrEqual(Date.parse(first!.startedAt!) + 2_000);
  });
});
