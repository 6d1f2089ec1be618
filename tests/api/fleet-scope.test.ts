// The fleet-wide lists for a caller whose role is on one project: GET /api/v1/shoots, its
// summary, the forecast, the audit log and the migrations answer exactly that project's share
// (totals and pages included), a landscape-wide role still sees everything, and a filter on a
// namespace or project that is not the caller's is refused with 403. The answer caches keep
// callers apart: the same query asked by an admin and by a project's viewer, in either order,
// gets each their own answer.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Landscape } from "../../lib/demo/landscape.ts";
import type { Shoot } from "../../lib/gardener/types.ts";
import { seedLandscape } from "../../lib/server/seed-landscape.ts";
import { type ApiResponse, call } from "../support/api-client.ts";
// Seeds Gardener would migrate between (backup configured, ready): the migrations below are admitted.
import { seed } from "../support/builders.ts";
import { type AppServer, startNext } from "../support/app-server.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { smallLandscape } from "../support/small-landscape.ts";
import { tokenHeader } from "../support/tokens.ts";

const DEV = ["cluster-0", "cluster-1", "cluster-2", "cluster-3"];
const PROD = ["prod-0", "prod-1", "prod-2"];
/** A namespace no project claims: only landscape-wide roles see its shoot. */
const STRAY = "stray-0";

/** Project dev with four shoots, prod with three, empty with none, and one shoot in no project. */
function landscape(now: number): Landscape {
  const small = smallLandscape(now, DEV.length);
  const copy = (from: Shoot, namespace: string, name: string): Shoot => ({
    ...structuredClone(from),
    metadata: { ...from.metadata, namespace, name, uid: randomUUID() },
  });
  return {
    ...small,
    seeds: [seed("seed-1"), seed("seed-2")],
    projects: [
      { metadata: { name: "dev" }, spec: { namespace: "garden-dev" } },
      { metadata: { name: "prod" }, spec: { namespace: "garden-prod" } },
      { metadata: { name: "empty" }, spec: { namespace: "garden-empty" } },
    ],
    shoots: [
      ...small.shoots,
      // prod-0 runs 1.30.5, as cluster-0 does: both have a forced update in the forecast.
      ...PROD.map((name, i) => copy(small.shoots[i], "garden-prod", name)),
      copy(small.shoots[0], "garden-stray", STRAY),
    ],
  };
}

let database: TestDatabase;
let server: AppServer;
let admin: Record<string, string>;
let landscapeViewer: Record<string, string>;
let devViewer: Record<string, string>;
let emptyViewer: Record<string, string>;

beforeAll(async () => {
  database = await createTestDatabase();
  await seedLandscape(database.db, landscape(Date.now()), { actor: "test", now: Date.now() });
  server = await startNext(database.url);
  admin = {};
  landscapeViewer = await tokenHeader(database.db, "landscape-viewer", "viewer");
  devViewer = await tokenHeader(database.db, "dev-viewer", "viewer", "dev");
  emptyViewer = await tokenHeader(database.db, "empty-viewer", "viewer", "empty");
  // Events and migrations in both projects (no worker runs: the migrations stay Processing),
  // and an event without a namespace besides the landscape's seeding: a token made.
  for (const [namespace, name] of [
    ["garden-dev", "cluster-1"],
    ["garden-prod", "prod-1"],
  ]) {
    const started = await call(server.baseUrl, `/api/v1/namespaces/${namespace}/shoots/${name}/migrate`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ seedName: "seed-2" }),
    });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
  }
  const token = await call(server.baseUrl, "/api/v1/tokens", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "made-for-the-log", role: "viewer", scope: "*", expiresInDays: null }),
  });
  expect(token.status, JSON.stringify(token.body)).toBe(201);
});

afterAll(async () => {
  await server?.stop();
  await database?.drop();
});

async function get(path: string, headers: Record<string, string>, status = 200): Promise<ApiResponse> {
  const answer = await call(server.baseUrl, path, { headers });
  expect(answer.status, `${path}: ${JSON.stringify(answer.body)}`).toBe(status);
  return answer;
}

const names = (items: readonly { name: string }[]) => items.map((i) => i.name).sort();
const namespacesOf = (items: readonly { namespace?: string }[]) => [...new Set(items.map((i) => i.namespace))].sort();

/** The 403 for the dev viewer's filter on prod's namespace (or project): says what and what is needed. */
function expectRefusedForProd(answer: ApiResponse, namespace = true) {
  expect(answer.headers.get("content-type")).toBe("application/problem+json");
  expect(answer.body.detail).toBe(
    `The token "dev-viewer" has no role on project prod${namespace ? " (namespace garden-prod)" : ""}; this needs viewer.`,
  );
}

describe("GET /api/v1/shoots", () => {
  it("shows a landscape-wide viewer every shoot", async () => {
    const { body } = await get("/api/v1/shoots", landscapeViewer);
    expect(body.total).toBe(8);
    expect(names(body.items)).toEqual([...DEV, ...PROD, STRAY].sort());
  });

  it("shows a project's viewer that project's shoots only, paged with the right total", async () => {
    const { body } = await get("/api/v1/shoots", devViewer);
    expect(body.total).toBe(4);
    expect(names(body.items)).toEqual(DEV);
    expect(namespacesOf(body.items)).toEqual(["garden-dev"]);

    const first = (await get("/api/v1/shoots?limit=3&sort=-name", devViewer)).body;
    expect(first.total).toBe(4);
    expect(first.items.map((i: { name: string }) => i.name)).toEqual(["cluster-3", "cluster-2", "cluster-1"]);
    const second = (
      await get(`/api/v1/shoots?limit=3&sort=-name&cursor=${encodeURIComponent(first.nextCursor)}`, devViewer)
    ).body;
    expect(second).toMatchObject({ total: 4, nextCursor: null });
    expect(second.items.map((i: { name: string }) => i.name)).toEqual(["cluster-0"]);

    // Filters narrow within the project, never beyond it.
    const searched = (await get("/api/v1/shoots?q=prod", devViewer)).body;
    expect(searched).toMatchObject({ total: 0, items: [] });
    expect((await get("/api/v1/shoots?namespace=garden-dev&project=dev", devViewer)).body.total).toBe(4);
  });

  it("answers a viewer of a project without shoots an empty list", async () => {
    expect((await get("/api/v1/shoots", emptyViewer)).body).toEqual({ items: [], total: 0, nextCursor: null });
  });

  it("refuses a filter on another project's namespace or on another project with 403", async () => {
    expectRefusedForProd(await get("/api/v1/shoots?namespace=garden-prod", devViewer, 403));
    expectRefusedForProd(await get("/api/v1/shoots?project=prod", devViewer, 403), false);
    const stray = await get("/api/v1/shoots?namespace=garden-stray", devViewer, 403);
    expect(stray.body.detail).toBe(
      'The token "dev-viewer" has no role on the whole landscape (namespace garden-stray is in no project); this needs viewer.',
    );
    // The landscape's roles may filter on anything.
    expect((await get("/api/v1/shoots?namespace=garden-prod", landscapeViewer)).body.total).toBe(3);
  });

  it("never serves one caller's cached answer to another", async () => {
    const query = "/api/v1/shoots?sort=name&limit=20";
    expect((await get(query, admin)).body.total).toBe(8);
    expect(names((await get(query, devViewer)).body.items)).toEqual(DEV);
    expect((await get(query, emptyViewer)).body.total).toBe(0);
    expect((await get(query, admin)).body.total).toBe(8);

    const other = "/api/v1/shoots?sort=-name&limit=20";
    expect((await get(other, devViewer)).body.total).toBe(4);
    expect(names((await get(other, admin)).body.items)).toEqual([...DEV, ...PROD, STRAY].sort());
    expect((await get(other, devViewer)).body.total).toBe(4);
    // A refusal is not cached as an answer either.
    await get("/api/v1/shoots?namespace=garden-prod", admin);
    await get("/api/v1/shoots?namespace=garden-prod", devViewer, 403);
  });
});

describe("GET /api/v1/shoots/summary", () => {
  const counted = (body: { byStatus: Record<string, number> }) =>
    Object.values(body.byStatus).reduce((a, b) => a + b, 0);

  it("counts every shoot for a landscape-wide viewer, and the project's only for its viewer", async () => {
    const all = (await get("/api/v1/shoots/summary", landscapeViewer)).body;
    expect(all.total).toBe(8);
    expect(counted(all)).toBe(8);
    // 1.30.5 expires in 20 days: cluster-0, prod-0 and the stray shoot.
    expect(all.expiringWithinDays).toEqual({ "7": 0, "30": 3 });

    const dev = (await get("/api/v1/shoots/summary", devViewer)).body;
    expect(dev.total).toBe(4);
    expect(counted(dev)).toBe(4);
    expect(dev.expiringWithinDays).toEqual({ "7": 0, "30": 1 });
  });

  it("counts nothing for a viewer of a project without shoots", async () => {
    const empty = (await get("/api/v1/shoots/summary", emptyViewer)).body;
    expect(empty.total).toBe(0);
    expect(counted(empty)).toBe(0);
    expect(empty.expiringWithinDays).toEqual({ "7": 0, "30": 0 });
  });

  it("refuses a filter on another project's namespace or on another project with 403", async () => {
    expectRefusedForProd(await get("/api/v1/shoots/summary?namespace=garden-prod", devViewer, 403));
    expectRefusedForProd(await get("/api/v1/shoots/summary?project=prod", devViewer, 403), false);
  });

  it("keeps callers apart, in either order", async () => {
    expect((await get("/api/v1/shoots/summary", admin)).body.total).toBe(8);
    expect((await get("/api/v1/shoots/summary", devViewer)).body.total).toBe(4);
    expect((await get("/api/v1/shoots/summary", admin)).body.total).toBe(8);
  });
});

describe("GET /api/v1/forecast", () => {
  it("forecasts every shoot for a landscape-wide viewer, and the project's only for its viewer", async () => {
    const all = (await get("/api/v1/forecast?days=30", landscapeViewer)).body;
    expect(namespacesOf(all.items)).toEqual(["garden-dev", "garden-prod", "garden-stray"]);
    expect(names(all.items)).toEqual(["cluster-0", "prod-0", STRAY]);

    const dev = (await get("/api/v1/forecast?days=30", devViewer)).body;
    expect(names(dev.items)).toEqual(["cluster-0"]);
    expect(dev.problems).toEqual([]);
    // The same as asking for the namespace by name (but for from and to: the two answers may be a
    // second apart).
    const {
      from: _from,
      to: _to,
      ...byName
    } = (await get("/api/v1/forecast?days=30&namespace=garden-dev", devViewer)).body;
    const { from: _f, to: _t, ...asked } = dev;
    expect(byName).toEqual(asked);
  });

  it("forecasts nothing for a viewer of a project without shoots", async () => {
    const empty = (await get("/api/v1/forecast?days=30", emptyViewer)).body;
    expect(empty).toMatchObject({ days: 30, items: [], problems: [] });
  });

  it("refuses another project's namespace with 403", async () => {
    expectRefusedForProd(await get("/api/v1/forecast?namespace=garden-prod", devViewer, 403));
    expect(names((await get("/api/v1/forecast?namespace=garden-prod", landscapeViewer)).body.items)).toEqual([
      "prod-0",
    ]);
  });

  it("keeps callers apart in its caches, in either order", async () => {
    expect(names((await get("/api/v1/forecast?days=90", admin)).body.items)).toHaveLength(3);
    expect(names((await get("/api/v1/forecast?days=90", devViewer)).body.items)).toEqual(["cluster-0"]);
    expect((await get("/api/v1/forecast?days=90", emptyViewer)).body.items).toEqual([]);
    expect(names((await get("/api/v1/forecast?days=7", devViewer)).body.items)).toEqual([]);
    expect(names((await get("/api/v1/forecast?days=60", devViewer)).body.items)).toEqual(["cluster-0"]);
    expect(names((await get("/api/v1/forecast?days=60", admin)).body.items)).toHaveLength(3);
  });
});

describe("GET /api/v1/audit", () => {
  type Event = { id: string; action: string; target: { kind: string; namespace?: string; name?: string } };

  it("shows a landscape-wide viewer every event, with and without a namespace", async () => {
    const events: Event[] = (await get("/api/v1/audit", landscapeViewer)).body.items;
    expect(events.map((e) => e.action)).toEqual(
      expect.arrayContaining(["landscape.seed", "token.create", "shoot.migrate"]),
    );
    expect(namespacesOf(events.map((e) => e.target))).toEqual(["garden-dev", "garden-prod", undefined]);
  });

  it("shows a project's viewer the events on that project's namespace only, paged", async () => {
    const dev: Event[] = (await get("/api/v1/audit", devViewer)).body.items;
    expect(dev.length).toBeGreaterThan(0);
    expect(dev.every((e) => e.target.namespace === "garden-dev")).toBe(true);
    expect(dev.map((e) => `${e.action} ${e.target.name}`)).toContain("shoot.migrate cluster-1");
    // Exactly what the landscape sees of that namespace.
    const landscapeDev: Event[] = (await get("/api/v1/audit?namespace=garden-dev", admin)).body.items;
    expect(dev.map((e) => e.id)).toEqual(landscapeDev.map((e) => e.id));

    // Page by page, one event at a time: the same events, and the cursor ends.
    const paged: string[] = [];
    let cursor: string | null = null;
    do {
      const page: ApiResponse = await get(`/api/v1/audit?limit=1${cursor ? `&cursor=${cursor}` : ""}`, devViewer);
      paged.push(...page.body.items.map((e: Event) => e.id));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(paged).toEqual(dev.map((e) => e.id));

    // Events without a namespace are the landscape's.
    expect((await get("/api/v1/audit?kind=ApiToken", devViewer)).body.items).toEqual([]);
    expect((await get("/api/v1/audit?kind=ApiToken", admin)).body.items.length).toBeGreaterThan(0);
  });

  it("shows a viewer of a project without shoots no event", async () => {
    expect((await get("/api/v1/audit", emptyViewer)).body).toEqual({ items: [], nextCursor: null });
  });

  it("refuses a filter on another project's namespace with 403", async () => {
    expectRefusedForProd(await get("/api/v1/audit?namespace=garden-prod", devViewer, 403));
  });
});

describe("GET /api/v1/migrations", () => {
  it("lists every migration for a landscape-wide viewer", async () => {
    const all = (await get("/api/v1/migrations", landscapeViewer)).body.items;
    expect(all.map((m: { namespace: string; name: string }) => `${m.namespace}/${m.name}`).sort()).toEqual([
      "garden-dev/cluster-1",
      "garden-prod/prod-1",
    ]);
  });

  it("lists a project's viewer that project's migrations only, running ones too", async () => {
    for (const query of ["", "?active=true", "?limit=1"]) {
      const dev = (await get(`/api/v1/migrations${query}`, devViewer)).body.items;
      expect(dev.map((m: { namespace: string; name: string }) => `${m.namespace}/${m.name}`)).toEqual([
        "garden-dev/cluster-1",
      ]);
    }
  });

  it("lists a viewer of a project without shoots no migration", async () => {
    expect((await get("/api/v1/migrations", emptyViewer)).body).toEqual({ items: [] });
  });
});
