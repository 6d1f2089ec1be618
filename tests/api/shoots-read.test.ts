// Listing and reading shoots over HTTP, against the production build and a real PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateLandscape } from "../../lib/demo/landscape.ts";
import { resolvedNamespacedProfile } from "../../lib/gardener/profile-reference.ts";
import { startQueue } from "../../lib/jobs/queue.ts";
import { seedLandscape } from "../../lib/server/seed-landscape.ts";
import { type ApiResponse, call } from "../support/api-client.ts";
import { type AppServer, startNext } from "../support/app-server.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";

let database: TestDatabase;
let server: AppServer;
let base: string;
const now = Date.now();
const DAY = 86_400_000;

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

async function listAll(query: string) {
  const items: any[] = [];
  let cursor: string | null = null;
  let total: number;
  do {
    const sep = query ? "&" : "";
    const r: ApiResponse = await call(
      base,
      `/api/v1/shoots?${query}${sep}limit=25${cursor ? `&cursor=${cursor}` : ""}`,
    );
    expect(r.status).toBe(200);
    items.push(...r.body.items);
    total = r.body.total;
    cursor = r.body.nextCursor;
  } while (cursor);
  expect(items.length).toBe(total);
  return items;
}

describe("GET /api/v1/shoots", () => {
  it("pages through every shoot exactly once, sorted by name by default", async () => {
    const first = await call(base, "/api/v1/shoots");
    expect(first.status).toBe(200);
    expect(first.body.items).toHaveLength(50);
    expect(first.body.total).toBe(120);
    const all = await listAll("");
    const keys = all.map((s) => `${s.namespace}/${s.name}`);
    expect(new Set(keys).size).toBe(120);
    const names = all.map((s) => [s.name, s.namespace].join("\u0000"));
    expect(names).toEqual([...names].sort());
  });

  it("lists the shoots of the demo's NamespacedCloudProfile with its versions' expiry, filed under its parent", async () => {
    const landscape = generateLandscape({ now, shoots: 120 });
    const [namespaced] = landscape.namespacedCloudProfiles!;
    const resolved = resolvedNamespacedProfile(namespaced)!;
    const parent = landscape.cloudProfiles.find((p) => p.metadata.name === namespaced.spec.parent.name)!;
    const expiry = (versions: { version: string; expirationDate?: string }[], version: string) => {
      const date = versions.find((v) => v.version === version)?.expirationDate;
      return date === undefined ? null : Date.parse(date);
    };
    const rows = (await listAll(`namespace=${namespaced.metadata.namespace}`)).filter(
      (r) => r.namespacedCloudProfile !== undefined,
    );
    expect(rows.map((r) => r.name).sort()).toEqual(
      landscape.shoots
        .filter((s) => s.spec.cloudProfile?.kind === "NamespacedCloudProfile")
        .map((s) => s.metadata.name)
        .sort(),
    );
    let extended = 0;
    for (const row of rows) {
      expect(row).toMatchObject({
        cloudProfile: parent.metadata.name,
        namespacedCloudProfile: namespaced.metadata.name,
      });
      const own = expiry(resolved.spec.kubernetes.versions, row.kubernetes.version);
      expect(row.kubernetes.expiresAt === undefined ? null : Date.parse(row.kubernetes.expiresAt)).toBe(own);
      if (own !== expiry(parent.spec.kubernetes.versions, row.kubernetes.version)) extended++;
    }
    expect(extended).toBeGreaterThan(0);
    // The parent's filter finds them.
    const ofParent = await listAll(`cloudProfile=${parent.metadata.name}&namespace=${namespaced.metadata.namespace}`);
    expect(ofParent.filter((r) => r.namespacedCloudProfile).length).toBe(rows.length);
  });

  it("describes each row with versions, their classification and expiry, and the next maintenance", async () => {
    const { body } = await call(base, "/api/v1/shoots?limit=500");
    for (const item of body.items) {
      expect(item.kubernetes.version).toMatch(/^\d+\.\d+\.\d+$/);
      expect(["preview", "supported", "deprecated", "expired"]).toContain(item.kubernetes.classification);
      expect(Date.parse(item.nextMaintenance.at)).toBeGreaterThanOrEqual(now - 1000);
      expect(["healthy", "progressing", "unknown", "unhealthy"]).toContain(item.statusLabel);
    }
    expect(body.items.some((i: any) => i.earliestExpiry !== null)).toBe(true);
  });

  it("filters by status label, namespace, profile and free text", async () => {
    const unhealthy = await listAll("status=unhealthy");
    expect(unhealthy.length).toBeGreaterThan(0);
    expect(unhealthy.every((s) => s.statusLabel === "unhealthy")).toBe(true);
    const two = await listAll("status=unhealthy,unknown");
    expect(two.length).toBeGreaterThan(unhealthy.length);

    const some = unhealthy[0];
    const inNamespace = await listAll(`namespace=${some.namespace}`);
    expect(inNamespace.every((s) => s.namespace === some.namespace)).toBe(true);
    const inProfile = await listAll(`cloudProfile=${some.cloudProfile}`);
    expect(inProfile.every((s) => s.cloudProfile === some.cloudProfile)).toBe(true);

    const byText = await listAll(`q=${encodeURIComponent(some.name.toUpperCase())}`);
    expect(byText.map((s) => s.name)).toContain(some.name);
    expect(
      byText.every(
        (s) => JSON.stringify(s).toLowerCase().includes(some.name.toLowerCase()) || s.namespace.includes(some.name),
      ),
    ).toBe(true);
    expect((await call(base, "/api/v1/shoots?q=no-such-cluster-anywhere")).body.total).toBe(0);
  });

  it("filters by purpose and by a label selector, the total counting exactly those", async () => {
    const all = await listAll("");
    const production = await listAll("purpose=production");
    expect(production.length).toBeGreaterThan(0);
    expect(production.map((s) => s.uid).sort()).toEqual(
      all
        .filter((s) => s.purpose === "production")
        .map((s) => s.uid)
        .sort(),
    );
    const two = await listAll("purpose=production,development");
    expect(two.length).toBe(all.filter((s) => ["production", "development"].includes(s.purpose)).length);
    expect(two.length).toBeGreaterThan(production.length);
    expect((await call(base, "/api/v1/shoots/summary?purpose=production")).body.total).toBe(production.length);

    // The demo's shoots carry env=<the stage their name says>: "checkout-prod", "ledger-prod-2".
    const prodLabel = await listAll(`labels=${encodeURIComponent("env=prod")}`);
    const byName = (s: { name: string }) => /-prod(-\d+)?$/.test(s.name);
    expect(prodLabel.length).toBeGreaterThan(0);
    expect(prodLabel.map((s) => s.uid).sort()).toEqual(
      all
        .filter(byName)
        .map((s) => s.uid)
        .sort(),
    );
    const notProd = await listAll(`labels=${encodeURIComponent("env!=prod,app")}`);
    expect(notProd.length).toBe(all.length - prodLabel.length);
    const both = await listAll(`purpose=production&labels=${encodeURIComponent("env in (prod,canary),!legacy")}`);
    expect(both.every((s) => s.purpose === "production" && /-(prod|canary)(-\d+)?$/.test(s.name))).toBe(true);
    expect((await call(base, `/api/v1/shoots?labels=${encodeURIComponent("env=nowhere")}`)).body.total).toBe(0);

    // The download takes them too.
    const exported = await call(base, `/api/v1/shoots/export?format=json&purpose=production`);
    expect(exported.status).toBe(200);
    expect(exported.body.map((s: { uid: string }) => s.uid).sort()).toEqual(production.map((s) => s.uid).sort());
  });

  it("filters by expiry within N days and by classification", async () => {
    const soon = await listAll("expiringWithinDays=7");
    // The server counted the days from a moment before its answer came.
    const answered = Date.now();
    expect(soon.length).toBeGreaterThan(0);
    for (const s of soon) expect(Date.parse(s.earliestExpiry.at)).toBeLessThanOrEqual(answered + 7 * DAY);
    const later = await listAll("expiringWithinDays=90");
    expect(later.length).toBeGreaterThan(soon.length);

    const expired = await listAll("classification=expired");
    expect(expired.length).toBeGreaterThan(0);
    expect(expired.every((s) => s.kubernetes.classification === "expired")).toBe(true);
    const deprecated = await listAll("classification=deprecated");
    expect(deprecated.every((s) => s.kubernetes.classification === "deprecated")).toBe(true);
  });

  it("sorts by expiry, version and status, ascending and descending", async () => {
    const byExpiry = await listAll("sort=expiry");
    const expiries = byExpiry.map((s) => (s.earliestExpiry ? Date.parse(s.earliestExpiry.at) : Infinity));
    expect(expiries).toEqual([...expiries].sort((a, b) => a - b));
    const byExpiryDesc = await listAll("sort=-expiry");
    expect(byExpiryDesc.map((s) => s.uid)).toEqual(byExpiry.map((s) => s.uid).reverse());

    const byVersion = await listAll("sort=kubernetesVersion");
    const versions = byVersion.map((s) => s.kubernetes.version.split(".").map(Number));
    for (let i = 1; i < versions.length; i++) {
      const [a, b] = [versions[i - 1], versions[i]];
      expect(a[0] * 1e6 + a[1] * 1e3 + a[2]).toBeLessThanOrEqual(b[0] * 1e6 + b[1] * 1e3 + b[2]);
    }
    const byStatus = await listAll("sort=status");
    const rank = { unhealthy: 0, unknown: 1, progressing: 2, healthy: 3 } as Record<string, number>;
    const ranks = byStatus.map((s) => rank[s.statusLabel]);
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
  });

  it("sorts by the next maintenance moment and pages through it without gaps", async () => {
    const all = await listAll("sort=nextMaintenance");
    expect(new Set(all.map((s) => s.uid)).size).toBe(120);
    const moments = all.map((s) => Date.parse(s.nextMaintenance.at));
    // Each page is for its own moment, but within a second of each other the order holds.
    for (let i = 1; i < moments.length; i++) expect(moments[i]).toBeGreaterThanOrEqual(moments[i - 1] - 60_000);
    const desc = await listAll("sort=-nextMaintenance");
    expect(Date.parse(desc[0].nextMaintenance.at)).toBeGreaterThanOrEqual(Date.parse(desc.at(-1).nextMaintenance.at));
  });

  it("answers bad parameters with 400 problems naming the parameter", async () => {
    const cases: [string, string, string][] = [
      ["status=sleepy", "query.status", "Invalid"],
      ["limit=0", "query.limit", "Invalid"],
      ["limit=many", "query.limit", "TypeMismatch"],
      ["sort=colour", "query.sort", "Invalid"],
      ["classification=ancient", "query.classification", "Invalid"],
      ["statsu=healthy", "query.statsu", "Unknown"],
      ["cursor=garbage", "query.cursor", "Invalid"],
      ["limit=5&limit=6", "query.limit", "Duplicate"],
      ["purpose=staging", "query.purpose", "Invalid"],
      [`labels=${encodeURIComponent("team in ()")}`, "query.labels", "Invalid"],
      [`labels=${encodeURIComponent("env=prod,")}`, "query.labels", "Invalid"],
    ];
    for (const [query, field, type] of cases) {
      const r = await call(base, `/api/v1/shoots?${query}`);
      expect(r.status, query).toBe(400);
      expect(r.headers.get("content-type")).toBe("application/problem+json");
      expect(r.body.status).toBe(400);
      expect(r.body.errors, query).toContainEqual(expect.objectContaining({ field, type }));
    }
    const reason = await call(base, `/api/v1/shoots?labels=${encodeURIComponent("team in ()")}`);
    expect(reason.body.errors[0].detail).toContain("values set can't be empty");
    const first = await call(base, "/api/v1/shoots?limit=5&sort=expiry");
    const wrongSort = await call(base, `/api/v1/shoots?limit=5&cursor=${first.body.nextCursor}`);
    expect(wrongSort.status).toBe(400);
    expect(wrongSort.body.errors[0].detail).toContain('sort "expiry"');
  });
});

describe("odd input", () => {
  it("is answered with a 4xx problem, never a 500", async () => {
    const cursor = (o: unknown) => Buffer.from(JSON.stringify(o)).toString("base64url");
    const paths = [
      "/api/v1/shoots?q=%00",
      "/api/v1/shoots?namespace=a%00b",
      `/api/v1/shoots?sort=status&cursor=${cursor({ s: "status", k: ["abc", "garden-x", "y"], o: 0 })}`,
      `/api/v1/shoots?sort=status&cursor=${cursor({ s: "status", k: ["99999", "garden-x", "y"], o: 0 })}`,
      `/api/v1/shoots?sort=created&cursor=${cursor({ s: "created", k: ["2026-13-45 99:00:00+00", "garden-x", "y"], o: 0 })}`,
      `/api/v1/shoots?sort=expiry&cursor=${cursor({ s: "expiry", k: ["0000-01-01 00:00:00+00", "garden-x", "y"], o: 0 })}`,
      `/api/v1/shoots?sort=nextMaintenance&cursor=${cursor({ s: "nextMaintenance", k: ["5", "garden-x", "y"], o: 999999 })}`,
      `/api/v1/shoots?cursor=${cursor({ s: "name", k: ["a", "b\u0000", "c"], o: 0 })}`,
      `/api/v1/shoots?cursor=${cursor(["not", "an", "object"])}`,
      "/api/v1/shoots?limit=99999999999999999999999",
      "/api/v1/shoots?expiringWithinDays=-1",
      "/api/v1/shoots?constructor=1",
      "/api/v1/audit?actor=%00",
      "/api/v1/audit?cursor=9999999999999999999",
      "/api/v1/audit?since=0000-01-01",
      "/api/v1/audit?until=2026-02-31T25:00:00Z",
      "/api/v1/namespaces/garden-x/shoots/a%00b",
      `/api/v1/namespaces/garden-x/shoots/${"n".repeat(300)}`,
      "/api/v1/namespaces/garden-x/shoots/%E2%9C%93/maintenance-plan?at=0000-01-01T00:00:00Z",
      "/api/v1/namespaces/garden-x/shoots/x/history?limit=0",
      "/api/v1/forecast?days=1e9",
    ];
    for (const p of paths) {
      const r = await call(base, p);
      expect(r.status, `${p}: ${JSON.stringify(r.body).slice(0, 300)}`).toBeGreaterThanOrEqual(400);
      expect(r.status, p).toBeLessThan(500);
      expect(r.headers.get("content-type"), p).toBe("application/problem+json");
    }
  });
});

describe("GET /api/v1/namespaces/{ns}/shoots/{name}", () => {
  it("returns the shoot in Gardener's shape with its resourceVersion as ETag", async () => {
    const { body: list } = await call(base, "/api/v1/shoots?limit=1");
    const { namespace, name } = list.items[0];
    const r = await call(base, `/api/v1/namespaces/${namespace}/shoots/${name}`);
    expect(r.status).toBe(200);
    expect(r.body.apiVersion).toBe("core.gardener.cloud/v1beta1");
    expect(r.body.kind).toBe("Shoot");
    expect(r.body.metadata).toMatchObject({ namespace, name, resourceVersion: "1" });
    expect(r.body.spec.kubernetes.version).toBe(list.items[0].kubernetes.version);
    expect(r.headers.get("etag")).toBe('"1"');
    const again = await call(base, `/api/v1/namespaces/${namespace}/shoots/${name}`, {
      headers: { "if-none-match": '"1"' },
    });
    expect(again.status).toBe(304);
  });

  it("answers an unknown shoot with a 404 problem", async () => {
    const r = await call(base, "/api/v1/namespaces/garden-nobody/shoots/ghost");
    expect(r.status).toBe(404);
    expect(r.headers.get("content-type")).toBe("application/problem+json");
    expect(r.body).toMatchObject({
      status: 404,
      title: "Not Found",
      detail: "Shoot garden-nobody/ghost does not exist.",
    });
    expect(r.body.requestId).toBe(r.headers.get("x-request-id"));
  });
});

describe("the rest of the read API", () => {
  it("lists cloud profiles, gets one, and 404s an unknown one", async () => {
    const list = await call(base, "/api/v1/cloudprofiles");
    expect(list.status).toBe(200);
    expect(list.body.items).toHaveLength(3);
    const name = list.body.items[0].metadata.name;
    const one = await call(base, `/api/v1/cloudprofiles/${name}`);
    expect(one.body).toMatchObject({ kind: "CloudProfile", metadata: { name } });
    expect(one.body.spec.kubernetes.versions.length).toBeGreaterThan(5);
    expect((await call(base, "/api/v1/cloudprofiles/nope")).status).toBe(404);
  });

  it("lists seeds with readiness and taints, and projects", async () => {
    const seeds = await call(base, "/api/v1/seeds");
    expect(seeds.body.items).toHaveLength(6);
    expect(seeds.body.items.every((s: any) => s.kind === "Seed" && s.spec.provider.region)).toBe(true);
    const projects = await call(base, "/api/v1/projects");
    expect(projects.body.items).toHaveLength(4);
  });

  it("plans the next maintenance of a shoot on an expired version as a forced update in its window", async () => {
    const { body } = await call(base, "/api/v1/shoots?classification=expired&limit=1");
    const s = body.items[0];
    const plan = await call(base, `/api/v1/namespaces/${s.namespace}/shoots/${s.name}/maintenance-plan`);
    expect(plan.status).toBe(200);
    expect(Date.parse(plan.body.at)).toBeGreaterThanOrEqual(Date.parse(plan.body.window.begin));
    expect(Date.parse(plan.body.at)).toBeLessThanOrEqual(Date.parse(plan.body.window.end));
    expect(plan.body.at).toBe(s.nextMaintenance.at);
    const controlPlane = plan.body.changes.find((c: any) => c.target === "controlPlane");
    expect(controlPlane).toMatchObject({
      kind: "kubernetes",
      from: s.kubernetes.version,
      reason: "Kubernetes version expired - force update required",
    });
    const later = await call(
      base,
      `/api/v1/namespaces/${s.namespace}/shoots/${s.name}/maintenance-plan?at=${new Date(now + 3 * 86_400_000).toISOString()}`,
    );
    expect(Date.parse(later.body.at)).toBeGreaterThan(Date.parse(plan.body.at));
    expect(
      (await call(base, `/api/v1/namespaces/${s.namespace}/shoots/${s.name}/maintenance-plan?at=tomorrow`)).status,
    ).toBe(400);
    expect((await call(base, `/api/v1/namespaces/${s.namespace}/shoots/nope/maintenance-plan`)).status).toBe(404);
  });

  it("gives a shoot's history: its maintenance runs and audit events, newest first", async () => {
    const all = await listAll("");
    let found = false;
    for (const s of all) {
      const history = await call(base, `/api/v1/namespaces/${s.namespace}/shoots/${s.name}/history`);
      expect(history.status).toBe(200);
      const runs = history.body.items.filter((i: any) => i.type === "maintenance");
      if (runs.length < 2) continue;
      found = true;
      const times = history.body.items.map((i: any) => Date.parse(i.at));
      expect(times).toEqual([...times].sort((a, b) => b - a));
      expect(runs[0]).toMatchObject({ namespace: s.namespace, name: s.name });
      expect(["Succeeded", "Failed"]).toContain(runs[0].state);
      expect(runs[0].description).toBeTruthy();
      break;
    }
    expect(found).toBe(true);
    expect((await call(base, "/api/v1/namespaces/garden-x/shoots/nope/history")).status).toBe(404);
  });

  it("forecasts forced updates across the fleet", async () => {
    const r = await call(base, "/api/v1/forecast?days=30");
    const answered = Date.now();
    expect(r.status).toBe(200);
    expect(r.body.items.length).toBeGreaterThan(0);
    for (const item of r.body.items) {
      expect(Date.parse(item.at)).toBeLessThanOrEqual(answered + 30 * DAY);
      expect(item.message).toContain(item.from);
    }
    expect((await call(base, "/api/v1/forecast?days=0")).status).toBe(400);
  });

  it("has liveness and readiness (the job queue's too), and answers unknown API paths with a problem", async () => {
    expect((await call(base, "/healthz")).status).toBe(200);
    // This server started without npm start, which makes the job queue before serving.
    const noQueue = await call(base, "/readyz");
    expect(noQueue.status).toBe(503);
    expect(noQueue.body.checks).toMatchObject({
      database: { ok: true },
      landscape: { ok: true },
      jobs: { ok: false, detail: "the job queue is not set up" },
    });
    const boss = await startQueue(database.url, { expireSeconds: 60, supervise: false });
    await boss.stop({ graceful: false });
    const ready = await call(base, "/readyz");
    expect(ready.status).toBe(200);
    expect(ready.body.checks.migrations.ok).toBe(true);
    expect(ready.body.checks.jobs).toEqual({ ok: true, detail: "ready" });
    const unknown = await call(base, "/api/v1/clusters");
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get("content-type")).toBe("application/problem+json");
  });
});
