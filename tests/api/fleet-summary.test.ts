// GET /api/v1/shoots/summary over HTTP: each of the fleet page's tiles must count exactly what
// the list selects when the tile is clicked (the other filters kept, the tile's own status or
// expiry horizon in place of the current one), follow writes at once, and refuse the list's
// paging and sorting parameters.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateLandscape } from "../../lib/demo/landscape.ts";
import { ruleMatches } from "../../lib/engine/garden-admission.ts";
import { seedLandscape } from "../../lib/server/seed-landscape.ts";
import { listAdmissionRules } from "../../lib/store/admission-rules.ts";
import { type ApiResponse, call, patch } from "../support/api-client.ts";
import { type AppServer, startNext } from "../support/app-server.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";

let database: TestDatabase;
let server: AppServer;
let base: string;
const now = Date.now();
const DAY = 86_400_000;
const LABELS = ["healthy", "progressing", "unknown", "unhealthy"] as const;

beforeAll(async () => {
  database = await createTestDatabase();
  await seedLandscape(database.db, generateLandscape({ now, shoots: 120 }), { actor: "test", now });
  server = await startNext(database.url);
  base = server.baseUrl;
});

afterAll(async () => {
  await server?.stop();
  await database?.drop();
});

/** Every row the list selects for `query`, through all its pages. */
async function listAll(query: string): Promise<any[]> {
  const items: any[] = [];
  let cursor: string | null = null;
  do {
    const r: ApiResponse = await call(
      base,
      `/api/v1/shoots?${query}${query ? "&" : ""}limit=500${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
    );
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    items.push(...r.body.items);
    cursor = r.body.nextCursor;
  } while (cursor);
  return items;
}

async function summary(query: string) {
  const r = await call(base, `/api/v1/shoots/summary${query ? `?${query}` : ""}`);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body as {
    total: number;
    statusTotal: number;
    expiryTotal: number;
    byStatus: Record<string, number>;
    expiringWithinDays: Record<string, number>;
  };
}

/** `query` with `key` replaced by `value` (or removed). */
function withParam(query: string, key: string, value?: string): string {
  const p = new URLSearchParams(query);
  p.delete(key);
  if (value !== undefined) p.set(key, value);
  return p.toString();
}

/** Every tile against the list's own answer for what clicking the tile selects. */
async function expectSummaryMatchesList(query: string) {
  const rows = await listAll(withParam(withParam(query, "status"), "expiringWithinDays"));
  const tiles = await summary(query);
  expect(tiles.total, `total for "${query}"`).toBe(rows.length);
  for (const label of LABELS) {
    const clicked = await listAll(withParam(query, "status", label));
    expect(tiles.byStatus[label], `${label} for "${query}"`).toBe(clicked.length);
  }
  for (const days of [7, 30]) {
    const clicked = await listAll(withParam(query, "expiringWithinDays", String(days)));
    expect(tiles.expiringWithinDays[String(days)], `expiring within ${days} days for "${query}"`).toBe(clicked.length);
    // The list's earliest expiry is the soonest of all versions a shoot runs, expired ones included.
    expect(clicked.every((r) => r.earliestExpiry && Date.parse(r.earliestExpiry.at) <= now + days * DAY)).toBe(true);
  }
  return { rows, tiles };
}

describe("GET /api/v1/shoots/summary", () => {
  it("counts the whole fleet per status label and per expiry horizon, as the list does", async () => {
    const { tiles } = await expectSummaryMatchesList("");
    expect(tiles.total).toBe(120);
    expect(Object.keys(tiles.byStatus).sort()).toEqual([...LABELS].sort());
    expect(Object.keys(tiles.expiringWithinDays).sort()).toEqual(["30", "7"]);
    // The demo landscape has shoots in several states and versions expiring soon: the test would
    // prove little on a uniform fleet.
    expect(LABELS.filter((l) => tiles.byStatus[l] > 0).length).toBeGreaterThanOrEqual(3);
    expect(tiles.expiringWithinDays["30"]).toBeGreaterThan(tiles.expiringWithinDays["7"]);
    expect(tiles.expiringWithinDays["7"]).toBeGreaterThan(0);
  });

  it("applies the list's filters: namespace, project, cloud profile, seed, text, classification, expiry", async () => {
    const all = await listAll("");
    // The combined query at the end needs a sample whose control plane is deprecated: with the
    // demo's nightly maintenance replayed, most shoots updating automatically are on a supported
    // version, so any unhealthy shoot no longer does.
    const deprecated = (r: (typeof all)[number]) => r.kubernetes.classification === "deprecated";
    const sample = all.find((r) => r.statusLabel === "unhealthy" && deprecated(r)) ?? all.find(deprecated) ?? all[0];
    const queries = [
      `namespace=${sample.namespace}`,
      `project=${sample.project}`,
      `cloudProfile=${sample.cloudProfile}`,
      `seed=${sample.seed}`,
      `q=${encodeURIComponent(sample.name.slice(0, 4))}`,
      "classification=deprecated",
      "classification=supported",
      "expiringWithinDays=30",
      "status=unhealthy",
      `cloudProfile=${sample.cloudProfile}&classification=deprecated&namespace=${sample.namespace}`,
    ];
    for (const query of queries) {
      const { rows } = await expectSummaryMatchesList(query);
      expect(rows.length, `"${query}" selects some shoots`).toBeGreaterThan(0);
      if (!query.startsWith("status=") && !query.startsWith("expiringWithinDays=")) {
        expect(rows.length, `"${query}" leaves some out`).toBeLessThan(all.length);
      }
    }
  });

  it("keeps the other tile's filter: with 30 days chosen, the status tiles count within 30 days; with a status chosen, the expiry tiles count that status", async () => {
    const all = await listAll("");
    const within30 = await summary("expiringWithinDays=30");
    expect(within30.total).toBe(all.length);
    const unhealthyWithin30 = all.filter(
      (r) => r.statusLabel === "unhealthy" && r.earliestExpiry && Date.parse(r.earliestExpiry.at) <= now + 30 * DAY,
    ).length;
    expect(within30.byStatus.unhealthy).toBe(unhealthyWithin30);
    expect(within30.byStatus.unhealthy).toBeLessThan(all.filter((r) => r.statusLabel === "unhealthy").length);
    // The status tiles count out of the 30-day selection, not the whole fleet ("3 of 22", not "3 of 64").
    const listed30 = (await listAll("expiringWithinDays=30")).length;
    expect(within30.statusTotal).toBe(listed30);
    expect(Object.values(within30.byStatus).reduce((a, b) => a + b, 0)).toBe(listed30);
    expect(within30.expiryTotal).toBe(all.length);
    // The 7-day tile still counts 7 days, not the 30 chosen.
    expect(within30.expiringWithinDays["7"]).toBe((await listAll("expiringWithinDays=7")).length);
    const unhealthy = await summary("status=unhealthy");
    expect(unhealthy.expiringWithinDays["30"]).toBe(unhealthyWithin30);
    expect(unhealthy.byStatus.healthy).toBe(all.filter((r) => r.statusLabel === "healthy").length);
    expect(unhealthy.expiryTotal).toBe((await listAll("status=unhealthy")).length);
    expect(unhealthy.statusTotal).toBe(all.length);
  });

  it("counts nothing for filters that select nothing", async () => {
    expect(await summary("namespace=garden-nobody")).toEqual({
      total: 0,
      statusTotal: 0,
      expiryTotal: 0,
      byStatus: { healthy: 0, progressing: 0, unknown: 0, unhealthy: 0 },
      expiringWithinDays: { 7: 0, 30: 0 },
    });
  });

  it("follows a write at once: a shoot moved off an expiring version leaves the expiry tiles", async () => {
    const profiles = (await call(base, "/api/v1/cloudprofiles")).body.items as any[];
    const soon = now + 30 * DAY;
    const expiresSoon = (v: { expiresAt?: string }) => v.expiresAt !== undefined && Date.parse(v.expiresAt) <= soon;
    // A shoot whose only soon-expiring version is its control plane's, with a newer patch of the
    // same minor that does not expire soon: updating to it takes the shoot out of both horizons.
    const candidates = (await listAll("expiringWithinDays=30")).flatMap((row) => {
      if (!expiresSoon(row.kubernetes) || row.workers.some((w: any) => expiresSoon(w.image)) || row.hibernated)
        return [];
      const [major, minor, patchLevel] = row.kubernetes.version.split(".").map(Number);
      const profile = profiles.find((p) => p.metadata.name === row.cloudProfile);
      const target = profile.spec.kubernetes.versions.find((v: any) => {
        const [M, m, p] = v.version.split(".").map(Number);
        return (
          M === major &&
          m === minor &&
          p > patchLevel &&
          v.classification === "supported" &&
          (v.expirationDate === undefined || Date.parse(v.expirationDate) > soon + DAY)
        );
      });
      return target ? [{ row, target: target.version as string }] : [];
    });
    // Not one whose updates the garden's admission webhooks reject (the demo's blocked shoots).
    const rules = await listAdmissionRules(database.db);
    const admitted = [];
    for (const candidate of candidates) {
      const shoot = (await call(base, `/api/v1/namespaces/${candidate.row.namespace}/shoots/${candidate.row.name}`))
        .body;
      if (!rules.some((rule) => ruleMatches(rule, shoot))) admitted.push(candidate);
    }
    expect(admitted.length, "the demo landscape has a shoot to update").toBeGreaterThan(0);
    const { row, target } = admitted[0];
    const query = `namespace=${row.namespace}`;
    const before = await summary(query);

    const r = await patch(base, `/api/v1/namespaces/${row.namespace}/shoots/${row.name}`, {
      metadata: { resourceVersion: row.resourceVersion },
      spec: { kubernetes: { version: target } },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);

    const after = await summary(query);
    expect(after.total).toBe(before.total);
    expect(after.expiringWithinDays["30"]).toBe(before.expiringWithinDays["30"] - 1);
    const wasWithin7 = Date.parse(row.earliestExpiry.at) <= now + 7 * DAY;
    expect(after.expiringWithinDays["7"]).toBe(before.expiringWithinDays["7"] - (wasWithin7 ? 1 : 0));
    await expectSummaryMatchesList(query);
  });

  it("refuses the list's paging and sorting parameters, unknown ones and bad values with 400", async () => {
    for (const [query, field] of [
      ["status=sleepy", "query.status"],
      ["sort=name", "query.sort"],
      ["limit=5", "query.limit"],
      ["cursor=abc", "query.cursor"],
      ["colour=blue", "query.colour"],
      ["classification=ancient", "query.classification"],
      ["expiringWithinDays=-1", "query.expiringWithinDays"],
      ["expiringWithinDays=soon", "query.expiringWithinDays"],
      ["namespace=a&namespace=b", "query.namespace"],
    ] as const) {
      const r = await call(base, `/api/v1/shoots/summary?${query}`);
      expect(r.status, query).toBe(400);
      expect(r.headers.get("content-type")).toBe("application/problem+json");
      expect(
        r.body.errors.map((e: any) => e.field),
        query,
      ).toContain(field);
    }
  });
});
