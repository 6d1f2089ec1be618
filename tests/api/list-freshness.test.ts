// The fleet list is never stale: stored rows are rebuilt once the clock passes a classification
// change, and the list cache drops its answers as soon as another process changes a shoot.
import { listShootsParams } from "../../lib/api/operations/shoots.ts";
import { parseQuery } from "../../lib/api/parse-query.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_TOKEN_PRINCIPAL } from "../../lib/auth/principal.ts";
import { isListening, onChange, revision } from "../../lib/db/change-feed.ts";
import type { FleetScope } from "../../lib/server/fleet-scope.ts";
import { listShoots, listShootsJson } from "../../lib/server/list-shoots.ts";
import { seedLandscape } from "../../lib/server/seed-landscape.ts";
import { patch } from "../support/api-client.ts";
import { type AppServer, startNext } from "../support/app-server.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { waitUntil } from "../support/jobs.ts";
import { smallLandscape } from "../support/small-landscape.ts";

const DAY = 86_400_000;
const now = Date.now();
const EVERYTHING: FleetScope = { principal: ADMIN_TOKEN_PRINCIPAL, namespaces: "all" };
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
  const page = await listShoots(database.db, parseQuery(listShootsParams, new URLSearchParams("q=cluster-0")), at);
  return JSON.parse(page.items[0]);
}

describe("stored list rows", () => {
  it("are stored again once rebuilt, and valid until the next change", async () => {
    const validUntil = async () =>
      (
        await database.db.shoot.findUniqueOrThrow({
          where: { namespace_name: { namespace: "garden-dev", name: "cluster-0" } },
        })
      ).listingValidUntil.getTime();
    // Written today: valid until 1.30.5 expires in 20 days.
    expect(await validUntil()).toBeLessThan(now + 21 * DAY);
    await clusterZero(now + 30 * DAY);
    // The write-back is not awaited by the listing: wait for it.
    const rebuilt = await waitUntil("the rebuilt row to be stored", async () => {
      const until = await validUntil();
      return until >= now + 30 * DAY && until;
    });
    // Nothing it uses changes classification after 1.30.5 expires: valid for good.
    expect(rebuilt).toBeGreaterThan(now + 365 * DAY);
  });

  it("show each version's classification at the moment listed, also after it changed", async () => {
    // cluster-0 runs 1.30.5: deprecated now, expired in 20 days.
    const today = await clusterZero(now);
    expect(today.kubernetes).toMatchObject({ version: "1.30.5", classification: "deprecated" });
    const later = await clusterZero(now + 30 * DAY);
    expect(later.kubernetes).toMatchObject({ version: "1.30.5", classification: "expired" });
    expect(Date.parse(later.nextMaintenance.at)).toBeGreaterThanOrEqual(now + 30 * DAY);
    expect(Date.parse(later.nextMaintenance.at)).toBeLessThan(now + 31 * DAY);
    const filtered = await listShoots(
      database.db,
      parseQuery(listShootsParams, new URLSearchParams("classification=expired")),
      now + 30 * DAY,
    );
    expect(filtered.items.map((i) => JSON.parse(i).name)).toEqual(["cluster-0"]);
  });
});

describe("the list cache", () => {
  it("drops its answers when another process changes a shoot", async () => {
    // This process answers list requests as the server does, with its own change feed; its clock
    // stands still, so no answer ages out of the cache: only a notification can make one stale.
    const at = Date.now();
    const search = new URLSearchParams("q=cluster-1");
    const autoUpdate = async (gardenRevision: number | undefined) => {
      const body = await listShootsJson(
        database.db,
        parseQuery(listShootsParams, search),
        EVERYTHING,
        gardenRevision,
        at,
      );
      return JSON.parse(String(body)).items[0].maintenance.autoUpdate.kubernetesVersion;
    };
    revision(database.url);
    await waitUntil("the change feed to listen", async () => isListening());
    const before = revision(database.url);
    expect(before).toBeDefined();
    for (let i = 0; i < 3; i++) expect(await autoUpdate(before)).toBe(false);

    // Another process (the server) changes the shoot; its notification reaches this one.
    const notified = new Promise<void>((resolve) => {
      const off = onChange((change) => {
        if (change.name !== "cluster-1") return;
        off();
        resolve();
      });
    });
    const changed = await patch(server.baseUrl, "/api/v1/namespaces/garden-dev/shoots/cluster-1", {
      spec: { maintenance: { autoUpdate: { kubernetesVersion: true } } },
    });
    expect(changed.status).toBe(200);
    await notified;

    // Without the notification the kept answer would still be given: it is for the old revision.
    expect(await autoUpdate(before)).toBe(false);
    // The notification moved the revision on, so the list is read afresh.
    const after = revision(database.url);
    expect(after).not.toBe(before);
    expect(await autoUpdate(after)).toBe(true);
  });
});
