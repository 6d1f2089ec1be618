// POST|GET /api/v1/bulk-actions over HTTP on the built app: the preview and the start as the
// contract says them (200 with items, 202 with id), the caller's role per shoot, bad input as 422
// problems naming the field, a run followed to Succeeded (a worker in this process works the
// queue, as `npm start`'s main process does) with its audit events found by the bulk id, cancel.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { embeddedShootWrites } from "../../lib/garden/embedded/embedded-shoot-writes.ts";
import { type PgBoss, startQueue } from "../../lib/jobs/queue.ts";
import { startBulkActionWorker } from "../../lib/server/bulk-action-job.ts";
import { seedLandscape } from "../../lib/server/seed-landscape.ts";
import { call } from "../support/api-client.ts";
import { type AppServer, startWebServer } from "../support/app-server.ts";
import { shoot, worker } from "../support/builders.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { FAST, waitUntil } from "../support/jobs.ts";
import { smallLandscape } from "../support/small-landscape.ts";
import { tokenHeader } from "../support/tokens.ts";

let database: TestDatabase;
let server: AppServer;
let boss: PgBoss;
let operator: { authorization: string };
let viewer: { authorization: string };

const post = (body: unknown, headers: Record<string, string> = operator) =>
  call(server.baseUrl, "/api/v1/bulk-actions", {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });

beforeAll(async () => {
  database = await createTestDatabase();
  const now = Date.now();
  const landscape = smallLandscape(now, 4);
  const other = shoot("1.31.2", { workers: [worker("pool-a", "gardenlinux", "1592.4.0")] });
  other.metadata = { ...other.metadata, name: "prod-0", namespace: "garden-prod", uid: randomUUID() };
  other.spec.seedName = "seed-1";
  other.status = { ...other.status, seedName: "seed-1" };
  landscape.shoots.push(other);
  landscape.projects.push({ metadata: { name: "prod" }, spec: { namespace: "garden-prod" } });
  await seedLandscape(database.db, landscape, { actor: "test", now });
  operator = await tokenHeader(database.db, "ops", "operator", "dev");
  viewer = await tokenHeader(database.db, "watcher", "viewer", "*");
  server = await startWebServer(database.url);
  boss = await startQueue(database.url, { expireSeconds: FAST.jobExpireSeconds, supervise: true });
  await startBulkActionWorker(
    database.db,
    boss,
    embeddedShootWrites(database.db, () => boss),
    {
      jobExpireSeconds: FAST.jobExpireSeconds,
    },
  );
}, 180_000);

afterAll(async () => {
  await boss?.stop({ graceful: false });
  await server?.stop();
  await database?.drop();
});

describe("POST /api/v1/bulk-actions", () => {
  it("previews with dryRun: 200 and one item per shoot, a shoot of another project refused by role", async () => {
    const answer = await post({
      action: "set-auto-update",
      shoots: [
        { namespace: "garden-dev", name: "cluster-1" },
        { namespace: "garden-prod", name: "prod-0" },
      ],
      params: { kubernetesVersion: true },
      dryRun: true,
    });
    expect(answer.status).toBe(200);
    expect(answer.body.counts).toEqual({ act: 1, unchanged: 0, refused: 1 });
    expect(answer.body.items[1]).toMatchObject({
      name: "prod-0",
      outcome: "refused",
      message: 'The token "ops" has no role on project prod (namespace garden-prod); this needs operator.',
    });
  });

  it("answers bad input 422 naming the field, and a viewer 403", async () => {
    const one = [{ namespace: "garden-dev", name: "cluster-1" }];
    const unknown = await post({ action: "explode", shoots: one });
    expect(unknown.status).toBe(422);
    expect(unknown.headers.get("content-type")).toBe("application/problem+json");
    expect(unknown.body.errors[0].field).toBe("action");
    expect((await post({ action: "maintain", filter: { status: "Bogus" } })).body.errors[0].field).toBe(
      "filter.status",
    );
    const nothing = await post({ action: "maintain", filter: { q: "no-such-cluster" } });
    expect([nothing.status, nothing.body.errors[0].field]).toEqual([422, "filter"]);
    const empty = await post({ action: "maintain", shoots: [] });
    expect([empty.status, empty.body.errors[0].field]).toEqual([422, "shoots"]);
    const window = await post({ action: "set-window", shoots: one, params: { begin: "x", end: "230000+0000" } });
    expect(window.status).toBe(422);
    expect(window.body.errors[0].field).toMatch(/^params\./);
    expect((await post({ action: "maintain", shoots: one }, viewer)).status).toBe(403);
  });

  it("starts: 202 with an id; the action ends Succeeded with one audit event per shoot under its bulk id", async () => {
    const names = ["cluster-1", "cluster-2"];
    const started = await post({
      action: "set-window",
      shoots: names.map((name) => ({ namespace: "garden-dev", name })),
      params: { begin: "010000+0000", end: "020000+0000" },
    });
    expect(started.status).toBe(202);
    expect(started.body.total).toBe(2);
    const id: string = started.body.id;
    const done = await waitUntil("the bulk action to end", async () => {
      const answer = await call(server.baseUrl, `/api/v1/bulk-actions/${id}`, { headers: operator });
      return answer.body.state !== "Running" && answer.body;
    });
    expect(done).toMatchObject({ state: "Succeeded", actor: "token:ops", progress: 1 });
    expect(done.items.map((i: { state: string }) => i.state)).toEqual(["Succeeded", "Succeeded"]);
    const audit = await call(server.baseUrl, `/api/v1/audit?bulkAction=${id}`);
    expect(audit.body.items).toHaveLength(2);
    expect(audit.body.items.every((e: { bulkActionId: string }) => e.bulkActionId === id)).toBe(true);
    const list = await call(server.baseUrl, "/api/v1/bulk-actions?limit=1", { headers: operator });
    expect(list.body.items[0]).toMatchObject({ id, state: "Succeeded" });
    // Ended: nothing to cancel.
    const cancel = await call(server.baseUrl, `/api/v1/bulk-actions/${id}/cancel`, {
      method: "POST",
      headers: operator,
    });
    expect(cancel.status).toBe(409);
    expect((await call(server.baseUrl, `/api/v1/bulk-actions/${randomUUID()}`)).status).toBe(404);
  });
});
