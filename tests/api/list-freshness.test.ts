// The fleet list is never stale: stored rows are rebuilt once the clock passes a classification
// change, and the server's list cache drops its answers as soon as another process changes a shoot.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listShoots, parseListShootsParams } from "../../lib/server/list-shoots.ts";
import { seedLandscape } from "../../lib/server/seed-landscape.ts";
import { updateShootFromPatch } from "../../lib/server/update-shoot.ts";
import { call } from "../support/api-client.ts";
import { type AppServer, startNext } from "../support/app-server.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { smallLandscape } from "../support/small-landscape.ts";
import { embeddedShootWrites } from "../../lib/garden/embedded/embedded-shoot-writes.ts";

const DAY = 86_400_000;
const now = Date.now();
let database: TestDatabase;
let server: AppServer;

beforeAll(async () => {
  database = await createTestDatabase();
  await seedLandscape(database.db, smallLandscape(now, 4), { actor: "test", now });
  server = await startNext(database.url);
});

afterAll(async () => {
  await server?.stop();
  await database?.drop();
});

async function clusterZero(at: number) {
  const page = await listShoots(database.db, parseListShootsParams(new URLSearchParams("q=cluster-0")), at);
  return JSON.parse(page.items[0]);
}

describe("stored list rows", () => {
  it("are stored again once rebuilt, and valid until the next change", async () => {
    const validUntil = async () => (await database.db.shoot.findUniqueOrThrow({ where: { namespace_name: { namespace: "garden-dev", name: "cluster-0" } } })).listingValidUntil.getTime();
    // Written today: valid until 1.30.5 expires in 20 days.
    expect(await validUntil()).toBeLessThan(now + 21 * DAY);
    await clusterZero(now + 30 * DAY);
    // The write-back is not awaited by the listing; give it a moment.
    const until = Date.now() + 2000;
    while ((await validUntil()) < now + 30 * DAY && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    // Nothing it uses changes classification after 1.30.5 expires: valid for good.
    expect(await validUntil()).toBeGreaterThan(now + 365 * DAY);
  });

  it("show each version's classification at the moment listed, also after it changed", async () => {
    // cluster-0 runs 1.30.5: deprecated now, expired in 20 days.
    const today = await clusterZero(now);
    expect(today.kubernetes).toMatchObject({ version: "1.30.5", classification: "deprecated" });
    const later = await clusterZero(now + 30 * DAY);
    expect(later.kubernetes).toMatchObject({ version: "1.30.5", classification: "expired" });
    expect(Date.parse(later.nextMaintenance.at)).toBeGreaterThanOrEqual(now + 30 * DAY);
    expect(Date.parse(later.nextMaintenance.at)).toBeLessThan(now + 31 * DAY);
    const filtered = await listShoots(database.db, parseListShootsParams(new URLSearchParams("classification=expired")), now + 30 * DAY);
    expect(filtered.items.map((i) => JSON.parse(i).name)).toEqual(["cluster-0"]);
  });

});

describe("the server's list cache", () => {
  it("drops its answers when another process changes a shoot", async () => {
    const path = "/api/v1/shoots?q=cluster-1";
    // Fill the cache (the change feed connects on the first request).
    for (let i = 0; i < 3; i++) expect((await call(server.baseUrl, path)).body.items[0].maintenance.autoUpdate.kubernetesVersion).toBe(false);
    await updateShootFromPatch(embeddedShootWrites(database.db, () => undefined), {
      namespace: "garden-dev", name: "cluster-1", ifMatch: null, actor: "other-process", requestId: "r1", now: Date.now(),
      body: { spec: { maintenance: { autoUpdate: { kubernetesVersion: true } } } },
    });
    // Well within the cache's one-second lifetime: only the notification can have cleared it.
    const until = Date.now() + 400;
    let seen = false;
    while (!seen && Date.now() < until) {
      seen = (await call(server.baseUrl, path)).body.items[0].maintenance.autoUpdate.kubernetesVersion === true;
      if (!seen) await new Promise((r) => setTimeout(r, 20));
    }
    expect(seen).toBe(true);
  });
});
