// GET .../cleanup over HTTP against the production build and a real PostgreSQL: before a
// deletion, the resources labelled shoot.gardener.cloud/no-cleanup=true that Gardener leaves, and
// the cleanup's grace periods from the shoot's annotations (or Gardener's defaults).
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
const NO_CLEANUP = { "shoot.gardener.cloud/no-cleanup": "true" };

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

async function setResources(name: string, resources: object[]) {
  const key = { namespace_name: { namespace: "garden-dev", name } };
  const row = await database.db.shootInventory.findUnique({ where: key });
  const document = JSON.parse(JSON.stringify({ ...(row!.document as object), resources }));
  await database.db.shootInventory.update({ where: key, data: { document } });
}

describe("GET .../cleanup", () => {
  it("lists what is labelled no-cleanup and the grace periods in effect", async () => {
    await setResources("cluster-0", [
      { kind: "Deployment", namespace: "kube-system", name: "csi-custom-controller", labels: NO_CLEANUP },
      { kind: "Deployment", namespace: "default", name: "web" },
      {
        kind: "VolumeSnapshot",
        namespace: "data",
        name: "weekly",
        labels: NO_CLEANUP,
        finalizers: ["snapshot.storage.kubernetes.io/volumesnapshot-bound-protection"],
      },
      { kind: "APIService", name: "v1.custom.example.com", labels: NO_CLEANUP },
    ]);
    const annotated = await patch(base, path("cluster-0"), {
      metadata: { annotations: { "shoot.gardener.cloud/cleanup-webhooks-finalize-grace-period-seconds": "0" } },
    });
    expect(annotated.status, JSON.stringify(annotated.body)).toBe(200);

    const r = await call(base, `${path("cluster-0")}/cleanup`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({
      namespace: "garden-dev",
      name: "cluster-0",
      inventoryKnown: true,
      skipCleanup: false,
    });
    expect(r.body.noCleanup).toEqual([
      {
        kind: "Deployment",
        namespace: "kube-system",
        name: "csi-custom-controller",
        finalizers: [],
        outcome: "spared",
      },
      {
        kind: "VolumeSnapshot",
        namespace: "data",
        name: "weekly",
        finalizers: ["snapshot.storage.kubernetes.io/volumesnapshot-bound-protection"],
        outcome: "spared",
      },
      { kind: "APIService", namespace: null, name: "v1.custom.example.com", finalizers: [], outcome: "deleted-anyway" },
    ]);
    expect(
      r.body.gracePeriods.map((g: Record<string, unknown>) => [g.step, g.value, g.finalizeAfterSeconds, g.skipped]),
    ).toEqual([
      ["CleanWebhooks", "0", 0, false],
      ["CleanExtendedAPIs", null, 3600, false],
      ["CleanKubernetesResources", null, 300, false],
      ["CleanKubernetesResources", null, 3600, false],
    ]);
  });

  it("says so when it does not know what runs inside the shoot, and 404s an unknown shoot", async () => {
    await database.db.shootInventory.delete({
      where: { namespace_name: { namespace: "garden-dev", name: "cluster-1" } },
    });
    const r = await call(base, `${path("cluster-1")}/cleanup`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ inventoryKnown: false, noCleanup: [] });
    expect((await call(base, `${path("no-such")}/cleanup`)).status).toBe(404);
  });
});
