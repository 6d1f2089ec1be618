// Control-plane migration with a real queue and worker: refusals in Gardener's words, a full
// migration with each step recorded in order and the seed switched at Migrate Succeeded, the wait
// for an unready destination (ShootReadyForMigration), retries until the retry duration and then
// Failed, a user's retry, a worker killed again and again mid-flow, and what is refused meanwhile
// (plugin/pkg/shoot/validator/admission.go: no spec change or deletion while the last operation is
// Migrate, Failed included, or an unfinished Restore).
import { migrateShoot } from "../../lib/api/operations/migrations.ts";
import { shootPatchSchema } from "../../lib/api/shoot-patch.ts";
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Landscape } from "../../lib/demo/landscape.ts";
import { latestMigration } from "../../lib/store/migrations.ts";
import type { Shoot } from "../../lib/gardener/types.ts";
import { type PgBoss, startQueue } from "../../lib/jobs/queue.ts";
import { seedLandscape } from "../../lib/server/seed-landscape.ts";
import { startShootMigration } from "../../lib/server/start-migration.ts";
import { updateShootFromPatch } from "../../lib/server/update-shoot.ts";
import { deleteShoot } from "../../lib/server/delete-shoot.ts";
import { seed } from "../support/builders.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { FAST, startTestWorker, waitUntil } from "../support/jobs.ts";
import { smallLandscape } from "../support/small-landscape.ts";
import { embeddedShootWrites } from "../../lib/garden/embedded/embedded-shoot-writes.ts";
import type { Refusal } from "../../lib/api/refusal.ts";
import { refusalAnswer } from "../../lib/http/refusal-answer.ts";

function landscape(): Landscape {
  const l = smallLandscape(Date.now(), 8);
  const noBackup = seed("seed-nobackup");
  delete noBackup.spec.backup;
  l.seeds = [
    seed("seed-1"),
    seed("seed-2"),
    seed("seed-down", { ready: false }),
    seed("seed-tainted", { taints: [{ key: "dedicated", value: "payments" }] }),
    seed("seed-away", { ready: false }),
    noBackup,
  ];
  l.shoots[7].status = { lastOperation: { type: "Create", state: "Failed", progress: 10 } }; // cluster-7: never created
  return l;
}

let database: TestDatabase;
let client: PgBoss;
const workers: PgBoss[] = [];
const children: ChildProcess[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  client = await startQueue(database.url, { expireSeconds: 2, supervise: false });
  await seedLandscape(database.db, landscape(), { actor: "test", now: Date.now(), boss: client });
});

afterEach(async () => {
  for (const w of workers.splice(0)) await w.stop({ graceful: false });
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
});

afterAll(async () => {
  await client?.stop({ graceful: false });
  await database?.drop();
});

const migrate = (name: string, seedName: string) =>
  startShootMigration(
    embeddedShootWrites(database.db, () => client),
    {
      namespace: "garden-dev",
      name,
      body: { seedName },
      actor: "ops@example.com",
      requestId: `m-${name}`,
      identity: { kind: "almanac" as const },
      now: Date.now(),
    },
  );

const shootOf = async (name: string) =>
  (await database.db.shoot.findUniqueOrThrow({
    where: { namespace_name: { namespace: "garden-dev", name } },
  })) as unknown as { spec: Shoot["spec"]; status: Shoot["status"]; metadata: Shoot["metadata"] };

const finished = (name: string, timeoutMs = 30_000) =>
  waitUntil(
    `the migration of ${name} to end`,
    async () => {
      const m = await latestMigration(database.db, "garden-dev", name);
      return m && (m.flow.state === "Succeeded" || m.flow.state === "Failed") && m;
    },
    timeoutMs,
  );

describe("starting a migration", () => {
  it("is refused with 422 and the reason", async () => {
    const refused = async (name: string, to: string) => {
      try {
        await migrate(name, to);
      } catch (error) {
        const e = refusalAnswer(error as Refusal);
        expect(e.status).toBe(422);
        return e.errors.map((x) => x.detail).join(" | ");
      }
      throw new Error("accepted");
    };
    expect(await refused("cluster-7", "seed-2")).toMatch(/never successfully created/);
    expect(await refused("cluster-1", "seed-1")).toBe(
      "update of binding rejected, shoot is already assigned to the same seed",
    );
    expect(await refused("cluster-1", "seed-9")).toBe(
      'could not find referenced seed "seed-9": seed.core.gardener.cloud "seed-9" not found',
    );
    expect(await refused("cluster-1", "seed-tainted")).toBe(
      "forbidden to use a seed whose taints are not tolerated by the shoot",
    );
    expect(await refused("cluster-1", "seed-nobackup")).toBe(
      'cannot change seed name because backup is not configured for seed "seed-nobackup"',
    );
    // A name that cannot be a seed never reaches the use case: the operation's body schema refuses it.
    expect(migrateShoot.body.schema.safeParse({ seedName: "Not A Seed!" }).success).toBe(false);
  });
});

describe("a migration", () => {
  it("runs every step in order, switches the seed at Migrate Succeeded and ends Succeeded; another is refused while it runs", async () => {
    workers.push(await startTestWorker(database.url, database.db, { ...FAST, jobExpireSeconds: 2 }));
    const answer = await migrate("cluster-1", "seed-2");
    expect(answer).toMatchObject({ source: "seed-1", destination: "seed-2", state: "Processing" });
    await expect(migrate("cluster-1", "seed-1")).rejects.toMatchObject({ code: "unprocessable" });
    const m = await finished("cluster-1");
    expect(m.flow.state).toBe("Succeeded");
    expect(m.flow.steps.map((s) => s.outcome)).toEqual(Array(9).fill("Succeeded"));
    for (let i = 0; i < m.flow.steps.length; i++) {
      const s = m.flow.steps[i];
      expect(s.attempts).toBe(1);
      expect(s.endedAt!).toBeGreaterThanOrEqual(s.startedAt!);
      if (i > 0) expect(s.startedAt!).toBeGreaterThanOrEqual(m.flow.steps[i - 1].endedAt!);
    }
    const shoot = await shootOf("cluster-1");
    expect(shoot.status?.seedName).toBe("seed-2");
    expect(shoot.spec.seedName).toBe("seed-2");
    expect(shoot.status?.lastOperation).toMatchObject({
      type: "Restore",
      state: "Succeeded",
      progress: 100,
      description: "Shoot cluster has been successfully restored.",
    });
    // The binding and Migrate Succeeded each gave a new generation, which the Restore observed.
    expect(shoot.status?.observedGeneration).toBe(shoot.metadata.generation);
    expect(shoot.status?.constraints?.some((c) => c.type === "ShootReadyForMigration")).toBeFalsy();
    expect(shoot.status?.retryCycleStartTime).toBeUndefined();
    const audit = await database.db.auditEvent.findMany({ where: { targetName: "cluster-1" }, orderBy: { id: "asc" } });
    expect(audit.map((a) => a.action)).toEqual(["shoot.migrate", "shoot.migrate.succeeded"]);
  });

  it("retries a failing step with backoff, turns Failed after the retry duration, and resumes on a user's retry", async () => {
    const failing = await startTestWorker(database.url, database.db, {
      ...FAST,
      jobExpireSeconds: 2,
      migrationFaultRate: 1,
      migrationRetryMs: 3_000,
      migrationBackoffMs: 100,
    });
    workers.push(failing);
    await migrate("cluster-2", "seed-2");
    const m = await finished("cluster-2");
    expect(m.flow.state).toBe("Failed");
    // The wait for the destination has no faults; the first task of the Migrate operation failed.
    expect(m.flow.step).toBe(1);
    expect(m.flow.steps[1].attempts).toBeGreaterThanOrEqual(2);
    const failed = await shootOf("cluster-2");
    expect(failed.status?.lastOperation).toMatchObject({
      type: "Migrate",
      state: "Failed",
      description:
        'Flow "Shoot cluster preparation for migration" encountered task errors: [task "Migrating extension resources" failed: the seed\'s API server did not answer in time (context deadline exceeded)]',
    });
    expect(failed.status?.lastErrors).toEqual([expect.objectContaining({ taskID: "Migrating extension resources" })]);
    expect(failed.status?.seedName).toBe("seed-1");
    await failing.stop({ graceful: false });
    workers.splice(0);
    workers.push(await startTestWorker(database.url, database.db, { ...FAST, jobExpireSeconds: 2 }));
    await updateShootFromPatch(
      embeddedShootWrites(database.db, () => client),
      {
        namespace: "garden-dev",
        name: "cluster-2",
        body: { metadata: { annotations: { "gardener.cloud/operation": "retry" } } },
        ifMatch: null,
        actor: "ops@example.com",
        requestId: "retry",
        identity: { kind: "almanac" as const },
        now: Date.now(),
      },
    );
    await waitUntil(
      "the retried migration to succeed",
      async () => (await latestMigration(database.db, "garden-dev", "cluster-2"))?.flow.state === "Succeeded",
      30_000,
    );
    expect((await shootOf("cluster-2")).status?.seedName).toBe("seed-2");
  });

  it("resumes at every step boundary: each worker commits one transition and dies", { timeout: 150_000 }, async () => {
    const script = path.resolve(import.meta.dirname, "../../scripts/worker.ts");
    await migrate("cluster-4", "seed-2");
    let processes = 0;
    for (;;) {
      const m = await latestMigration(database.db, "garden-dev", "cluster-4");
      if (m?.flow.state === "Succeeded") break;
      if (processes > 40)
        throw new Error(`still ${m?.flow.state} at step ${m?.flow.step} after ${processes} worker processes`);
      const child = spawn(process.execPath, [script], {
        env: {
          ...process.env,
          DATABASE_URL: database.url,
          ALMANAC_GARDENLET: "off",
          ALMANAC_POLL_SECONDS: "0.5",
          ALMANAC_JOB_EXPIRE_SECONDS: "2",
          ALMANAC_MIGRATION_STEP_MS: "50",
          ALMANAC_MIGRATION_FAULT_RATE: "0",
          ALMANAC_TEST_CRASH_AFTER_TRANSITIONS: "1",
        },
        stdio: "ignore",
      });
      children.push(child);
      processes++;
      await new Promise((r) => child.once("exit", r));
    }
    const m = (await latestMigration(database.db, "garden-dev", "cluster-4"))!;
    // Nine steps, each begun and finished: eighteen transitions, one per process.
    expect(processes).toBe(18);
    expect(m.flow.steps.map((s) => [s.outcome, s.attempts])).toEqual(Array(9).fill(["Succeeded", 1]));
    expect((await shootOf("cluster-4")).status?.seedName).toBe("seed-2");
    expect(
      await database.db.auditEvent.count({ where: { targetName: "cluster-4", action: "shoot.migrate.succeeded" } }),
    ).toBe(1);
  });

  it(
    "survives its worker being killed again and again: it resumes at its step and applies no step twice",
    { timeout: 120_000 },
    async () => {
      const script = path.resolve(import.meta.dirname, "../../scripts/worker.ts");
      const start = () => {
        const child = spawn(process.execPath, [script], {
          env: {
            ...process.env,
            DATABASE_URL: database.url,
            ALMANAC_GARDENLET: "off",
            ALMANAC_POLL_SECONDS: "0.5",
            ALMANAC_JOB_EXPIRE_SECONDS: "2",
            ALMANAC_MIGRATION_STEP_MS: "150",
            ALMANAC_MIGRATION_FAULT_RATE: "0",
          },
          stdio: "ignore",
        });
        children.push(child);
        return child;
      };
      await migrate("cluster-3", "seed-2");
      // Where the flow stands: every step's begin, end and attempts (a transition changes it).
      const progress = async () => {
        const m = (await latestMigration(database.db, "garden-dev", "cluster-3"))!;
        return {
          done: m.flow.state !== "Processing",
          at: JSON.stringify([m.flow.step, m.flow.steps.map((s) => [s.startedAt, s.endedAt, s.attempts])]),
        };
      };
      for (let kill = 0; kill < 6; kill++) {
        const before = await progress();
        if (before.done) break;
        const child = start();
        // Kill each worker once it has committed work, wherever it then is in the next transition.
        await waitUntil(
          `worker ${kill + 1} to move the migration on`,
          async () => {
            const now = await progress();
            return (now.done || now.at !== before.at) && now;
          },
          30_000,
        );
        child.kill("SIGKILL");
        await new Promise((r) => child.once("exit", r));
      }
      start();
      const m = await finished("cluster-3", 90_000);
      expect(m.flow.state).toBe("Succeeded");
      expect(m.flow.steps.map((s) => [s.outcome, s.attempts])).toEqual(Array(9).fill(["Succeeded", 1]));
      expect((await shootOf("cluster-3")).status?.seedName).toBe("seed-2");
      expect(
        await database.db.auditEvent.count({ where: { targetName: "cluster-3", action: "shoot.migrate.succeeded" } }),
      ).toBe(1);
    },
  );
});

const patchAs = (name: string, body: unknown) =>
  updateShootFromPatch(
    embeddedShootWrites(database.db, () => client),
    {
      namespace: "garden-dev",
      name,
      body: shootPatchSchema.parse(body),
      ifMatch: null,
      actor: "bob",
      requestId: "c",
      identity: { kind: "almanac" as const },
      now: Date.now(),
    },
  );
const deleteAs = (name: string) =>
  deleteShoot(
    embeddedShootWrites(database.db, () => client),
    {
      namespace: "garden-dev",
      name,
      actor: "bob",
      requestId: "d",
      identity: { kind: "almanac" as const },
      now: Date.now(),
    },
  );
const failure = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (error) {
    // As the HTTP edge answers it, with the refusal's message.
    return { ...refusalAnswer(error as Refusal), message: (error as Refusal).message };
  }
  throw new Error("accepted");
};

describe("an unready destination (ShootReadyForMigration)", () => {
  it("is admitted, and the migration waits without touching the lastOperation until the seed is ready", async () => {
    workers.push(await startTestWorker(database.url, database.db, { ...FAST, jobExpireSeconds: 2 }));
    const before = (await shootOf("cluster-6")).status?.lastOperation;
    await migrate("cluster-6", "seed-down");
    const constraint = await waitUntil(
      "the ShootReadyForMigration constraint",
      async () => (await shootOf("cluster-6")).status?.constraints?.find((c) => c.type === "ShootReadyForMigration"),
      15_000,
    );
    expect(constraint).toMatchObject({
      status: "False",
      reason: "DestinationSeedUnready",
      message:
        'condition "GardenletReady" has invalid status Unknown (expected True) due to StatusUnknown: Gardenlet stopped posting seed status.',
    });
    const waiting = await shootOf("cluster-6");
    expect(waiting.status?.lastOperation).toEqual(before);
    expect(waiting.spec.seedName).toBe("seed-down");
    // Meanwhile the shoot is rescheduled: Gardener refuses spec changes.
    const refused = await failure(patchAs("cluster-6", { spec: { kubernetes: { version: "1.31.4" } } }));
    expect(refused.status).toBe(409);
    expect(refused.message).toMatch(/shoot spec cannot be changed because shoot has been rescheduled to a new seed/);

    // The seed's gardenlet comes back: the Migrate operation starts and the migration ends.
    const row = await database.db.seed.findUniqueOrThrow({ where: { name: "seed-down" } });
    const document = row.document as unknown as ReturnType<typeof seed>;
    document.status!.conditions![0] = { type: "GardenletReady", status: "True" };
    await database.db.seed.update({ where: { name: "seed-down" }, data: { document: document as never } });
    const m = await finished("cluster-6");
    expect(m.flow.state).toBe("Succeeded");
    const moved = await shootOf("cluster-6");
    expect(moved.status?.seedName).toBe("seed-down");
    expect(moved.status?.constraints?.some((c) => c.type === "ShootReadyForMigration")).toBeFalsy();
  });

  it("may be deleted while it waits (Gardener's validateDeletion admits it), which ends the migration", async () => {
    workers.push(await startTestWorker(database.url, database.db, { ...FAST, jobExpireSeconds: 2 }));
    await migrate("cluster-0", "seed-away");
    await waitUntil(
      "the migration to wait",
      async () =>
        (await shootOf("cluster-0")).status?.constraints?.some((c) => c.type === "ShootReadyForMigration") ?? false,
      15_000,
    );
    await patchAs("cluster-0", { metadata: { annotations: { "confirmation.gardener.cloud/deletion": "true" } } });
    const deletion = await deleteAs("cluster-0");
    expect(deletion).toMatchObject({ name: "cluster-0" });
    // The migration ends (or goes with the shoot once the deletion has finished).
    const ended = await waitUntil(
      "the waiting migration to end",
      async () => {
        const m = await latestMigration(database.db, "garden-dev", "cluster-0");
        return (!m || m.flow.state === "Failed") && { m };
      },
      30_000,
    );
    if (ended.m) expect(ended.m.flow.steps[0].message).toBe("the shoot is being deleted");
  });
});

describe("other operations during a migration", () => {
  it("are refused while it runs and once it failed, in Gardener's words; a retry resumes it", async () => {
    const failing = await startTestWorker(database.url, database.db, {
      ...FAST,
      jobExpireSeconds: 2,
      migrationFaultRate: 1,
      migrationRetryMs: 60_000,
      migrationBackoffMs: 2_000,
    });
    workers.push(failing);
    await migrate("cluster-5", "seed-2");
    await waitUntil(
      "the Migrate operation to start",
      async () => (await shootOf("cluster-5")).status?.lastOperation?.type === "Migrate",
      15_000,
    );
    const change = await failure(patchAs("cluster-5", { spec: { kubernetes: { version: "1.31.4" } } }));
    expect(change.status).toBe(409);
    expect(change.message).toMatch(
      /cannot change shoot spec during Migrate operation that is in state (Processing|Error)/,
    );
    expect(
      (await failure(patchAs("cluster-5", { metadata: { annotations: { "gardener.cloud/operation": "reconcile" } } })))
        .status,
    ).toBe(409);
    const { requestMaintainNow } = await import("../../lib/server/maintain-now.ts");
    await expect(
      requestMaintainNow(
        embeddedShootWrites(database.db, () => client),
        {
          namespace: "garden-dev",
          name: "cluster-5",
          actor: "bob",
          requestId: "m",
          identity: { kind: "almanac" as const },
          now: Date.now(),
        },
      ),
    ).rejects.toMatchObject({ code: "conflict" });
    await expect(migrate("cluster-5", "seed-1")).rejects.toMatchObject({ code: "unprocessable" });
    await patchAs("cluster-5", { metadata: { annotations: { "confirmation.gardener.cloud/deletion": "true" } } });
    const deletion = await failure(deleteAs("cluster-5"));
    expect(deletion.status).toBe(409);
    expect(deletion.message).toMatch(
      /cannot mark shoot for deletion during Migrate operation that is in state (Processing|Error)/,
    );

    // It fails for good (a short retry duration, counted from the Migrate operation's start).
    await failing.stop({ graceful: false });
    workers.splice(0);
    workers.push(
      await startTestWorker(database.url, database.db, {
        ...FAST,
        jobExpireSeconds: 2,
        migrationFaultRate: 1,
        migrationRetryMs: 500,
        migrationBackoffMs: 100,
      }),
    );
    await waitUntil(
      "the migration to fail",
      async () => (await latestMigration(database.db, "garden-dev", "cluster-5"))?.flow.state === "Failed",
      30_000,
    );
    // A Failed migration is still a migration (isShootInMigrationOrRestorePhase): no spec change, no
    // deletion, no other migration (before, Almanac let all three through).
    expect((await failure(patchAs("cluster-5", { spec: { kubernetes: { version: "1.31.4" } } }))).message).toMatch(
      /cannot change shoot spec during Migrate operation that is in state Failed/,
    );
    expect((await failure(deleteAs("cluster-5"))).message).toMatch(
      /cannot mark shoot for deletion during Migrate operation that is in state Failed/,
    );
    await expect(migrate("cluster-5", "seed-1")).rejects.toMatchObject({ code: "unprocessable" });
    // The retry resumes it.
    await workers.splice(0)[0].stop({ graceful: false });
    workers.push(await startTestWorker(database.url, database.db, { ...FAST, jobExpireSeconds: 2 }));
    await patchAs("cluster-5", { metadata: { annotations: { "gardener.cloud/operation": "retry" } } });
    const m = await finished("cluster-5");
    expect(m.flow.state).toBe("Succeeded");
    expect((await shootOf("cluster-5")).status?.seedName).toBe("seed-2");
  });
});
