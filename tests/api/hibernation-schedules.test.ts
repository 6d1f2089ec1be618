// PATCH of a shoot's spec.hibernation.schedules over HTTP in the simulated garden: Gardener's
// validation answered as 422 naming the field (nothing written, nothing audited), the list stored
// and audited, and removed with null.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedLandscape } from "../../lib/server/seed-landscape.ts";
import { call, patch } from "../support/api-client.ts";
import { type AppServer, startNext } from "../support/app-server.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { smallLandscape } from "../support/small-landscape.ts";

let database: TestDatabase;
let server: AppServer;
let base: string;
const now = Date.now();
const path = (name: string) => `/api/v1/namespaces/garden-dev/shoots/${name}`;

beforeAll(async () => {
  database = await createTestDatabase();
  await seedLandscape(database.db, smallLandscape(now, 3), { actor: "test", now });
  server = await startNext(database.url);
  base = server.baseUrl;
});

afterAll(async () => {
  await server?.stop();
  await database?.drop();
});

async function refused(body: unknown) {
  const before = await call(base, path("cluster-1"));
  const events = await database.db.auditEvent.count();
  const r = await patch(base, path("cluster-1"), body);
  expect(r.status, JSON.stringify(r.body)).toBe(422);
  expect((await call(base, path("cluster-1"))).body).toEqual(before.body);
  expect(await database.db.auditEvent.count()).toBe(events);
  return (r.body.errors as { field: string; detail: string }[]).map((e) => e.field);
}

const schedules = (...list: unknown[]) => ({ spec: { hibernation: { schedules: list } } });

describe("PATCH spec.hibernation.schedules", () => {
  it("stores the schedules, audits the list, and removes them with null", async () => {
    const list = [{ start: "0 19 * * MON-FRI", end: "0 7 * * MON-FRI", location: "Europe/Berlin" }];
    const r = await patch(base, path("cluster-0"), schedules(...list));
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.spec.hibernation.schedules).toEqual(list);
    expect((await call(base, path("cluster-0"))).body.spec.hibernation.schedules).toEqual(list);
    const audit = await call(base, "/api/v1/audit?action=shoot.update");
    const event = audit.body.items.find((e: any) => e.target.name === "cluster-0");
    expect(event.changes).toEqual([{ field: "spec.hibernation.schedules", before: null, after: list }]);
    const removed = await patch(base, path("cluster-0"), { spec: { hibernation: { schedules: null } } });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect(removed.body.spec.hibernation?.schedules).toBeUndefined();
  });

  it("answers a bad cron, an unknown zone, a schedule without start or end, and a duplicate with 422 naming each", async () => {
    expect(await refused(schedules({ start: "0 19 * *" }))).toEqual(["spec.hibernation.schedules[0].start"]);
    expect(await refused(schedules({ start: "0 19 * * *" }, { end: "0 7 * * 7" }))).toEqual([
      "spec.hibernation.schedules[1].end",
    ]);
    expect(await refused(schedules({ start: "0 19 * * *", location: "Europe/Atlantis" }))).toEqual([
      "spec.hibernation.schedules[0].location",
    ]);
    expect(await refused(schedules({ location: "UTC" }))).toEqual(["spec.hibernation.schedules[0].start/end"]);
    expect(await refused(schedules({ start: "0 19 * * *" }, { start: "0 19 * * *" }))).toEqual([
      "spec.hibernation.schedules[1].start",
    ]);
  });
});
