// Freeze periods over HTTP, against the production build and a real PostgreSQL: made, listed and
// removed (audited), by whom (admin landscape-wide, operator on the project for a project's), bad
// input answered 422 naming the field; the forecast marks the forced updates inside a freeze and
// counts them in its summary, and answers exactly as before when no freeze overlaps it;
// freezeBlocking names the freeze that stops a bulk action or a run stage.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ForecastAnswer, ForecastAnswerItem } from "../../lib/api/forecast.ts";
import type { FreezeJson, FreezeListAnswer } from "../../lib/api/freezes.ts";
import { generateLandscape } from "../../lib/demo/landscape.ts";
import { DAY_MS, HOUR_MS } from "../../lib/engine/time-units.ts";
import { MAX_UNENDED_FREEZES } from "../../lib/server/create-freeze.ts";
import { freezeBlocking } from "../../lib/server/freeze-blocking.ts";
import { seedLandscape } from "../../lib/server/seed-landscape.ts";
import { shootsWithStaleForecasts } from "../../lib/store/shoot-forecasts.ts";
import { call } from "../support/api-client.ts";
import { type AppServer, startNext } from "../support/app-server.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { tokenHeader } from "../support/tokens.ts";

let database: TestDatabase;
let server: AppServer;
let base: string;
let projects: { name: string; namespace: string }[];
const now = Date.now();

beforeAll(async () => {
  database = await createTestDatabase();
  await seedLandscape(database.db, generateLandscape({ now, shoots: 200, seed: 5 }), { actor: "test", now });
  projects = await database.db.project.findMany({ select: { name: true, namespace: true }, orderBy: { name: "asc" } });
  server = await startNext(database.url);
  base = server.baseUrl;
}, 300_000);

afterAll(async () => {
  await server?.stop();
  await database?.drop();
});

const iso = (ms: number) => new Date(ms).toISOString();
const json = { "content-type": "application/json" };

function create(body: unknown, headers: Record<string, string> = {}) {
  return call<FreezeJson>(base, "/api/v1/freezes", {
    method: "POST",
    headers: { ...json, ...headers },
    body: JSON.stringify(body),
  });
}
const remove = (id: string, headers: Record<string, string> = {}) =>
  call(base, `/api/v1/freezes/${id}`, { method: "DELETE", headers });
const list = async (query = "", headers: Record<string, string> = {}) => {
  const r = await call<FreezeListAnswer>(base, `/api/v1/freezes${query}`, { headers });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
};
async function forecast(query: string): Promise<{ text: string; body: ForecastAnswer }> {
  const response = await fetch(`${base}/api/v1/forecast?${query}`, {
    headers: { authorization: "Bearer test-admin-token-for-almanac-tests" },
  });
  expect(response.status).toBe(200);
  const text = await response.text();
  return { text, body: JSON.parse(text) as ForecastAnswer };
}

describe("POST, GET and DELETE /api/v1/freezes", () => {
  it("makes a landscape-wide freeze, lists it current and upcoming first, and removes it, audited", async () => {
    const past = await create({ start: iso(now + HOUR_MS), end: iso(now + 2 * HOUR_MS), reason: "soon" });
    const made = await create({
      start: "2099-12-20T00:00:00+01:00",
      end: "2100-01-02T00:00:00+01:00",
      reason: "  year-end  ",
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toMatchObject({
      start: "2099-12-19T23:00:00.000Z",
      end: "2100-01-01T23:00:00.000Z",
      reason: "year-end",
      project: null,
      createdBy: "admin-token",
      state: "upcoming",
    });
    const listed = await list();
    const ids = listed.items.map((f) => f.id);
    expect(ids.indexOf(past.body.id)).toBeLessThan(ids.indexOf(made.body.id));
    expect((await list("?from=2099-12-25T00:00:00Z&to=2099-12-26T00:00:00Z")).items.map((f) => f.id)).toEqual([
      made.body.id,
    ]);
    expect((await call(base, "/api/v1/freezes?from=tomorrow")).status).toBe(400);

    expect((await remove(made.body.id)).status).toBe(204);
    expect((await remove(made.body.id)).status).toBe(404);
    expect((await remove("not-a-uuid")).status).toBe(404);
    expect((await remove(past.body.id)).status).toBe(204);
    const audit = await call(base, "/api/v1/audit?kind=Freeze&limit=10");
    const actions = audit.body.items
      .filter((e: { target: { name: string } }) => e.target.name === made.body.id)
      .map((e: { action: string }) => e.action);
    expect(actions).toEqual(["freeze.delete", "freeze.create"]);
  });

  it("answers 422 naming the field for each kind of bad input", async () => {
    const ok = { start: iso(now + DAY_MS), end: iso(now + 2 * DAY_MS), reason: "release" };
    const field = async (body: unknown) => {
      const r = await create(body);
      expect(r.status, JSON.stringify(r.body)).toBe(422);
      return (r.body as unknown as { errors: { field: string }[] }).errors.map((e) => e.field);
    };
    expect(await field({ reason: "x" })).toEqual(["start", "end"]);
    expect(await field({ ...ok, start: "2026-12-20T00:00:00" })).toEqual(["start"]);
    expect(await field({ ...ok, end: "next week" })).toEqual(["end"]);
    expect(await field({ ...ok, end: ok.start })).toEqual(["end"]);
    expect(await field({ ...ok, end: iso(now + 92 * DAY_MS) })).toEqual(["end"]);
    expect(await field({ start: iso(now - 2 * DAY_MS), end: iso(now - DAY_MS), reason: "over" })).toEqual(["end"]);
    expect(await field({ ...ok, reason: " " })).toEqual(["reason"]);
    expect(await field({ ...ok, project: "no-such-project" })).toEqual(["project"]);
    const tooLong = await create({ ...ok, end: iso(now + 92 * DAY_MS) });
    expect(JSON.stringify(tooLong.body)).toContain("at most 90 days");
    expect((await create({ ...ok, start: 5 })).status).toBe(400);
    expect((await create({ ...ok, colour: "blue" })).status).toBe(400);
    expect((await list()).items.filter((f) => f.reason === "release")).toEqual([]);
  });

  it(`keeps at most ${MAX_UNENDED_FREEZES} freezes that have not ended (409 past them)`, async () => {
    // Fillers beyond the forecast's year, so no other test's forecast sees them.
    const filler = { reason: "filler", project: null, createdBy: "test" };
    const unended = await database.db.freeze.count({ where: { end: { gt: new Date() } } });
    await database.db.freeze.createMany({
      data: Array.from({ length: MAX_UNENDED_FREEZES - unended }, (_, i) => ({
        ...filler,
        start: new Date(now + (400 + i) * DAY_MS),
        end: new Date(now + (400 + i) * DAY_MS + HOUR_MS),
      })),
    });
    try {
      const refused = await create({ start: iso(now + DAY_MS), end: iso(now + 2 * DAY_MS), reason: "one more" });
      expect(refused.status).toBe(409);
      expect(JSON.stringify(refused.body)).toContain(`at most ${MAX_UNENDED_FREEZES} freezes`);
    } finally {
      await database.db.freeze.deleteMany({ where: { reason: "filler" } });
    }
    const accepted = await create({ start: iso(now + DAY_MS), end: iso(now + 2 * DAY_MS), reason: "one more" });
    expect(accepted.status).toBe(201);
    expect((await remove(accepted.body.id)).status).toBe(204);
  });

  it("lets admins freeze the landscape and a project's operators freeze that project only", async () => {
    const [mine, theirs] = projects;
    const ok = { start: iso(now + DAY_MS), end: iso(now + 2 * DAY_MS), reason: "launch" };
    const operator = await tokenHeader(database.db, "freeze-operator", "operator", mine.name);
    const viewer = await tokenHeader(database.db, "freeze-viewer", "viewer", theirs.name);
    const everywhereOperator = await tokenHeader(database.db, "freeze-landscape-operator", "operator");

    expect((await create(ok, viewer)).status).toBe(403);
    expect((await create({ ...ok, project: theirs.name }, viewer)).status).toBe(403);
    expect((await create(ok, operator)).status).toBe(403);
    expect((await create(ok, everywhereOperator)).status).toBe(403);
    expect((await create({ ...ok, project: theirs.name }, operator)).status).toBe(403);
    // Whether a project exists is not told to whoever may not freeze it.
    expect((await create({ ...ok, project: "no-such-project" }, operator)).status).toBe(403);
    const own = await create({ ...ok, project: mine.name }, operator);
    expect(own.status, JSON.stringify(own.body)).toBe(201);
    expect(own.body).toMatchObject({ project: mine.name, createdBy: "token:freeze-operator" });
    const landscape = await create(ok);
    expect(landscape.status).toBe(201);

    // A viewer of another project sees the landscape-wide freeze, not this project's.
    const seen = (await list("", viewer)).items.map((f) => f.id);
    expect(seen).toContain(landscape.body.id);
    expect(seen).not.toContain(own.body.id);
    expect((await list(`?project=${mine.name}`, operator)).items.map((f) => f.id)).toEqual(
      expect.arrayContaining([own.body.id, landscape.body.id]),
    );
    expect((await call(base, `/api/v1/freezes?project=${mine.name}`, { headers: viewer })).status).toBe(403);

    expect((await remove(landscape.body.id, operator)).status).toBe(403);
    expect((await remove(own.body.id, viewer)).status).toBe(403);
    expect((await remove(own.body.id, operator)).status).toBe(204);
    expect((await remove(landscape.body.id)).status).toBe(204);
  });
});

describe("the forecast's freeze marks", () => {
  it("marks the forced updates inside a freeze, counts them, lists them on the freeze, and is unchanged without one", async () => {
    const before = await forecast("days=60&limit=200&summary=true");
    // The facts the first read computed are stored after its answer: the freezes' lists read them.
    await expect
      .poll(async () => (await shootsWithStaleForecasts(database.db, {}, Date.now())).length, { timeout: 30_000 })
      .toBe(0);
    const forced = before.body.items.filter((i) => !i.held);
    expect(forced.length).toBeGreaterThan(2);
    const target = forced[Math.floor(forced.length / 2)];
    const at = Date.parse(target.at);
    const made = await create({ start: iso(at - HOUR_MS), end: iso(at + HOUR_MS), reason: "release week" });
    expect(made.status).toBe(201);

    const inside = (i: ForecastAnswerItem) => !i.held && Math.abs(Date.parse(i.at) - at) < HOUR_MS;
    const marked = await forecast("days=60&limit=200&summary=true");
    // Every item the page holds (the whole forecast: fewer than 200), each marked iff it is inside.
    expect(marked.body.total).toBeLessThan(200);
    const mark = {
      id: made.body.id,
      reason: "release week",
      start: made.body.start,
      end: made.body.end,
      project: null,
    };
    const unmarked = marked.body.items.map(({ freeze: _freeze, ...i }) => i);
    expect(marked.body.items).toEqual(unmarked.map((i) => (inside(i) ? { ...i, freeze: mark } : i)));
    const count = unmarked.filter(inside).length;
    expect(count).toBeGreaterThan(0);
    expect(marked.body.summary!.forcedInFreezes).toBe(count);
    // A page of a few counts them in the stored items.
    expect((await forecast("days=60&limit=3&summary=true")).body.summary!.forcedInFreezes).toBe(count);
    const { forcedInFreezes: _count, ...summary } = marked.body.summary!;
    expect(Object.keys(summary)).toEqual(Object.keys(before.body.summary!));

    // Every item, streamed: marked alike.
    const every = await forecast("days=60");
    const keyOf = (i: ForecastAnswerItem) => `${i.namespace}/${i.name}/${i.at}/${i.target}/${i.worker ?? ""}`;
    expect(every.body.items.filter((i) => i.freeze).map(keyOf)).toEqual(every.body.items.filter(inside).map(keyOf));

    const withForced = (await list("?forcedUpdates=true")).items.find((f) => f.id === made.body.id)!;
    expect(withForced.forcedUpdates).toMatchObject({ total: count });
    expect(withForced.forcedUpdates!.items).toEqual(unmarked.filter(inside));

    // A project's freeze marks only that project's shoots.
    const project = projects.find((p) => p.namespace === target.namespace)!;
    expect((await remove(made.body.id)).status).toBe(204);
    const own = await create({
      start: iso(at - HOUR_MS),
      end: iso(at + HOUR_MS),
      reason: "their launch",
      project: project.name,
    });
    const projectMarked = await forecast("days=60&limit=200");
    expect(projectMarked.body.items.filter((i) => i.freeze).map(keyOf)).toEqual(
      projectMarked.body.items.filter((i) => inside(i) && i.namespace === target.namespace).map(keyOf),
    );
    expect((await remove(own.body.id)).status).toBe(204);

    // With no freeze over it, the answer is the forecast's own: nothing marked, nothing counted.
    const after = await forecast("days=60&limit=200&summary=true");
    expect(after.text).not.toContain('"freeze":');
    expect(after.text).not.toContain("forcedInFreezes");
    expect(Object.keys(after.body.summary!)).toEqual(Object.keys(before.body.summary!));
  });
});

describe("freezeBlocking", () => {
  it("names the freeze that holds for a project at a moment, and nothing outside it", async () => {
    const [mine, theirs] = projects;
    const start = now + 10 * DAY_MS;
    const own = await create({ start: iso(start), end: iso(start + DAY_MS), reason: "audit", project: mine.name });
    const wide = await create({ start: iso(start + 2 * DAY_MS), end: iso(start + 3 * DAY_MS), reason: "holiday" });

    const blocked = await freezeBlocking({ at: start + HOUR_MS, projects: [mine.name] }, database.db);
    expect(blocked?.freeze.id).toBe(own.body.id);
    expect(blocked?.refusal.code).toBe("conflict");
    expect(blocked?.refusal.message).toContain('"audit"');
    expect(blocked?.refusal.message).toContain(own.body.id);
    expect(blocked?.refusal.extensions.freeze).toMatchObject({ id: own.body.id, project: mine.name });
    expect(await freezeBlocking({ at: start + HOUR_MS, projects: [theirs.name] }, database.db)).toBeUndefined();
    expect(await freezeBlocking({ at: start + DAY_MS, projects: [mine.name] }, database.db)).toBeUndefined();
    const holiday = await freezeBlocking({ at: start + 2 * DAY_MS, projects: [] }, database.db);
    expect(holiday?.freeze.id).toBe(wide.body.id);
    expect(await freezeBlocking({ at: start + 3 * DAY_MS, projects: [theirs.name] }, database.db)).toBeUndefined();
    expect(await freezeBlocking({ at: now + 400 * DAY_MS, projects: [randomUUID()] }, database.db)).toBeUndefined();
    await remove(own.body.id);
    await remove(wide.body.id);
  });
});
