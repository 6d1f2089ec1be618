// GET /api/v1/migrations over HTTP: control-plane migrations across the fleet, newest first. A
// migration started through the API is listed as active while it runs (with its steps and
// progress) and leaves the active list once it has finished, staying in the full list.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Landscape } from "../../lib/demo/landscape.ts";
import type { PgBoss } from "../../lib/jobs/queue.ts";
import { seedLandscape } from "../../lib/server/seed-landscape.ts";
import { call } from "../support/api-client.ts";
import { type AppServer, startNext } from "../support/app-server.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { startTestWorker, waitUntil } from "../support/jobs.ts";
import { seed } from "../support/builders.ts";
import { smallLandscape } from "../support/small-landscape.ts";

function landscape(): Landscape {
  const l = smallLandscape(Date.now(), 4);
  l.seeds = [seed("seed-1"), seed("seed-2")];
  return l;
}

let database: TestDatabase;
let server: AppServer;
let base: string;
let worker: PgBoss | undefined;

beforeAll(async () => {
  database = await createTestDatabase();
  await seedLandscape(database.db, landscape(), { actor: "test", now: Date.now() });
  // `next start` only serves (and queues jobs); the flow runs in the worker started below, once
  // the test has seen the migration waiting.
  server = await startNext(database.url);
  base = server.baseUrl;
});

afterAll(async () => {
  await worker?.stop({ graceful: false });
  await server?.stop();
  await database?.drop();
});

const migrate = (name: string, seedName: string) =>
  call(base, `/api/v1/namespaces/garden-dev/shoots/${name}/migrate`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ seedName }),
  });

async function migrations(query = "") {
  const r = await call(base, `/api/v1/migrations${query ? `?${query}` : ""}`);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.items as any[];
}

describe("GET /api/v1/migrations", () => {
  it("is empty before any migration", async () => {
    expect(await migrations()).toEqual([]);
    expect(await migrations("active=true")).toEqual([]);
    expect(await migrations("active=false")).toEqual([]);
  });

  it("lists a started migration as active, newest first, with its steps and progress", async () => {
    const asked = Date.now();
    expect((await migrate("cluster-1", "seed-2")).status).toBe(202);
    const answered = Date.now();
    expect((await migrate("cluster-2", "seed-2")).status).toBe(202);

    const active = await migrations("active=true");
    expect(active.map((m) => m.name)).toEqual(["cluster-2", "cluster-1"]);
    const first = active[1];
    expect(first).toMatchObject({
      namespace: "garden-dev",
      name: "cluster-1",
      actor: "admin-token",
      source: "seed-1",
      destination: "seed-2",
      state: "Processing",
      // No worker runs yet: the migration waits for ShootReadyForMigration, before Gardener's Migrate
      // operation starts (the shoot keeps its lastOperation; the migration reports Migrate Pending).
      lastOperation: { type: "Migrate", state: "Pending" },
    });
    expect(first.id).toEqual(expect.any(String));
    // Started while the request was served.
    expect(Date.parse(first.startedAt)).toBeGreaterThanOrEqual(asked);
    expect(Date.parse(first.startedAt)).toBeLessThanOrEqual(answered);
    expect(first.finishedAt).toBeUndefined();
    expect(first.lastOperation.progress).toBeLessThan(100);
    expect(first.steps.length).toBeGreaterThanOrEqual(5);
    expect(first.steps.every((s: any) => typeof s.name === "string" && s.outcome === null)).toBe(true);

    // Without `active`, or with active=false, every migration is listed, newest first.
    expect((await migrations()).map((m) => m.name)).toEqual(["cluster-2", "cluster-1"]);
    expect((await migrations("active=false")).map((m) => m.name)).toEqual(["cluster-2", "cluster-1"]);
    expect((await migrations("limit=1")).map((m) => m.name)).toEqual(["cluster-2"]);
    expect((await migrations("active=true&limit=1")).map((m) => m.name)).toEqual(["cluster-2"]);
  });

  it("drops a migration from the active list once it has finished, and keeps it in the full list", async () => {
    worker = await startTestWorker(database.url, database.db);
    await waitUntil("both migrations to finish", async () => (await migrations("active=true")).length === 0, 60_000);

    const all = await migrations();
    expect(all.map((m) => m.name)).toEqual(["cluster-2", "cluster-1"]);
    for (const m of all) {
      expect(m.state).toBe("Succeeded");
      expect(Date.parse(m.finishedAt)).toBeGreaterThanOrEqual(Date.parse(m.startedAt));
      expect(m.lastOperation.progress).toBe(100);
      expect(m.steps.every((s: any) => s.outcome !== null && s.startedAt && s.endedAt)).toBe(true);
    }
    // The shoot moved: its own view agrees with the fleet's.
    const view = await call(base, "/api/v1/namespaces/garden-dev/shoots/cluster-1/migration");
    expect(view.body.seed).toBe("seed-2");
    expect(view.body.migration.id).toBe(all[1].id);
  });

  it("refuses a body that names no seed with 400 naming the field", async () => {
    const r = await call(base, "/api/v1/namespaces/garden-dev/shoots/cluster-1/migrate", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ seedName: "Not A Seed!" }),
    });
    expect(r.status).toBe(400);
    expect(r.body.detail).toBe('The body must be {"seedName": "<destination seed>"}.');
    expect(r.body.errors.map((e: any) => e.field)).toEqual(["seedName"]);
  });

  it("refuses bad and unknown parameters with 400 naming them", async () => {
    for (const [query, field] of [
      ["active=yes", "query.active"],
      ["limit=0", "query.limit"],
      ["limit=501", "query.limit"],
      ["limit=ten", "query.limit"],
      ["state=Processing", "query.state"],
      ["active=true&active=false", "query.active"],
    ] as const) {
      const r = await call(base, `/api/v1/migrations?${query}`);
      expect(r.status, query).toBe(400);
      expect(r.headers.get("content-type")).toBe("application/problem+json");
      expect(
        r.body.errors.map((e: any) => e.field),
        query,
      ).toContain(field);
    }
  });
});
