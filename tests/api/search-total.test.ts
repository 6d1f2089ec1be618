// A search's total over HTTP: counted exactly up to 5,000 matches; past that the answer says
// "more than 5,000" (total 5,000 and totalBounded: true), its pages are still every match in
// order, and an answer that is not a bounded search carries no totalBounded at all.
import { afterAll, beforeAll, expect, it } from "vitest";
import { shootListAnswerSchema } from "../../lib/api/shoot-list.ts";
import { generateLandscape } from "../../lib/demo/landscape.ts";
import { seedLandscape } from "../../lib/server/seed-landscape.ts";
import { type ApiResponse, call } from "../support/api-client.ts";
import { type AppServer, startNext } from "../support/app-server.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";

const SHOOTS = 5_200;
let database: TestDatabase;
let server: AppServer;

beforeAll(async () => {
  database = await createTestDatabase();
  const now = Date.now();
  await seedLandscape(database.db, generateLandscape({ now, shoots: SHOOTS }), { actor: "test", now });
  server = await startNext(database.url);
}, 180_000);

afterAll(async () => {
  await server?.stop();
  await database?.drop();
});

/** How many shoots' search text holds `word`, counted row by row. */
async function matching(word: string): Promise<number> {
  const [{ n }] = await database.db.$queryRawUnsafe<{ n: number }[]>(
    `SELECT count(*)::int AS n FROM shoots WHERE search_text LIKE $1`,
    `%${word}%`,
  );
  return n;
}

it("says more than 5,000 for a search that matches more, and pages through every match all the same", async () => {
  // Every shoot lives in a garden-<project> namespace, which its search text holds.
  expect(await matching("garden")).toBe(SHOOTS);
  const first = await call(server.baseUrl, "/api/v1/shoots?q=garden&limit=500");
  expect(first.status).toBe(200);
  expect(shootListAnswerSchema.safeParse(first.body).success).toBe(true);
  expect(first.body).toMatchObject({ total: 5_000, totalBounded: true });

  const names: string[] = [];
  let cursor: string | null = null;
  do {
    const page: ApiResponse = await call(
      server.baseUrl,
      `/api/v1/shoots?q=garden&sort=-created&limit=500${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
    );
    expect(page.body).toMatchObject({ total: 5_000, totalBounded: true });
    names.push(...page.body.items.map((s: { namespace: string; name: string }) => `${s.namespace}/${s.name}`));
    cursor = page.body.nextCursor;
  } while (cursor);
  expect(new Set(names).size).toBe(SHOOTS);
}, 120_000);

it("counts a search with fewer matches exactly, and no answer but a bounded search says totalBounded", async () => {
  const few = await call(server.baseUrl, "/api/v1/shoots?q=prod%20eu&limit=5");
  const [{ n }] = await database.db.$queryRawUnsafe<{ n: number }[]>(
    `SELECT count(*)::int AS n FROM shoots WHERE search_text LIKE '%prod%' AND search_text LIKE '%eu%'`,
  );
  expect(n).toBeGreaterThan(0);
  expect(n).toBeLessThanOrEqual(5_000);
  expect(few.body.total).toBe(n);
  expect(few.body).not.toHaveProperty("totalBounded");
  const all = await call(server.baseUrl, "/api/v1/shoots?limit=5");
  expect(all.body.total).toBe(SHOOTS);
  expect(all.body).not.toHaveProperty("totalBounded");
});
