// /api/v1/update-runs over HTTP on the built app: the preview (200) and the start (201 with id) as
// the contract says them, bad input as 422 problems naming the field, a viewer's 403, a run with an
// approval followed to Succeeded (a worker in this process works the queue, as `npm start`'s main
// process does), 409s naming the run's state and the run that owns a shoot, and the audit log's
// events tied to the run.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { embeddedShootWrites } from "../../lib/garden/embedded/embedded-shoot-writes.ts";
import { type PgBoss, startQueue } from "../../lib/jobs/queue.ts";
import { seedLandscape } from "../../lib/server/seed-landscape.ts";
import { startUpdateRunWorker } from "../../lib/server/update-run-job.ts";
import { call } from "../support/api-client.ts";
import { type AppServer, startWebServer } from "../support/app-server.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { FAST, waitUntil } from "../support/jobs.ts";
import { smallLandscape } from "../support/small-landscape.ts";
import { tokenHeader } from "../support/tokens.ts";

let database: TestDatabase;
let server: AppServer;
let boss: PgBoss;
let operator: { authorization: string };
let viewer: { authorization: string };

const RUNS = "/api/v1/update-runs";
const post = (path: string, body?: unknown, headers: Record<string, string> = operator) =>
  call(server.baseUrl, path, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
const get = (path: string, headers: Record<string, string> = operator) => call(server.baseUrl, path, { headers });
const shoots = (...names: string[]) => names.map((name) => ({ namespace: "garden-dev", name }));

beforeAll(async () => {
  database = await createTestDatabase();
  const now = Date.now();
  await seedLandscape(database.db, smallLandscape(now, 6), { actor: "test", now });
  operator = await tokenHeader(database.db, "ops", "operator", "dev");
  viewer = await tokenHeader(database.db, "watcher", "viewer", "*");
  server = await startWebServer(database.url);
  boss = await startQueue(database.url, { expireSeconds: FAST.jobExpireSeconds, supervise: true });
  await startUpdateRunWorker(
    database.db,
    boss,
    embeddedShootWrites(database.db, () => boss),
    { pollSeconds: 0.5, jobExpireSeconds: FAST.jobExpireSeconds },
  );
}, 180_000);

afterAll(async () => {
  await boss?.stop({ graceful: false });
  await server?.stop();
  await database?.drop();
});

describe("POST /api/v1/update-runs", () => {
  it("previews with dryRun: 200 with each stage and shoot", async () => {
    const answer = await post(RUNS, {
      name: "preview",
      target: { kubernetes: "1.31" },
      stages: [{ name: "all", filter: { namespace: "garden-dev" }, when: "now" }],
      dryRun: true,
    });
    expect(answer.status).toBe(200);
    expect(answer.body.name).toBe("preview");
    expect(answer.body.stages[0].items).toHaveLength(6);
    expect(answer.body.stages[0].items[1]).toMatchObject({ name: "cluster-1", outcome: "act" });
  });

  it("answers bad input 422 naming the field, and a viewer 403", async () => {
    const one = [{ name: "a", shoots: shoots("cluster-1"), when: "now" }];
    const cases: [unknown, string][] = [
      [{ name: "x", target: { kubernetes: "1.99" }, stages: one }, "target.kubernetes"],
      [{ name: "x", target: { action: "maintain" }, stages: [] }, "stages"],
      [
        { name: "x", target: { action: "maintain" }, stages: [{ ...one[0], soakSeconds: 10 ** 9 }] },
        "stages[0].soakSeconds",
      ],
      [
        {
          name: "x",
          target: { action: "maintain" },
          stages: [{ name: "a", filter: { q: "nothing-at-all" }, when: "now" }],
        },
        "stages[0].filter",
      ],
      [
        { name: "x", target: { action: "maintain" }, stages: one, healthGate: { healthySeconds: -5 } },
        "healthGate.healthySeconds",
      ],
      [{ target: { action: "maintain" }, stages: one }, "name"],
    ];
    for (const [body, field] of cases) {
      const answer = await post(RUNS, body);
      expect([answer.status, answer.headers.get("content-type"), answer.body.errors?.[0]?.field]).toEqual([
        422,
        "application/problem+json",
        field,
      ]);
    }
    expect((await post(RUNS, { name: "x", target: { action: "maintain" }, stages: one }, viewer)).status).toBe(403);
  });

  it("starts: 201 with an id; waits for approval, then runs to Succeeded; 409 naming the state after", async () => {
    const started = await post(RUNS, {
      name: "two stages",
      target: { kubernetes: "1.31.4" },
      stages: [
        { name: "canary", shoots: shoots("cluster-1"), when: "now" },
        { name: "rest", shoots: shoots("cluster-2", "cluster-3"), when: "now", approval: true },
      ],
    });
    expect(started.status).toBe(201);
    expect(started.body.total).toBe(3);
    const id: string = started.body.id;

    // Another run on a shoot this one owns: 409 naming it.
    const owned = await post(RUNS, {
      name: "again",
      target: { action: "maintain" },
      stages: [{ name: "a", shoots: shoots("cluster-2"), when: "now" }],
    });
    expect(owned.status).toBe(409);
    expect(owned.body.detail).toContain(`Update run "two stages" (${id})`);

    const waiting = await waitUntil("the approval to be asked for", async () => {
      const answer = await get(`${RUNS}/${id}`);
      return answer.body.state === "WaitingForApproval" && answer.body;
    });
    expect(waiting.stages.map((s: { state: string }) => s.state)).toEqual(["Succeeded", "WaitingForApproval"]);
    expect(waiting.stages[0].items[0]).toMatchObject({ name: "cluster-1", state: "Succeeded" });
    expect(waiting.message).toBe('Stage "rest" waits for approval.');
    expect((await post(`${RUNS}/${id}/approve`, undefined, viewer)).status).toBe(403);
    expect((await post(`${RUNS}/${id}/resume`)).status).toBe(409);

    const approved = await post(`${RUNS}/${id}/approve`);
    expect(approved.status).toBe(202);
    expect(approved.body.stages[1]).toMatchObject({ approvedBy: "token:ops" });
    const done = await waitUntil("the run to end", async () => {
      const answer = await get(`${RUNS}/${id}`);
      return answer.body.state === "Succeeded" && answer.body;
    });
    expect(done.stages[1].items.map((i: { state: string }) => i.state)).toEqual(["Succeeded", "Succeeded"]);
    const late = await post(`${RUNS}/${id}/pause`);
    expect(late.status).toBe(409);
    expect(late.body.detail).toContain("is Succeeded");

    const list = await get(`${RUNS}?limit=10`, viewer);
    expect(list.body.items[0]).toMatchObject({ id, state: "Succeeded", total: 3 });
    const audit = await get(`/api/v1/audit?limit=100`, viewer);
    const ofRun = audit.body.items.filter((e: { updateRunId?: string }) => e.updateRunId === id);
    expect(ofRun.filter((e: { action: string }) => e.action === "shoot.update")).toHaveLength(3);
    expect(ofRun.map((e: { action: string }) => e.action)).toContain("update-run.approve");
  });

  it("pauses, resumes and cancels over HTTP (202), 404 for an unknown run", async () => {
    const started = await post(RUNS, {
      name: "windowed",
      target: { action: "maintain" },
      stages: [{ name: "w", shoots: shoots("cluster-4"), when: "window" }],
    });
    const id: string = started.body.id;
    const paused = await post(`${RUNS}/${id}/pause`);
    expect(paused.status).toBe(202);
    const resumed = await post(`${RUNS}/${id}/resume`);
    // Paused before the job's first step, it resumes to Pending (the step starts it).
    expect([resumed.status, resumed.body.state]).toEqual([202, paused.body.startedAt ? "Running" : "Pending"]);
    const cancelled = await post(`${RUNS}/${id}/cancel`);
    expect([cancelled.status, cancelled.body.state]).toEqual([202, "Cancelled"]);
    expect(cancelled.body.stages[0].items[0].state).toBe("Cancelled");
    expect((await get(`${RUNS}/00000000-0000-0000-0000-000000000000`)).status).toBe(404);
  });
});
