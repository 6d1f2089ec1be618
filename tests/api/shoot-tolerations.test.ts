// PATCH of a shoot's spec.tolerations over HTTP in the simulated garden: the ShootTolerationRestriction
// (the project's whitelist and the global one, ALMANAC_TOLERATION_WHITELIST), the shoot's validation,
// what is refused (422 naming the toleration, nothing written) and what is audited.
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
  const landscape = smallLandscape(now, 4);
  // The project allows "dedicated=payments" and any value of "gpu"; the garden allows "team" globally.
  landscape.projects[0].spec.tolerations = {
    whitelist: [{ key: "dedicated", value: "payments" }, { key: "gpu" }],
  };
  landscape.shoots[3].spec.tolerations = [{ key: "legacy" }];
  await seedLandscape(database.db, landscape, { actor: "test", now });
  server = await startNext(database.url, { ALMANAC_TOLERATION_WHITELIST: "team" });
  base = server.baseUrl;
});

afterAll(async () => {
  await server?.stop();
  await database?.drop();
});

async function refused(name: string, body: unknown) {
  const before = await call(base, path(name));
  const events = await database.db.auditEvent.count();
  const r = await patch(base, path(name), body);
  expect(r.status, JSON.stringify(r.body)).toBe(422);
  expect((await call(base, path(name))).body).toEqual(before.body);
  expect(await database.db.auditEvent.count()).toBe(events);
  return r.body;
}

describe("PATCH spec.tolerations", () => {
  it("accepts tolerations either whitelist allows, stores them and audits the list", async () => {
    const tolerations = [{ key: "dedicated", value: "payments" }, { key: "gpu", value: "a100" }, { key: "team" }];
    const r = await patch(base, path("cluster-0"), { spec: { tolerations } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.spec.tolerations).toEqual(tolerations);
    expect((await call(base, path("cluster-0"))).body.spec.tolerations).toEqual(tolerations);
    const audit = await call(base, "/api/v1/audit?action=shoot.update");
    const event = audit.body.items.find((e: any) => e.target.name === "cluster-0");
    expect(event.changes).toEqual([{ field: "spec.tolerations", before: null, after: tolerations }]);
  });

  it("refuses a toleration neither whitelist allows with 422 naming it, and writes nothing", async () => {
    const problem = await refused("cluster-1", {
      spec: { tolerations: [{ key: "gpu" }, { key: "dedicated", value: "other" }] },
    });
    expect(problem.errors).toEqual([
      expect.objectContaining({
        field: "spec.tolerations[1].key",
        detail: expect.stringMatching(/"dedicated=other" is not in the project's whitelist nor the global whitelist/),
      }),
    ]);
  });

  it("refuses an invalid or duplicate toleration with the shoot's validation", async () => {
    const empty = await refused("cluster-1", { spec: { tolerations: [{ key: "" }] } });
    expect(empty.errors).toContainEqual(expect.objectContaining({ field: "spec.tolerations[0].key" }));
    const twice = await refused("cluster-1", { spec: { tolerations: [{ key: "gpu" }, { key: "gpu", value: "x" }] } });
    expect(twice.errors).toContainEqual(expect.objectContaining({ field: "spec.tolerations[1]" }));
  });

  it("keeps a toleration the whitelists no longer allow, checking only the new ones, and removes them with null", async () => {
    const kept = await patch(base, path("cluster-3"), { spec: { tolerations: [{ key: "legacy" }, { key: "gpu" }] } });
    expect(kept.status, JSON.stringify(kept.body)).toBe(200);
    expect(kept.body.spec.tolerations).toEqual([{ key: "legacy" }, { key: "gpu" }]);
    const removed = await patch(base, path("cluster-3"), { spec: { tolerations: null } });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect(removed.body.spec.tolerations).toBeUndefined();
    // Once removed, it is new again, and refused.
    await refused("cluster-3", { spec: { tolerations: [{ key: "legacy" }] } });
  });

  it("refuses a toleration that is not key and value with 400", async () => {
    const r = await patch(base, path("cluster-2"), { spec: { tolerations: [{ key: "gpu", effect: "NoSchedule" }] } });
    expect(r.status).toBe(400);
  });
});
