// The exports and calendars over HTTP, against the production build and a real PostgreSQL: every
// row the filters select (not a page) in the list's order, as CSV (RFC 4180, formulas defused) or
// JSON, with a file name; the caller's scope as in the lists; iCalendar feeds of the coming
// maintenance windows and forced updates.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DAY_MS } from "../../lib/engine/time-units.ts";
import { generateLandscape } from "../../lib/demo/landscape.ts";
import { refreshForecasts } from "../../lib/jobs/forecast-refresh.ts";
import { seedLandscape } from "../../lib/server/seed-landscape.ts";
import { recordAuditEvent } from "../../lib/store/audit.ts";
import { call } from "../support/api-client.ts";
import { type AppServer, startNext } from "../support/app-server.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { tokenHeader } from "../support/tokens.ts";

const SHOOTS = 10_000;
let database: TestDatabase;
let server: AppServer;
let base: string;
const now = Date.now();
const today = new Date(now).toISOString().slice(0, 10);

beforeAll(async () => {
  database = await createTestDatabase();
  await seedLandscape(database.db, generateLandscape({ now, shoots: SHOOTS }), { actor: "test", now });
  server = await startNext(database.url);
  base = server.baseUrl;
}, 300_000);

afterAll(async () => {
  await server?.stop();
  await database?.drop();
});

/** Every row of the list, page by page, as the page would read it. */
async function listAll(query: string, headers: Record<string, string> = {}) {
  const items: any[] = [];
  let cursor: string | null = null;
  do {
    const r: any = await call(base, `/api/v1/shoots?${query}&limit=500${cursor ? `&cursor=${cursor}` : ""}`, {
      headers,
    });
    expect(r.status).toBe(200);
    items.push(...r.body.items);
    cursor = r.body.nextCursor;
  } while (cursor);
  return items;
}

/** RFC 4180 records (quoted fields may hold commas, quotes and line breaks). */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let field = "";
  let record: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      record.push(field);
      field = "";
    } else if (c === "\r" && text[i + 1] === "\n") {
      record.push(field);
      records.push(record);
      record = [];
      field = "";
      i++;
    } else field += c;
  }
  expect(field).toBe("");
  expect(record).toEqual([]);
  return records;
}

describe("GET /api/v1/shoots/export", () => {
  it(`writes all ${SHOOTS} shoots as CSV quickly, in the list's order, with a file name`, async () => {
    const started = performance.now();
    const r = await call(base, "/api/v1/shoots/export?format=csv&sort=-expiry");
    const seconds = (performance.now() - started) / 1000;
    console.log(`${SHOOTS} shoots exported as CSV in ${seconds.toFixed(2)} s (${r.body.length} bytes)`);
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("text/csv; charset=utf-8; header=present");
    expect(r.headers.get("content-disposition")).toBe(`attachment; filename="almanac-shoots-${today}.csv"`);
    expect(r.body.endsWith("\r\n")).toBe(true);
    const [header, ...rows] = parseCsv(r.body);
    expect(header.slice(0, 6)).toEqual(["namespace", "name", "project", "status", "hibernated", "kubernetes_version"]);
    expect(rows).toHaveLength(SHOOTS);
    expect(rows.every((row) => row.length === header.length)).toBe(true);
    const listed = await listAll("sort=-expiry");
    expect(rows.map((row) => `${row[0]}/${row[1]}`)).toEqual(listed.map((s) => `${s.namespace}/${s.name}`));
    expect(seconds).toBeLessThan(20);
  }, 120_000);

  it("keeps the list's filters, and answers a JSON array of the list's rows", async () => {
    const query = "status=unhealthy,unknown&q=prod&sort=name";
    const listed = await listAll(query);
    expect(listed.length).toBeGreaterThan(0);
    const r = await call(base, `/api/v1/shoots/export?format=json&${query}`);
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("application/json");
    expect(r.headers.get("content-disposition")).toBe(`attachment; filename="almanac-shoots-${today}.json"`);
    expect(r.body.map((s: any) => `${s.namespace}/${s.name}`)).toEqual(listed.map((s) => `${s.namespace}/${s.name}`));
    expect(r.body[0]).toEqual(listed[0]);
    const csv = parseCsv((await call(base, `/api/v1/shoots/export?${query}`)).body);
    expect(csv).toHaveLength(listed.length + 1);
  });

  it("refuses unknown formats and paging parameters as problems", async () => {
    for (const query of ["format=xml", "limit=10", "cursor=abc", "sort=colour"]) {
      const r = await call(base, `/api/v1/shoots/export?${query}`);
      expect(r.status, query).toBe(400);
      expect(r.headers.get("content-type")).toBe("application/problem+json");
    }
  });

  it("holds only the caller's projects, and refuses a filter on another's", async () => {
    const first = (await call(base, "/api/v1/shoots?limit=1")).body.items[0];
    const other = (await listAll("sort=name")).find((s) => s.project !== first.project);
    const viewer = await tokenHeader(database.db, "one-project-viewer", "viewer", first.project);
    const mine = await listAll(`namespace=${first.namespace}`);
    const r = await call(base, "/api/v1/shoots/export?format=json", { headers: viewer });
    expect(r.status).toBe(200);
    expect(r.body.length).toBe(mine.length);
    expect(r.body.every((s: any) => s.project === first.project)).toBe(true);
    const refused = await call(base, `/api/v1/shoots/export?namespace=${other.namespace}`, { headers: viewer });
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toMatch(/has no role on project/);
  });
});

describe("GET /api/v1/forecast/export", () => {
  // In production the worker stores every shoot's forecast facts in the background after a seed;
  // this server runs no worker, so the pass runs here. Otherwise the first read computes 10,000
  // shoots' facts itself, which on a busy machine outlasted the test's minute.
  beforeAll(async () => {
    await refreshForecasts(database.db, Date.now(), 1_000);
  }, 300_000);

  it("writes the forecast's items with the page's filters", async () => {
    const read = Date.now();
    const forecast = (await call(base, "/api/v1/forecast?days=30")).body;
    expect(forecast.items.length).toBeGreaterThan(0);
    // Each answer is the forecast from the moment it is asked: a window that starts between two of
    // them (this test takes seconds on a busy machine) moves an update out of the later one, or to
    // the shoot's next window, and the later one reaches further. The answers are compared where
    // both reach, with a minute's margin, leaving out the shoots with an update before that margin
    // in the first answer (theirs may have moved into the compared days).
    const from = () => Date.now() + 60_000;
    const to = read + 30 * DAY_MS;
    const shootOf = (i: { namespace: string; name: string }) => `${i.namespace}/${i.name}`;
    const within = (items: { at: string; namespace: string; name: string }[], start: number) => {
      const moved = new Set(forecast.items.filter((i: any) => Date.parse(i.at) < start).map(shootOf));
      return items.filter((i) => Date.parse(i.at) >= start && Date.parse(i.at) < to && !moved.has(shootOf(i)));
    };
    let start = from();
    const r = await call(base, "/api/v1/forecast/export?days=30&format=csv");
    expect(r.status).toBe(200);
    expect(r.headers.get("content-disposition")).toBe(`attachment; filename="almanac-forecast-30d-${today}.csv"`);
    const [header, ...rows] = parseCsv(r.body);
    expect(header).toContain("message");
    const column = (row: string[], name: string) => row[header.indexOf(name)];
    const csvItems = rows.map((row) => ({
      at: column(row, "at"),
      namespace: column(row, "namespace"),
      name: column(row, "name"),
    }));
    expect(within(csvItems, start)).toHaveLength(within(forecast.items, start).length);
    start = from();
    const stuck = await call(base, "/api/v1/forecast/export?days=30&format=json&stuck=true&kind=kubernetes");
    expect(within(stuck.body, start)).toEqual(
      within(forecast.items, start).filter((i: any) => i.stuck && i.kind === "kubernetes"),
    );
    // Updates at risk carry their reason, and the "at risk only" filter keeps exactly them.
    expect(header.slice(-2)).toEqual(["at_risk", "risk"]);
    start = from();
    const atRisk = await call(base, "/api/v1/forecast/export?days=30&format=json&atRisk=true");
    expect(within(atRisk.body, start).length).toBeGreaterThan(0);
    expect(within(atRisk.body, start)).toEqual(within(forecast.items, start).filter((i: any) => i.risk !== undefined));
    expect(atRisk.body[0].risk.summary).toMatch(/^At risk: /);
  }, 60_000);
});

describe("GET /api/v1/audit/export", () => {
  it("writes every event the filters select, across pages, with formulas defused", async () => {
    const events = Array.from({ length: 1_100 }, (_, i) => ({
      actor: i === 0 ? '=HYPERLINK("http://evil.example","x")' : "exporter@example.com",
      action: "shoot.update",
      target: { kind: "Shoot", namespace: "garden-export", name: `s-${i}` },
      changes: [{ field: "spec.hibernation.enabled", before: false, after: true }],
    }));
    for (const event of events) await recordAuditEvent(database.db, event);
    const r = await call(base, "/api/v1/audit/export?namespace=garden-export");
    expect(r.status).toBe(200);
    expect(r.headers.get("content-disposition")).toBe(`attachment; filename="almanac-audit-${today}.csv"`);
    const [header, ...rows] = parseCsv(r.body);
    expect(header).toEqual(["id", "at", "actor", "action", "kind", "namespace", "name", "changes", "request_id"]);
    expect(rows).toHaveLength(1_100);
    expect(rows.at(-1)![2]).toBe(`'=HYPERLINK("http://evil.example","x")`);
    expect(rows[0][7]).toBe("spec.hibernation.enabled: false -> true");
    const json = await call(
      base,
      "/api/v1/audit/export?namespace=garden-export&format=json&actor=exporter@example.com",
    );
    expect(json.body).toHaveLength(1_099);
    expect(json.body[0]).toMatchObject({ actor: "exporter@example.com", target: { name: "s-1099" } });
  }, 60_000);
});

describe("the maintenance calendars", () => {
  it("give a shoot's windows of the next 30 days in UTC, and its forced updates", async () => {
    const forecast = (await call(base, "/api/v1/forecast?days=30")).body;
    const item = forecast.items.find((i: any) => !i.stuck);
    const r = await call(base, `/api/v1/namespaces/${item.namespace}/shoots/${item.name}/calendar.ics`);
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("text/calendar; charset=utf-8");
    expect(r.headers.get("content-disposition")).toBe(`attachment; filename="${item.name}-maintenance.ics"`);
    const text: string = r.body;
    expect(text.startsWith("BEGIN:VCALENDAR\r\n")).toBe(true);
    expect(text.endsWith("END:VCALENDAR\r\n")).toBe(true);
    const unfolded = text.replaceAll("\r\n ", "");
    expect(unfolded.match(/SUMMARY:Maintenance window/g)!.length).toBeGreaterThanOrEqual(29);
    expect(unfolded).toMatch(/DTSTART:\d{8}T\d{6}Z\r\n/);
    const begin = item.window.begin.replace(/[-:]/g, "").replace(/\.\d+/, "");
    expect(unfolded).toContain(`SUMMARY:Forced update: ${item.namespace}/${item.name}`);
    expect(unfolded).toContain(`DTSTART:${begin}`);
    expect(unfolded).toMatch(new RegExp(`URL;VALUE=URI:http://[^/]+/shoots/${item.namespace}/${item.name}\r\n`));
  });

  it("give every shoot of a project's namespace, for its viewers only", { timeout: 60_000 }, async () => {
    const first = (await call(base, "/api/v1/shoots?limit=1")).body.items[0];
    const shoots = await listAll(`namespace=${first.namespace}`);
    const viewer = await tokenHeader(database.db, "calendar-viewer", "viewer", first.project);
    const r = await call(base, `/api/v1/namespaces/${first.namespace}/calendar.ics`, { headers: viewer });
    expect(r.status).toBe(200);
    const unfolded: string = r.body.replaceAll("\r\n ", "");
    // Each maintained shoot has one window a day: the windows that begin tomorrow (UTC) count them all.
    const tomorrow = new Date(now + 86_400_000).toISOString().slice(0, 10).replaceAll("-", "");
    let counted = 0;
    for (const event of unfolded.split("BEGIN:VEVENT\r\n").slice(1)) {
      const summary = /SUMMARY:Maintenance window: (?:(\d+) clusters in |[^/]+\/)/.exec(event);
      if (summary && event.includes(`DTSTART:${tomorrow}T`)) counted += summary[1] ? Number(summary[1]) : 1;
    }
    expect(counted).toBe(shoots.filter((s) => s.nextMaintenance !== null).length);
    const other = (await listAll("sort=name")).find((s) => s.project !== first.project);
    const refused = await call(base, `/api/v1/namespaces/${other.namespace}/calendar.ics`, { headers: viewer });
    expect(refused.status).toBe(403);
    const missing = await call(base, `/api/v1/namespaces/${first.namespace}/shoots/no-such-shoot/calendar.ics`);
    expect(missing.status).toBe(404);
  });
});
