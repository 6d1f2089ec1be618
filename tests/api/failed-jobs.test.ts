// A background job whose retries ran out is not dropped silently: admins see it in
// GET /api/v1/jobs with its error and what it was for, and POST /api/v1/jobs/{id}/retry runs it
// again (audited); nobody else sees or retries jobs.
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startQueue } from "../../lib/jobs/queue.ts";
import { seedLandscape } from "../../lib/server/seed-landscape.ts";
import { call } from "../support/api-client.ts";
import { type AppServer, startNext } from "../support/app-server.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { smallLandscape } from "../support/small-landscape.ts";
import { tokenHeader } from "../support/tokens.ts";

let database: TestDatabase;
let server: AppServer;
let failedId: string;

beforeAll(async () => {
  database = await createTestDatabase();
  const now = Date.now();
  await seedLandscape(database.db, smallLandscape(now, 2), { actor: "test", now });
  // A reconcile step that failed with no retries left, as a worker leaves it.
  const boss = await startQueue(database.url, { expireSeconds: 60, supervise: false });
  failedId = (await boss.send(
    "reconcile",
    { namespace: "garden-dev", name: "cluster-1", step: 3 },
    { retryLimit: 0 },
  ))!;
  await boss.fail("reconcile", failedId, { message: "the seed's API server did not answer" });
  await boss.stop({ graceful: false });
  server = await startNext(database.url);
}, 180_000);
afterAll(async () => {
  await server?.stop();
  await database?.drop();
});

async function jobState(id: string): Promise<string> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    return (await client.query("SELECT state FROM pgboss.job WHERE id = $1", [id])).rows[0].state;
  } finally {
    await client.end();
  }
}

it("lists a failed job for admins with its error and purpose, and nobody else", async () => {
  const list = await call(server.baseUrl, "/api/v1/jobs");
  expect(list.status).toBe(200);
  expect(list.body.total).toBe(1);
  expect(list.body.items[0]).toMatchObject({
    id: failedId,
    queue: "reconcile",
    what: "a reconcile step of garden-dev/cluster-1",
    error: "the seed's API server did not answer",
    data: { namespace: "garden-dev", name: "cluster-1", step: 3 },
  });
  const viewer = await tokenHeader(database.db, "a-viewer", "viewer");
  expect((await call(server.baseUrl, "/api/v1/jobs", { headers: viewer })).status).toBe(403);
  expect(
    (await call(server.baseUrl, `/api/v1/jobs/${failedId}/retry`, { method: "POST", headers: viewer })).status,
  ).toBe(403);
  expect(await jobState(failedId)).toBe("failed");
});

it("retries a failed job once, recording who did, and refuses ids that are not failed jobs", async () => {
  const retried = await call(server.baseUrl, `/api/v1/jobs/${failedId}/retry`, { method: "POST" });
  expect(retried.status, JSON.stringify(retried.body)).toBe(202);
  expect(retried.body).toEqual({ id: failedId, queue: "reconcile", state: "retry" });
  expect(await jobState(failedId)).toBe("retry");
  expect((await call(server.baseUrl, "/api/v1/jobs")).body.total).toBe(0);
  const audit = await call(server.baseUrl, "/api/v1/audit?action=job.retry");
  expect(audit.body.items[0]).toMatchObject({
    action: "job.retry",
    target: { kind: "Job", name: `reconcile/${failedId}` },
  });

  const again = await call(server.baseUrl, `/api/v1/jobs/${failedId}/retry`, { method: "POST" });
  expect(again.status).toBe(404);
  expect(again.headers.get("content-type")).toContain("application/problem+json");
  expect((await call(server.baseUrl, "/api/v1/jobs/not-a-uuid/retry", { method: "POST" })).status).toBe(400);
});
