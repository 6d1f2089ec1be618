// The simulated garden's hibernation controller with a real job queue and worker on a real
// PostgreSQL: a shoot's schedules hibernate and wake it at their moments (spec.hibernation.enabled,
// a new generation, the gardenlet's reconcile, status.hibernated following), the next moment is
// placed each time, changed schedules move it, and a lost job is sent again by the sweep. The
// moment is injected: a row due now with its job, as if the worker had waited for it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { embeddedShootWrites } from "../../lib/garden/embedded/embedded-shoot-writes.ts";
import type { Actor } from "../../lib/garden/shoot-writes.ts";
import { type PgBoss, QUEUES, startQueue } from "../../lib/jobs/queue.ts";
import {
  enqueueHibernation,
  ensureHibernationMoments,
  requeueOverdueHibernation,
} from "../../lib/jobs/schedule-hibernation.ts";
import { seedLandscape } from "../../lib/server/seed-landscape.ts";
import { findHibernationMoment, upsertHibernationMoments } from "../../lib/store/hibernation-moments.ts";
import { findShoot } from "../../lib/store/shoots.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { startTestWorker, unfinishedJobs, waitUntil } from "../support/jobs.ts";
import { smallLandscape } from "../support/small-landscape.ts";

const NS = "garden-dev";
const now = Date.now();
const actor: Actor = { name: "admin", requestId: "req-1", identity: { kind: "almanac" } };
let database: TestDatabase;
let workerBoss: PgBoss;
let client: PgBoss;

beforeAll(async () => {
  database = await createTestDatabase();
  const landscape = smallLandscape(now, 3);
  // Every minute: whenever the worker looks, the latest moment hibernates.
  landscape.shoots[0].spec.hibernation = { schedules: [{ start: "* * * * *", location: "Europe/Berlin" }] };
  await seedLandscape(database.db, landscape, { actor: "test", now });
  client = await startQueue(database.url, { expireSeconds: 3, supervise: false });
  workerBoss = await startTestWorker(database.url, database.db, { gardenlet: true });
});

afterAll(async () => {
  await workerBoss?.stop({ graceful: false });
  await client?.stop({ graceful: false });
  await database?.drop();
});

const shoot = async (name: string) => (await findShoot(database.db, NS, name))!.shoot;

/** Makes the shoot's moment due now, with its job, as the worker would have waited for it. */
async function momentNow(name: string) {
  const moment = { namespace: NS, name, dueAt: new Date(Date.now() - 1000) };
  await database.db.$transaction(async (tx) => {
    await upsertHibernationMoments(tx, [moment]);
    await enqueueHibernation(tx, client, [moment]);
  });
}

describe("scheduled hibernation on the simulated garden", () => {
  it("places a moment only for shoots with schedules", async () => {
    expect(await ensureHibernationMoments(database.db, client, Date.now())).toBe(1);
    const moment = await findHibernationMoment(database.db, NS, "cluster-0");
    expect(moment!.dueAt.getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(moment!.dueAt.getUTCSeconds()).toBe(0);
    expect(await findHibernationMoment(database.db, NS, "cluster-1")).toBeUndefined();
    // Placed already: nothing more.
    expect(await ensureHibernationMoments(database.db, client, Date.now())).toBe(0);
  });

  it("hibernates the shoot at its moment, the gardenlet reconciles, and the next moment is placed", async () => {
    const before = await shoot("cluster-0");
    await momentNow("cluster-0");
    const hibernated = await waitUntil("the shoot hibernated", async () => {
      const s = await shoot("cluster-0");
      return s.status?.hibernated === true && s.status.lastOperation?.state === "Succeeded" && s;
    });
    expect(hibernated.spec.hibernation?.enabled).toBe(true);
    expect(hibernated.metadata.generation).toBe((before.metadata.generation ?? 0) + 1);
    expect(hibernated.status?.lastHibernationTriggerTime).toEqual(expect.any(String));
    const next = await findHibernationMoment(database.db, NS, "cluster-0");
    expect(next!.dueAt.getTime()).toBeGreaterThan(Date.now() - 1000);
    const audit = await database.db.auditEvent.findFirst({
      where: { targetName: "cluster-0", actor: "system:shoot-hibernation-controller" },
    });
    expect(audit?.changes).toEqual([{ field: "spec.hibernation.enabled", before: null, after: true }]);
  });

  it("wakes it when changed schedules say so; the old job does nothing", async () => {
    const writes = embeddedShootWrites(database.db, () => client);
    const old = await findHibernationMoment(database.db, NS, "cluster-0");
    const r = await writes.patchShoot(
      actor,
      { namespace: NS, name: "cluster-0" },
      { spec: { hibernation: { schedules: [{ end: "* * * * *" }] } } },
      {},
      Date.now(),
    );
    expect(r.ok).toBe(true);
    const moved = await findHibernationMoment(database.db, NS, "cluster-0");
    expect(moved!.dueAt.getTime()).toBeGreaterThanOrEqual(old!.dueAt.getTime());
    await momentNow("cluster-0");
    const awake = await waitUntil("the shoot woke up", async () => {
      const s = await shoot("cluster-0");
      return s.status?.hibernated === false && s.status.lastOperation?.state === "Succeeded" && s;
    });
    expect(awake.spec.hibernation?.enabled).toBe(false);
  });

  it("removes the moment with the schedules", async () => {
    const writes = embeddedShootWrites(database.db, () => client);
    const r = await writes.patchShoot(
      actor,
      { namespace: NS, name: "cluster-0" },
      { spec: { hibernation: { schedules: null } } },
      {},
      Date.now(),
    );
    expect(r.ok).toBe(true);
    expect(await findHibernationMoment(database.db, NS, "cluster-0")).toBeUndefined();
  });

  it("sends a lost job again from the sweep", async () => {
    const writes = embeddedShootWrites(database.db, () => client);
    await writes.patchShoot(
      actor,
      { namespace: NS, name: "cluster-1" },
      { spec: { hibernation: { schedules: [{ start: "* * * * *" }] } } },
      {},
      Date.now(),
    );
    // The moment is overdue and its job is gone (failed for good, or deleted).
    await database.db.hibernationMoment.update({
      where: { namespace_name: { namespace: NS, name: "cluster-1" } },
      data: { dueAt: new Date(Date.now() - 60_000) },
    });
    expect(await requeueOverdueHibernation(database.db, client, Date.now(), 30_000)).toBe(1);
    await waitUntil("the shoot hibernated", async () => (await shoot("cluster-1")).spec.hibernation?.enabled === true);
    await waitUntil("no job due now", async () =>
      (await unfinishedJobs(client, QUEUES.hibernation, { name: "cluster-1" })).every(
        (j) => new Date(j.startAfter).getTime() > Date.now(),
      ),
    );
  });
});
