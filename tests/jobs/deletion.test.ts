// Deleting a shoot: only with the confirmation annotation; then the four cleanup steps with their
// grace periods and forced finalizations (simulated seconds run fast here), the annotation
// overrides, skip-cleanup and no-cleanup, and finally the shoot is gone while the record stays.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Shoot } from "../../lib/gardener/types.ts";
import { type PgBoss, startQueue } from "../../lib/jobs/queue.ts";
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
  await seedLandscape(database.db, smallLandscape(Date.now(), 4), { actor: "test", now: Date.now(), boss: client });
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
      now: Date.now(),
    },
  );
const remove = (name: string) =>
  deleteShoot(
    embeddedShootWrites(database.db, () => client),
    { namespace: "garden-dev", name, actor: "alice", requestId: "d", now: Date.now() },
  );
const gone = (name: string) =>
  waitUntil(
    `${name} to be deleted`,
    async () => (await shootDeletion(database.db, "garden-dev", name)).state === "Succeeded",
    20_000,
  );

describe("deleting a shoot", () => {
  it("needs the confirmation annotation", async () => {
    await expect(remove("cluster-0")).rejects.toMatchObject({
      status: 422,
      errors: [expect.objectContaining({ field: "metadata.annotations[confirmation.gardener.cloud/deletion]" })],
    });
  });

  it("cleans up in four steps, leaves no-cleanup resources alone, then removes the shoot and keeps the record", async () => {
    await patch("cluster-0", { "confirmation.gardener.cloud/deletion": "true" });
    const answer = await remove("cluster-0");
    expect(answer.steps.map((s) => s.name)).toEqual([
      "CleanWebhooks",
      "CleanExtendedAPIs",
      "CleanKubernetesResources",
      "CleanVolumeSnapshots",
      "DeleteShoot",
    ]);
    // While it runs, the shoot shows a Delete operation and cannot be changed.
    const during = await database.db.shoot.findUnique({
      where: { namespace_name: { namespace: "garden-dev", name: "cluster-0" } },
    });
    expect((during?.status as Shoot["status"])?.lastOperation?.type).toBe("Delete");
    await expect(patch("cluster-0", { "shoot.gardener.cloud/skip-cleanup": "true" })).rejects.toMatchObject({
      status: 409,
    });
    await gone("cluster-0");
    const record = await shootDeletion(database.db, "garden-dev", "cluster-0");
    for (let i = 1; i < record.steps.length; i++)
      expect(Date.parse(record.steps[i].startedAt!)).toBeGreaterThanOrEqual(Date.parse(record.steps[i - 1].endedAt!));
    const k8s = record.steps.find((s) => s.name === "CleanKubernetesResources")!;
    expect(k8s.keeps).toEqual(["Deployment/kube-system/csi-snapshot-controller"]);
    expect(k8s.deletes).toContain("Deployment/default/web");
    expect(k8s.message).toMatch(/left alone/);
    expect(await database.db.shoot.count({ where: { name: "cluster-0" } })).toBe(0);
    expect(await database.db.maintenanceSchedule.count({ where: { name: "cluster-0" } })).toBe(0);
    const audit = await database.db.auditEvent.findMany({ where: { targetName: "cluster-0" }, orderBy: { id: "asc" } });
    expect(audit.map((a) => a.action)).toEqual(["shoot.update", "shoot.delete", "shoot.deleted"]);
  });

  it("honours skip-cleanup and a finalize grace period of 0", async () => {
    await patch("cluster-1", {
      "confirmation.gardener.cloud/deletion": "true",
      "shoot.gardener.cloud/skip-cleanup": "true",
      "shoot.gardener.cloud/cleanup-webhooks-finalize-grace-period-seconds": "0",
    });
    const answer = await remove("cluster-1");
    const k8s = answer.steps.find((s) => s.name === "CleanKubernetesResources")!;
    expect(k8s.deletes.every((r) => r.startsWith("Service/") || r.startsWith("PersistentVolumeClaim/"))).toBe(true);
    expect(k8s.keeps).toEqual(expect.arrayContaining(["Deployment/default/web", "Pod/default/web-7c9f8d6b5-x2v4q"]));
    expect(answer.steps[0].seconds).toBe(0);
    await gone("cluster-1");
  });
});
