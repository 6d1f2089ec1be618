// Deleting a shoot: only with the confirmation annotation; then the deletion flow's three cleanup
// tasks with their grace periods and forced finalizations (simulated seconds run fast here), the
// annotation overrides, skip-cleanup, no-cleanup and the objects the cleanup spares, a cleanup
// outlasting its task's ten minutes (Error with ERR_CLEANUP_CLUSTER_RESOURCES, retried), and
// finally the shoot is gone while the record stays (Gardener: botanist/cleanup.go,
// reconciler_delete.go).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Shoot } from "../../lib/gardener/types.ts";
import { type PgBoss, startQueue } from "../../lib/jobs/queue.ts";
import { crc32 } from "../../lib/engine/crc32.ts";
import type { ClusterResource } from "../../lib/engine/deletion-cleanup.ts";
import type { ShootInventory } from "../../lib/engine/shoot-inventory.ts";
import { findInventory } from "../../lib/store/inventories.ts";
import { deleteShoot, shootDeletion } from "../../lib/server/delete-shoot.ts";
import { seedLandscape } from "../../lib/server/seed-landscape.ts";
import { updateShootFromPatch } from "../../lib/server/update-shoot.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { FAST, startTestWorker, waitUntil } from "../support/jobs.ts";
import { smallLandscape } from "../support/small-landscape.ts";
import { embeddedShootWrites } from "../../lib/garden/embedded/embedded-shoot-writes.ts";

let database: TestDatabase;
let client: PgBoss;
let workerBoss: PgBoss;

beforeAll(async () => {
  database = await createTestDatabase();
  client = await startQueue(database.url, { expireSeconds: 2, supervise: false });
  const landscape = smallLandscape(Date.now(), 4);
  // Uids whose demo inventory has no VolumeSnapshot stuck for the hour of its finalization, so
  // every deletion here takes about the same (short) time.
  let n = 0;
  for (const s of landscape.shoots) {
    for (; ; n++) {
      const uid = `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
      if (crc32(`inventory|${uid}`) % 6 !== 0) {
        s.metadata.uid = uid;
        n++;
        break;
      }
    }
  }
  await seedLandscape(database.db, landscape, { actor: "test", now: Date.now(), boss: client });
  // One simulated second lasts 2 ms: a 5 minute grace period takes 0.6 s.
  workerBoss = await startTestWorker(database.url, database.db, { ...FAST, cleanupSecondMs: 2 });
});

afterAll(async () => {
  await workerBoss?.stop({ graceful: false });
  await client?.stop({ graceful: false });
  await database?.drop();
});

const patch = (name: string, annotations: Record<string, string>) =>
  updateShootFromPatch(
    embeddedShootWrites(database.db, () => client),
    {
      namespace: "garden-dev",
      name,
      body: { metadata: { annotations } },
      ifMatch: null,
      actor: "alice",
      requestId: "p",
      identity: { kind: "almanac" as const },
      now: Date.now(),
    },
  );
const remove = (name: string) =>
  deleteShoot(
    embeddedShootWrites(database.db, () => client),
    {
      namespace: "garden-dev",
      name,
      actor: "alice",
      requestId: "d",
      identity: { kind: "almanac" as const },
      now: Date.now(),
    },
  );
const gone = (name: string) =>
  waitUntil(
    `${name} to be deleted`,
    async () => (await shootDeletion(database.db, "garden-dev", name)).state === "Succeeded",
    60_000,
  );

describe("deleting a shoot", () => {
  it("needs the confirmation annotation", async () => {
    await expect(remove("cluster-0")).rejects.toMatchObject({
      code: "unprocessable",
      errors: [expect.objectContaining({ field: "metadata.annotations[confirmation.gardener.cloud/deletion]" })],
    });
  });

  it("cleans up in three steps, spares no-cleanup resources and what Gardener spares, then removes the shoot and keeps the record", async () => {
    await patch("cluster-0", { "confirmation.gardener.cloud/deletion": "true" });
    const answer = await remove("cluster-0");
    expect(answer.steps.map((s) => s.name)).toEqual([
      "CleanWebhooks",
      "CleanExtendedAPIs",
      "CleanKubernetesResources",
      "DeleteShoot",
    ]);
    expect(answer.message).toMatch(/in 3 steps/);
    // While it runs, the shoot shows a Delete operation and cannot be changed.
    const during = await database.db.shoot.findUnique({
      where: { namespace_name: { namespace: "garden-dev", name: "cluster-0" } },
    });
    expect((during?.status as Shoot["status"])?.lastOperation?.type).toBe("Delete");
    await expect(patch("cluster-0", { "shoot.gardener.cloud/skip-cleanup": "true" })).rejects.toMatchObject({
      code: "conflict",
    });
    await gone("cluster-0");
    const record = await shootDeletion(database.db, "garden-dev", "cluster-0");
    for (let i = 1; i < record.steps.length; i++)
      expect(Date.parse(record.steps[i].startedAt!)).toBeGreaterThanOrEqual(Date.parse(record.steps[i - 1].endedAt!));
    const k8s = record.steps.find((s) => s.name === "CleanKubernetesResources")!;
    expect(k8s.keeps).toEqual([
      "Deployment/kube-system/csi-snapshot-controller",
      "Deployment/kube-system/coredns",
      "Service/default/kubernetes",
    ]);
    expect(k8s.deletes).toContain("Deployment/default/web");
    expect(record.steps.find((s) => s.name === "CleanExtendedAPIs")!.keeps).toEqual(["APIService/v1.apps"]);
    expect(k8s.message).toMatch(/left alone/);
    expect(await database.db.shoot.count({ where: { name: "cluster-0" } })).toBe(0);
    expect(await database.db.maintenanceSchedule.count({ where: { name: "cluster-0" } })).toBe(0);
    const audit = await database.db.auditEvent.findMany({ where: { targetName: "cluster-0" }, orderBy: { id: "asc" } });
    expect(audit.map((a) => a.action)).toEqual(["shoot.update", "shoot.delete", "shoot.deleted"]);
  });

  it("honours skip-cleanup (by presence, whatever its value) and a finalize grace period of 0", async () => {
    await patch("cluster-1", {
      "confirmation.gardener.cloud/deletion": "true",
      "shoot.gardener.cloud/skip-cleanup": "false",
      "shoot.gardener.cloud/cleanup-webhooks-finalize-grace-period-seconds": "0",
    });
    const answer = await remove("cluster-1");
    const k8s = answer.steps.find((s) => s.name === "CleanKubernetesResources")!;
    expect(
      k8s.deletes.every((r) => /^(Service|PersistentVolumeClaim|VolumeSnapshot|VolumeSnapshotContent)\//.test(r)),
    ).toBe(true);
    expect(k8s.keeps).toEqual(expect.arrayContaining(["Deployment/default/web", "Pod/default/web-7c9f8d6b5-x2v4q"]));
    // The extended APIs are not cleaned at all.
    const apis = answer.steps.find((s) => s.name === "CleanExtendedAPIs")!;
    expect(apis).toMatchObject({ skipped: true, deletes: [] });
    expect(apis.keeps).toContain("CustomResourceDefinition/certificates.cert.gardener.cloud");
    expect(answer.steps[0].seconds).toBe(0);
    await gone("cluster-1");
  });

  it("shows ERR_CLEANUP_CLUSTER_RESOURCES while stuck objects outlast the task's ten minutes, and retries until they are finalized", async () => {
    // A CRD nobody finalizes, finalized after 20 simulated minutes (the annotation, shorter than the
    // default hour): the first attempt times out after 10 minutes, the next one finishes.
    const inventory = (await findInventory(database.db, "garden-dev", "cluster-2"))!;
    const stuck: ClusterResource = {
      kind: "CustomResourceDefinition",
      name: "installs.example.com",
      finalizers: ["x"],
    };
    const document: ShootInventory = { ...inventory, resources: [...inventory.resources, stuck] };
    await database.db.shootInventory.update({
      where: { namespace_name: { namespace: "garden-dev", name: "cluster-2" } },
      data: { document: document as never },
    });
    await patch("cluster-2", {
      "confirmation.gardener.cloud/deletion": "true",
      "shoot.gardener.cloud/cleanup-extended-apis-finalize-grace-period-seconds": "1200",
    });
    await remove("cluster-2");
    // While the next attempt runs, the shoot keeps the last attempt's error (the gardenlet's
    // operation start keeps lastErrors; the task's success drops them).
    const seen = await waitUntil(
      "the cleanup error on the shoot",
      async () => {
        const row = await database.db.shoot.findUnique({
          where: { namespace_name: { namespace: "garden-dev", name: "cluster-2" } },
        });
        const errors = (row?.status as Shoot["status"])?.lastErrors;
        return errors?.some((e) => e.codes?.includes("ERR_CLEANUP_CLUSTER_RESOURCES")) ? errors : undefined;
      },
      20_000,
    );
    expect(seen[0]).toMatchObject({
      taskID: "Cleaning extended API groups",
      description: expect.stringContaining(
        "remaining objects are still present: [*v1.CustomResourceDefinition /installs.example.com]",
      ),
    });
    await gone("cluster-2");
    const record = await shootDeletion(database.db, "garden-dev", "cluster-2");
    const apis = record.steps.find((s) => s.name === "CleanExtendedAPIs")!;
    expect(apis.forced).toBe(true);
    expect(apis.errors).toEqual([
      expect.stringMatching(
        /^task "Cleaning extended API groups" failed: 1 error occurred:\n\t\* retry failed with context deadline exceeded/,
      ),
    ]);
    expect(apis.message).toMatch(/1 attempt timed out/);
  });
});
