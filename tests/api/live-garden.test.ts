// The live-garden contract, as tests outside this repo use it: `npm start` with GARDEN_KUBECONFIG,
// PORT, ALMANAC_DATA_DIR and ALMANAC_ADMIN_TOKEN serves the garden's shoots. The garden is the
// stand-in Kubernetes API server (tests/support/stand-in-garden.ts: the API server's wire
// protocol over plain HTTP with insecure-skip-tls-verify and a bearer token, as the contract
// allows), since no kube-apiserver runs on these machines.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createDb } from "../../lib/db/client.ts";
import { startEmbeddedPostgres } from "../../lib/db/embedded-postgres.ts";
import { shootsWithStaleForecasts } from "../../lib/store/shoot-forecasts.ts";
import { call, patch } from "../support/api-client.ts";
import { type AppServer, startAlmanac } from "../support/app-server.ts";
import { eventually, putLandscape } from "../support/garden-landscape.ts";
import { namespacedProfile } from "../support/namespaced-profile.ts";
import { smallLandscape } from "../support/small-landscape.ts";
import { type StandInGarden, startStandInGarden } from "../support/stand-in-garden.ts";

let garden: StandInGarden;
let almanac: AppServer;
const DAY = 86_400_000;
// A project's NamespacedCloudProfile named like its parent (so that reading the name alone finds
// the parent): it extends 1.30.5 (the parent's expires in 20 days) and adds 1.31.9.
const EXTENDED = new Date(Date.now() + 200 * DAY).toISOString();
const dataDir = mkdtempSync(path.join(os.tmpdir(), "almanac-live-"));

const listed = async () =>
  (await call(almanac.baseUrl, "/api/v1/shoots?limit=500")).body.items as {
    namespace: string;
    name: string;
    uid: string;
    kubernetes: { version: string };
  }[];

beforeAll(async () => {
  garden = await startStandInGarden({ bookmarkIntervalMs: 500 });
  const landscape = smallLandscape(Date.now(), 5);
  putLandscape(garden, landscape);
  const parent = landscape.cloudProfiles[0];
  garden.put(
    "NamespacedCloudProfile",
    namespacedProfile(parent, "garden-dev", parent.metadata.name, [
      { version: "1.30.5", expirationDate: EXTENDED },
      { version: "1.31.9", classification: "supported" },
    ]),
  );
  const extended = structuredClone(landscape.shoots[0]);
  extended.metadata = { ...extended.metadata, name: "extended" };
  delete extended.metadata.uid;
  delete extended.spec.cloudProfileName;
  extended.spec.cloudProfile = { kind: "NamespacedCloudProfile", name: parent.metadata.name };
  garden.put("Shoot", extended);
  almanac = await startAlmanac({
    GARDEN_KUBECONFIG: garden.writeKubeconfig(),
    ALMANAC_DATA_DIR: dataDir,
    DATABASE_URL: "",
    ALMANAC_WEB_WORKERS: "1",
  });
});

afterAll(async () => {
  await almanac?.stop("SIGTERM");
  await garden?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("npm start on a live garden", () => {
  test("GET /api/v1/shoots lists exactly the garden's shoots, with their uid and Kubernetes version", async () => {
    const expected = garden
      .list("Shoot")
      .map((s) => ({
        namespace: s.metadata.namespace,
        name: s.metadata.name,
        uid: s.metadata.uid,
        kubernetesVersion: s.spec.kubernetes.version,
      }))
      .sort((a, b) => a.name.localeCompare(b.name));
    const items = await eventually(listed, (i) => i.length === expected.length, 30_000);
    expect(
      items
        .map(({ namespace, name, uid, kubernetes }) => ({
          namespace,
          name,
          uid,
          kubernetesVersion: kubernetes.version,
        }))
        .sort((a, b) => a.name.localeCompare(b.name)),
    ).toEqual(expected);
    // Nothing of the simulated garden's demo landscape was made.
    expect(
      (await call(almanac.baseUrl, "/api/v1/cloudprofiles")).body.items.map(
        (p: { metadata: { name: string } }) => p.metadata.name,
      ),
    ).toEqual(garden.list("CloudProfile").map((p) => p.metadata.name));
  });

  test("the mirrored shoots' forecast facts are computed in the background once the garden is listed", async () => {
    // The database npm start runs, joined as a second process on its data folder would.
    const joined = await startEmbeddedPostgres(dataDir);
    const db = createDb(joined.url, 1);
    try {
      const shoots = garden.list("Shoot").length;
      const fresh = await eventually(
        async () => ({
          mirrored: await db.shoot.count(),
          stale: (await shootsWithStaleForecasts(db, {}, Date.now())).length,
        }),
        (r) => r.mirrored === shoots && r.stale === 0,
        // The worker's first pass waits for its turn on a machine that runs the browser journeys
        // beside this file: a minute, within the test's own limit so that the wait says what it saw.
        60_000,
      );
      expect(fresh).toEqual({ mirrored: shoots, stale: 0 });
    } finally {
      await db.$disconnect();
      await joined.stop();
    }
  }, 90_000);

  test("a change made in the garden is visible through GET within 10 seconds, and a deleted shoot disappears", async () => {
    garden.update("Shoot", "garden-dev", "cluster-2", (s) => {
      s.spec.kubernetes.version = "1.31.4";
    });
    const shoot = await eventually(
      () => call(almanac.baseUrl, "/api/v1/namespaces/garden-dev/shoots/cluster-2"),
      (r) => r.body?.spec?.kubernetes?.version === "1.31.4",
      10_000,
    );
    expect(shoot.body.metadata.uid).toBe(garden.get("Shoot", "garden-dev", "cluster-2").metadata.uid);

    garden.remove("Shoot", "garden-dev", "cluster-4");
    await eventually(
      () => call(almanac.baseUrl, "/api/v1/namespaces/garden-dev/shoots/cluster-4"),
      (r) => r.status === 404,
      10_000,
    );
  });

  test("GET /api/v1/shoots lists a shoot of a NamespacedCloudProfile with its versions' expiry taken from the namespaced profile", async () => {
    type Row = { name: string; cloudProfile: string; namespacedCloudProfile?: string; kubernetes: object };
    const row = async (query = "") =>
      ((await call(almanac.baseUrl, `/api/v1/shoots?limit=500${query}`)).body.items as Row[]).find(
        (i) => i.name === "extended",
      );
    const listed = await eventually(row, (r) => r !== undefined, 30_000);
    expect(listed).toMatchObject({
      cloudProfile: "test-profile",
      namespacedCloudProfile: "test-profile",
      kubernetes: { version: "1.30.5", classification: "deprecated", expiresAt: EXTENDED },
    });
    // Filed under its parent, and classified by its own profile.
    expect(await row("&cloudProfile=test-profile")).toBeDefined();
    expect(await row("&classification=deprecated")).toBeDefined();
    expect(await row("&expiringWithinDays=30")).toBeUndefined();

    // Gardener merges a change into the status: the list follows within seconds.
    const later = new Date(Date.now() + 300 * DAY).toISOString();
    garden.update("NamespacedCloudProfile", "garden-dev", "test-profile", (p) => {
      p.status.cloudProfileSpec.kubernetes.versions.find(
        (v: { version: string }) => v.version === "1.30.5",
      ).expirationDate = later;
    });
    await eventually(row, (r) => (r?.kubernetes as { expiresAt?: string }).expiresAt === later, 10_000);

    // A change is judged against the namespaced profile: 1.31.9 is offered by it alone.
    const path = "/api/v1/namespaces/garden-dev/shoots/extended";
    const patched = await patch(almanac.baseUrl, path, { spec: { kubernetes: { version: "1.31.9" } } });
    expect(patched.status).toBe(200);
    expect(garden.get("Shoot", "garden-dev", "extended").spec.kubernetes.version).toBe("1.31.9");
  });

  test("GET .../nodes answers what the garden reports, and reads no nodes as Almanac's own identity", async () => {
    const path = "/api/v1/namespaces/garden-dev/shoots/cluster-1/nodes";
    const answer = await eventually(
      () => call(almanac.baseUrl, path),
      (r) => r.status === 200,
      30_000,
    );
    expect(answer.body).toMatchObject({ source: "garden", items: [] });
    expect(answer.body.pools.map((p: { pool: string }) => p.pool)).toEqual(["pool-a", "pool-b"]);
    expect(answer.body.note).toMatch(/shoots\/viewerkubeconfig/);
    // The admin token acts as Almanac, which never asks for a viewer kubeconfig.
    const asked = garden.requests.length;
    const through = await call(almanac.baseUrl, `${path}?through=viewer-kubeconfig`);
    expect(through.status).toBe(403);
    expect(through.body.detail).toMatch(/Almanac's own identity/);
    expect(garden.requests.slice(asked).filter((r) => r.path.endsWith("/viewerkubeconfig"))).toEqual([]);
  });

  test("PATCH with a window sends the garden a merge patch of spec.maintenance only; POST .../maintain sets the operation annotation", async () => {
    const path = "/api/v1/namespaces/garden-dev/shoots/cluster-3";
    await eventually(
      () => call(almanac.baseUrl, path),
      (r) => r.status === 200,
      30_000,
    );
    const before = garden.get("Shoot", "garden-dev", "cluster-3");
    const changes = () => garden.requests.filter((r) => r.method !== "GET" && r.path.endsWith("/shoots/cluster-3"));
    const window = { begin: "030000+0000", end: "040000+0000" };
    const patched = await patch(almanac.baseUrl, path, { spec: { maintenance: { timeWindow: window } } });
    expect(patched.status).toBe(200);
    expect(patched.body.spec.maintenance.timeWindow).toEqual(window);
    expect(changes()).toEqual([
      expect.objectContaining({
        method: "PATCH",
        contentType: "application/merge-patch+json",
        body: {
          metadata: { resourceVersion: before.metadata.resourceVersion },
          spec: { maintenance: { timeWindow: window } },
        },
      }),
    ]);
    expect(garden.get("Shoot", "garden-dev", "cluster-3").spec.maintenance.timeWindow).toEqual(window);

    const maintained = await call(almanac.baseUrl, `${path}/maintain`, { method: "POST" });
    expect(maintained.status).toBe(202);
    expect(garden.get("Shoot", "garden-dev", "cluster-3").metadata.annotations["gardener.cloud/operation"]).toBe(
      "maintain",
    );
    expect(changes()).toHaveLength(2);
  });
});
