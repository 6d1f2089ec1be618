// No N+1: the number of SQL queries a request makes does not grow with the rows it returns.
// Counted on the node-postgres pool under the client (Prisma's queries and the raw ones), around
// the same use cases the route handlers call.
import { listShootsParams } from "../../lib/api/operations/shoots.ts";
import { parseQuery } from "../../lib/api/parse-query.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db, poolOf } from "../../lib/db/client.ts";
import { generateLandscape } from "../../lib/demo/landscape.ts";
import { forgetCachedCloudProfiles } from "../../lib/store/cloud-profiles.ts";
import { getShoot } from "../../lib/server/get-shoot.ts";
import { listShoots } from "../../lib/server/list-shoots.ts";
import { maintenancePlan } from "../../lib/server/maintenance-plan.ts";
import { shootHistory } from "../../lib/server/shoot-history.ts";
import { seedLandscape } from "../../lib/server/seed-landscape.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";

let database: TestDatabase;
let db: Db;
let queries: string[] = [];
const now = Date.now();

beforeAll(async () => {
  database = await createTestDatabase();
  await seedLandscape(database.db, generateLandscape({ now, shoots: 300 }), { actor: "test", now });
  db = createDb(database.url, 4);
  const pool = poolOf(db)!;
  const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  pool.query = ((...args: unknown[]) => {
    queries.push(String(typeof args[0] === "object" ? (args[0] as { text: string }).text : args[0]));
    return query(...args);
  }) as typeof pool.query;
});

afterAll(async () => {
  await db?.$disconnect();
  await database?.drop();
});

async function counted(work: () => Promise<unknown>): Promise<number> {
  queries = [];
  await work();
  return queries.length;
}

describe("queries per request", () => {
  it("listing makes one query (page and total together) whatever the page size, once profiles are cached", async () => {
    forgetCachedCloudProfiles();
    const cold = await counted(() => listShoots(db, parseQuery(listShootsParams, new URLSearchParams("limit=5")), now));
    expect(cold).toBe(3); // + the cloud profiles and the namespaced ones, cached from then on
    for (const query of [
      "limit=5",
      "limit=500",
      "status=healthy&limit=200",
      "classification=deprecated&sort=-expiry&limit=300",
      "project=payments&cloudProfile=aws&sort=nextMaintenance&limit=50",
      "q=prod&limit=100",
      "status=healthy&project=payments&limit=50",
    ]) {
      const n = await counted(async () => {
        const page = await listShoots(db, parseQuery(listShootsParams, new URLSearchParams(query)), now);
        expect(page.items.length).toBeGreaterThan(0);
      });
      // The total from kept counts beside the page, or a search's bounded count with its page; only
      // a status (or expiry) with another filter than namespaces counts rows, on a second connection.
      expect(n, query).toBe(query.startsWith("status=healthy&project") ? 2 : 1);
    }
  });

  it("reading one shoot is one query; its plan two; its history three", async () => {
    const page = await listShoots(db, parseQuery(listShootsParams, new URLSearchParams("limit=1")), now);
    const { namespace, name } = JSON.parse(page.items[0]);
    expect(await counted(() => getShoot(db, namespace, name))).toBe(1);
    expect(await counted(() => maintenancePlan(db, namespace, name, now))).toBe(2);
    expect(await counted(() => shootHistory(db, namespace, name, 100))).toBe(3);
  });
});
