// The live garden's mirror against the stand-in Kubernetes API server (tests/support/stand-in-garden.ts,
// which speaks the API server's wire protocol; no real kube-apiserver runs here): the first sync,
// changes followed within seconds, a watch that drops, a relist after 410 Gone, objects deleted
// while nobody watched, the history of what Gardener did, and the lease between two mirrors.
import { KubeConfig } from "@kubernetes/client-node";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { startGardenMirror, type RunningMirror } from "../../lib/garden/kubernetes/garden-mirror.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { eventually, putLandscape } from "../support/garden-landscape.ts";
import { smallLandscape } from "../support/small-landscape.ts";
import { type StandInGarden, startStandInGarden } from "../support/stand-in-garden.ts";

let garden: StandInGarden;
let database: TestDatabase;
const mirrors: RunningMirror[] = [];

const quiet = () => {};
const kubeConfig = () => {
  const kc = new KubeConfig();
  kc.loadFromFile(garden.writeKubeconfig());
  return kc;
};
const mirror = (holder: string, leaseMs = 1_500) => {
  const running = startGardenMirror(database.db, kubeConfig(), {
    holder,
    leaseMs,
    log: quiet,
    backoff: { initialMs: 50, maxMs: 500 },
  });
  mirrors.push(running);
  return running;
};

const shootRows = () =>
  database.db.shoot.findMany({
    select: { namespace: true, name: true, uid: true, kubernetesVersion: true, resourceVersion: true },
    orderBy: [{ namespace: "asc" }, { name: "asc" }],
  });

beforeAll(async () => {
  garden = await startStandInGarden({ bookmarkIntervalMs: 200 });
  database = await createTestDatabase();
  const landscape = smallLandscape(Date.now(), 4);
  putLandscape(garden, landscape);
});

afterEach(async () => {
  await Promise.all(mirrors.splice(0).map((m) => m.stop()));
});

afterAll(async () => {
  await database?.drop();
  await garden?.close();
});

describe("the garden mirror", () => {
  test("mirrors exactly the garden's shoots, then follows a change within seconds", async () => {
    const running = mirror("a");
    await running.synced();
    const rows = await shootRows();
    const inGarden = garden.list("Shoot");
    expect(rows.map((r) => [r.name, r.uid, r.kubernetesVersion])).toEqual(
      inGarden
        .map((s) => [s.metadata.name, s.metadata.uid, s.spec.kubernetes.version])
        .sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    );
    expect(await database.db.cloudProfile.count()).toBe(garden.list("CloudProfile").length);
    expect(await database.db.project.count()).toBe(garden.list("Project").length);

    garden.update("Shoot", "garden-dev", "cluster-1", (s) => {
      s.spec.maintenance.timeWindow = { begin: "030000+0000", end: "040000+0000" };
    });
    const row = await eventually(
      () => database.db.shoot.findUnique({ where: { namespace_name: { namespace: "garden-dev", name: "cluster-1" } } }),
      (r) =>
        (r?.spec as { maintenance?: { timeWindow?: { begin?: string } } })?.maintenance?.timeWindow?.begin ===
        "030000+0000",
    );
    expect(row?.gardenResourceVersion).toBe(garden.get("Shoot", "garden-dev", "cluster-1").metadata.resourceVersion);
  });

  test("a garden that refuses NamespacedCloudProfiles (RBAC from before them) still has its shoots mirrored", async () => {
    const rules = garden.rbac;
    garden.rbac = [
      {
        users: ["system:serviceaccount:garden:almanac"],
        verbs: ["*"],
        resources: ["cloudprofiles", "seeds", "projects", "shoots", "subjectaccessreviews"],
      },
    ];
    try {
      await database.db.shoot.deleteMany();
      await database.db.gardenWatchPosition.deleteMany();
      const running = mirror("no-namespaced-profiles");
      await running.synced();
      expect((await shootRows()).length).toBe(garden.list("Shoot").length);
      expect(garden.requests.some((r) => r.path.endsWith("/namespacedcloudprofiles"))).toBe(true);
    } finally {
      garden.rbac = rules;
    }
  });

  test("records Gardener's maintenance as a run with the versions it moved", async () => {
    const running = mirror("a");
    await running.synced();
    garden.update("Shoot", "garden-dev", "cluster-2", (s) => {
      s.spec.kubernetes.version = "1.31.4";
      s.status = {
        ...s.status,
        lastMaintenance: {
          description:
            'Control Plane: Updated Kubernetes version from "1.31.2" to "1.31.4". Reason: AutoUpdate of Kubernetes version',
          triggeredTime: new Date().toISOString(),
          state: "Succeeded",
        },
      };
    });
    const runs = await eventually(
      () => database.db.maintenanceRun.findMany({ where: { name: "cluster-2" } }),
      (r) => r.length === 1,
    );
    expect(runs[0].state).toBe("Succeeded");
    expect(runs[0].changes).toEqual([
      expect.objectContaining({ target: "controlPlane", kind: "kubernetes", from: "1.31.2", to: "1.31.4" }),
    ]);
  });

  test("keeps what a shoot runs apart from what its spec asks until a reconcile of the new spec succeeds", async () => {
    const running = mirror("a");
    await running.synced();
    const recorded = async () =>
      (
        await database.db.shoot.findUniqueOrThrow({
          where: { namespace_name: { namespace: "garden-dev", name: "cluster-3" } },
        })
      ).runningVersions as { kubernetesVersion: string; since: string } | null;
    const ran = garden.get("Shoot", "garden-dev", "cluster-3");
    const ranVersion: string = ran.spec.kubernetes.version;
    garden.update("Shoot", "garden-dev", "cluster-3", (s) => {
      s.spec.maintenance = { ...s.spec.maintenance, confineSpecUpdateRollout: true };
    });
    // The gardenlet reconciles that generation.
    garden.update("Shoot", "garden-dev", "cluster-3", (s) => {
      s.status = {
        ...s.status,
        observedGeneration: s.metadata.generation,
        lastOperation: { type: "Reconcile", state: "Succeeded", progress: 100, lastUpdateTime: "2026-11-20T02:10:00Z" },
      };
    });
    await eventually(recorded, (r) => r?.since === "2026-11-20T02:10:00Z");
    // A user asks for another version; the gardenlet has not rolled it out.
    garden.update("Shoot", "garden-dev", "cluster-3", (s) => {
      s.spec.kubernetes.version = "1.31.4";
    });
    const row = await eventually(
      () =>
        database.db.shoot.findUniqueOrThrow({
          where: { namespace_name: { namespace: "garden-dev", name: "cluster-3" } },
        }),
      (r) => r.kubernetesVersion === "1.31.4",
    );
    expect(row.runningVersions).toMatchObject({ kubernetesVersion: ranVersion, since: "2026-11-20T02:10:00Z" });
    expect(JSON.parse(row.listing)).toMatchObject({
      kubernetes: { version: "1.31.4" },
      rolloutPending: true,
      rollout: { when: "window", changes: [{ target: "controlPlane", running: ranVersion, asked: "1.31.4" }] },
    });
    // The window's reconcile succeeds for the new generation.
    garden.update("Shoot", "garden-dev", "cluster-3", (s) => {
      s.status = {
        ...s.status,
        observedGeneration: s.metadata.generation,
        lastOperation: { type: "Reconcile", state: "Succeeded", progress: 100, lastUpdateTime: "2026-11-25T02:20:00Z" },
      };
    });
    const after = await eventually(recorded, (r) => r?.since === "2026-11-25T02:20:00Z");
    expect(after?.kubernetesVersion).toBe("1.31.4");
  });

  test("resumes after the watch drops, and lists again after 410 Gone, dropping what the garden deleted", async () => {
    const running = mirror("a");
    await running.synced();
    const shootLists = () =>
      garden.requests.filter((r) => r.method === "GET" && r.path.endsWith("/shoots") && !r.query.watch).length;
    const listsBefore = shootLists();
    garden.dropWatches();
    garden.update("Shoot", "garden-dev", "cluster-0", (s) => {
      s.metadata.labels = { ...s.metadata.labels, resumed: "yes" };
    });
    await eventually(
      () => database.db.shoot.findUnique({ where: { namespace_name: { namespace: "garden-dev", name: "cluster-0" } } }),
      (r) => (r?.metadata as { labels?: Record<string, string> })?.labels?.resumed === "yes",
    );
    // It watched again from where it was: no list.
    expect(shootLists()).toBe(listsBefore);

    // While the mirror is away, the garden deletes a shoot and forgets its events.
    await running.stop();
    mirrors.length = 0;
    garden.remove("Shoot", "garden-dev", "cluster-3");
    garden.update("Shoot", "garden-dev", "cluster-0", (s) => {
      s.metadata.labels = { ...s.metadata.labels, relisted: "yes" };
    });
    garden.compact();
    const again = mirror("b");
    await again.synced();
    const rows = await eventually(shootRows, (r) => !r.some((s) => s.name === "cluster-3"));
    expect(rows.map((r) => r.name)).toEqual(
      garden
        .list("Shoot")
        .map((s) => s.metadata.name)
        .sort(),
    );
    const relisted = await database.db.shoot.findUnique({
      where: { namespace_name: { namespace: "garden-dev", name: "cluster-0" } },
    });
    expect((relisted?.metadata as { labels?: Record<string, string> }).labels?.relisted).toBe("yes");
  });

  test("one mirror at a time: the other takes over when the holder stops renewing", async () => {
    const first = mirror("first", 1_000);
    await first.synced();
    const second = mirror("second", 1_000);
    await new Promise((r) => setTimeout(r, 1_200));
    expect([first.leading(), second.leading()]).toEqual([true, false]);
    await first.stop();
    await eventually(
      async () => second.leading(),
      (leading) => leading,
      5_000,
    );
    garden.update("Shoot", "garden-dev", "cluster-1", (s) => {
      s.metadata.labels = { ...s.metadata.labels, "taken-over": "yes" };
    });
    await eventually(
      () => database.db.shoot.findUnique({ where: { namespace_name: { namespace: "garden-dev", name: "cluster-1" } } }),
      (r) => (r?.metadata as { labels?: Record<string, string> })?.labels?.["taken-over"] === "yes",
    );
  });
});
