// No N+1: the number of SQL queries a request makes does not grow with the rows it returns.
// Counted with Prisma's query events, around the same use cases the route handlers call.
import { PrismaPg } from "@prisma/adapter-pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PrismaClient } from "../../lib/db/generated/client.ts";
import { generateLandscape } from "../../lib/demo/landscape.ts";
import { forgetCachedCloudProfiles } from "../../lib/garden/embedded/cloud-profiles.ts";
import { getShoot } from "../../lib/server/get-shoot.ts";
import { listShoots, parseListShootsParams } from "../../lib/server/list-shoots.ts";
import { maintenancePlan } from "../../lib/server/maintenance-plan.ts";
import { shootHistory } from "../../lib/server/shoot-history.ts";
import { seedLandscape } from "../../lib/server/seed-landscape.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";

let database: TestDatabase;
const countingClient = (url: string) =>
  new PrismaClient({ adapter: new PrismaPg({ connectionString: url }), log: [{ emit: "event", level: "query" }] });
let db: ReturnType<typeof countingClient>;
let queries: string[] = [];
const now = Date.now();

beforeAll(async () => {
  database = await createTestDatabase();
  await seedLandscape(database.db, generateLandscape({ now, shoots: 300 }), { actor: "test", now });
  db = countingClient(database.url);
  db.$on("query", (e) => queries.push(e.query));
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
  it("listing makes two queries (page and total) whatever the page size, once profiles are cached", async () => {
    forgetCachedCloudProfiles();
    const cold = await counted(() => listShoots(db as never, parseListShootsParams(new URLSearchParams("limit=5")), now));
    expect(cold).toBe(3); // + the cloud profiles, cached from then on
    for (const query of ["limit=5", "limit=500", "status=healthy&limit=200", "classification=deprecated&sort=-expiry&limit=300", "q=prod&limit=100"]) {
      const n = await counted(async () => {
        const page = await listShoots(db as never, parseListShootsParams(new URLSearchParams(query)), now);
        expect(page.items.length).toBeGreaterThan(0);
      });
      expect(n, query).toBe(2);
    }
  });

  it("reading one shoot is one query; its plan two; its history three", async () => {
    const page = await listShoots(db as never, parseListShootsParams(new URLSearchParams("limit=1")), now);
    const { namespace, name } = page.items[0];
    expect(await counted(() => getShoot(db, namespace, name))).toBe(1);
    expect(await counted(() => maintenancePlan(db as never, namespace, name, now))).toBe(2);
    expect(await counted(() => shootHistory(db as never, namespace, name, 100))).toBe(3);
  });
});
