// The migration flow as Gardener runs it: pkg/gardenlet/controller/shoot/shoot/reconciler.go
// (migrateShoot, updateShootStatusOperationStart, patchShootStatusOperationSuccess,
// patchShootStatusOperationError, finalizeShootMigration), reconciler_migrate.go
// (runMigrateShootFlow) and the restore path of reconciler_reconcile.go.
import { describe, expect, it } from "vitest";
import {
  beginStep,
  finishStep,
  finishWait,
  MIGRATION_STEPS,
  type Migration,
  migrationLastErrors,
  migrationLastOperation,
  retryMigration,
  seedAfter,
  shootLastOperation,
  shootStateSizeCheck,
  startMigration,
} from "./migration-flow.ts";

const T0 = Date.parse("2026-11-22T10:00:00Z");
const HOUR = 3_600_000;
const options = { retryDurationMs: 60_000, backoffMs: 1_000, maxBackoffMs: 8_000 };
const ready = {
  status: "True" as const,
  reason: "DestinationSeedReady",
  message: "Destination seed cluster is ready for the shoot migration",
};

/** Every step in turn, each succeeding; what lastOperation showed while each one ran. */
function runAll() {
  let t = T0;
  let m = finishWait(beginStep(startMigration("aws-eu1", "gcp-eu1", T0), (t += 1000)), ready, (t += 1000));
  const seen: { type: string; state: string; progress: number; description: string; seed: string }[] = [];
  while (m.state !== "Succeeded") {
    m = beginStep(m, (t += 1000));
    const op = migrationLastOperation(m, t);
    seen.push({ ...op, seed: seedAfter(m) });
    m = finishStep(m, { ok: true }, (t += 1000), options);
    const after = migrationLastOperation(m, t);
    if (after.state === "Succeeded") seen.push({ ...after, seed: seedAfter(m) });
  }
  return { m, seen };
}

describe("the migration flow (reconciler.go, reconciler_migrate.go)", () => {
  it("waits for the destination, runs the Migrate tasks, sets Migrate Succeeded and the seed, then Restore", () => {
    const { m, seen } = runAll();
    expect(m.steps.map((s) => s.name)).toEqual(MIGRATION_STEPS.map((s) => s.name));
    expect(m.steps.every((s) => s.outcome === "Succeeded" && s.attempts === 1 && s.startedAt! < s.endedAt!)).toBe(true);
    expect(seen.map((s) => `${s.type} ${s.state} ${s.progress} ${s.seed}: ${s.description}`)).toEqual([
      "Migrate Processing 0 aws-eu1: Preparation of Shoot cluster for migration initialized.",
      "Migrate Processing 20 aws-eu1: Persisting ShootState in garden cluster",
      "Migrate Processing 40 aws-eu1: Deleting kube-apiserver deployment",
      "Migrate Processing 60 aws-eu1: Creating ETCD Snapshot",
      "Migrate Processing 80 aws-eu1: Deleting shoot namespace in Seed",
      // finalizeShootMigration: Migrate Succeeded, and status.seedName is the destination from now on.
      "Migrate Succeeded 100 gcp-eu1: Shoot cluster has been successfully prepared for migration.",
      "Restore Processing 0 gcp-eu1: Restoration of Shoot cluster initialized.",
      "Restore Processing 33 gcp-eu1: Deploying main and events etcd",
      "Restore Processing 66 gcp-eu1: Waiting until the Kubernetes API server can connect to the Shoot workers",
      "Restore Succeeded 100 gcp-eu1: Shoot cluster has been successfully restored.",
    ]);
    expect(seedAfter(m)).toBe("gcp-eu1");
    expect(m.retryCycleStartTime).toBeUndefined();
  });

  it("leaves the shoot's lastOperation alone while it waits for ShootReadyForMigration, and waits without limit", () => {
    let m = beginStep(startMigration("aws-eu1", "gcp-eu1", T0), T0);
    expect(shootLastOperation(m, T0)).toBeUndefined();
    expect(migrationLastOperation(m, T0, "api")).toMatchObject({
      type: "Migrate",
      state: "Pending",
      description: "waiting for confirmation that destination Seed is available to host the control plane of Shoot api",
    });
    const unready = {
      status: "False" as const,
      reason: "DestinationSeedUnready",
      message: "observed generation outdated (1/2)",
    };
    for (let hour = 1; hour <= 48; hour++) {
      m = finishWait(beginStep(m, T0 + hour * HOUR), unready, T0 + hour * HOUR);
      expect(m.state).toBe("Processing");
    }
    expect(m.step).toBe(0);
    expect(m.retryAt).toBe(T0 + 48 * HOUR + 5_000);
    expect(migrationLastOperation(m, T0, "api").description).toBe(
      "destination Seed is not available to host the control plane of Shoot api: observed generation outdated (1/2)",
    );
    m = finishWait(beginStep(m, T0 + 49 * HOUR), ready, T0 + 49 * HOUR);
    expect(m).toMatchObject({ step: 1, state: "Processing", retryCycleStartTime: T0 + 49 * HOUR });
    expect(shootLastOperation(m, T0)).toMatchObject({ type: "Migrate", state: "Processing", progress: 0 });
  });

  it("words errors as Gardener's flow does, with lastErrors naming the task; retries with growing backoff", () => {
    let m = finishWait(beginStep(startMigration("aws-eu1", "gcp-eu1", T0), T0), ready, T0);
    let t = T0 + 1000;
    const waits: number[] = [];
    for (let i = 0; i < 5; i++) {
      m = finishStep(beginStep(m, t), { ok: false, message: "etcd backup bucket unreachable" }, t, options);
      waits.push(m.retryAt! - t);
      t = m.retryAt!;
    }
    expect(waits).toEqual([1000, 2000, 4000, 8000, 8000]);
    expect(migrationLastOperation(m, t)).toMatchObject({
      type: "Migrate",
      state: "Error",
      description:
        'Flow "Shoot cluster preparation for migration" encountered task errors: [task "Migrating extension resources" failed: etcd backup bucket unreachable] Operation will be retried.',
    });
    expect(migrationLastErrors(m, t)).toEqual([
      {
        description: 'task "Migrating extension resources" failed: etcd backup bucket unreachable',
        taskID: "Migrating extension resources",
        lastUpdateTime: expect.any(String),
      },
    ]);
  });

  it("counts the retry duration from the operation's start: a flaky migration turns Failed (it never did before)", () => {
    // Every task fails once and then succeeds: errors never last long in a row, but the Migrate
    // operation as a whole runs past the retry duration (patchShootStatusOperationError, HasTimeElapsed).
    let m: Migration = finishWait(beginStep(startMigration("aws-eu1", "gcp-eu1", T0), T0), ready, T0);
    let t = T0;
    const twelveHours = { retryDurationMs: 12 * HOUR, backoffMs: 5_000, maxBackoffMs: 300_000 };
    while (m.state !== "Failed" && m.state !== "Succeeded") {
      t += 4 * HOUR;
      m = finishStep(beginStep(m, t), { ok: false, message: "flaky" }, t, twelveHours);
      if (m.state === "Failed") break;
      t += 1000;
      m = finishStep(beginStep(m, t), { ok: true }, t, twelveHours);
    }
    expect(m.state).toBe("Failed");
    expect(m.step).toBe(3); // two tasks succeeded in between
    expect(t - T0).toBeGreaterThanOrEqual(12 * HOUR);
    expect(migrationLastOperation(m, t)).toMatchObject({
      type: "Migrate",
      state: "Failed",
      description:
        'Flow "Shoot cluster preparation for migration" encountered task errors: [task "Deleting kube-apiserver deployment" failed: flaky]',
    });
    expect(m.retryCycleStartTime).toBeUndefined();
  });

  it("gives the Restore operation a retry cycle of its own, from its start", () => {
    let m: Migration = finishWait(beginStep(startMigration("aws-eu1", "gcp-eu1", T0), T0), ready, T0);
    let t = T0;
    while (m.step < 6) m = finishStep(beginStep(m, (t += 1000)), { ok: true }, (t += 1000), options);
    expect(m.retryCycleStartTime).toBeUndefined();
    const restoreStart = t + 30_000;
    m = beginStep(m, restoreStart);
    expect(m.retryCycleStartTime).toBe(restoreStart);
    m = finishStep(m, { ok: false, message: "backups not copied" }, restoreStart + 59_000, options);
    expect(m.state).toBe("Error");
    m = finishStep(
      beginStep(m, restoreStart + 60_000),
      { ok: false, message: "backups not copied" },
      restoreStart + 60_000,
      options,
    );
    expect(m.state).toBe("Failed");
    expect(migrationLastOperation(m, t).description).toBe(
      `Flow "Shoot cluster restoration" encountered task errors: [task "Copying etcd backups to new seed's backup bucket" failed: backups not copied]`,
    );
    expect(seedAfter(m)).toBe("gcp-eu1");
  });

  it("a user's retry resumes a Failed operation at its failed task in a new retry cycle", () => {
    let m: Migration = finishWait(beginStep(startMigration("aws-eu1", "gcp-eu1", T0), T0), ready, T0);
    m = finishStep(beginStep(m, T0), { ok: false, message: "x" }, T0 + options.retryDurationMs, options);
    expect(m.state).toBe("Failed");
    const resumed = retryMigration(m, T0 + 2 * HOUR);
    expect(resumed).toMatchObject({ state: "Processing", step: 1, retryAt: T0 + 2 * HOUR });
    const begun = beginStep(resumed, T0 + 2 * HOUR);
    expect(begun.retryCycleStartTime).toBe(T0 + 2 * HOUR);
    expect(finishStep(begun, { ok: true }, T0 + 2 * HOUR + 1, options)).toMatchObject({ state: "Processing", step: 2 });
  });
});

describe("the ShootState size rule", () => {
  const MiB = 1024 * 1024;
  it("warns above 1.5 MiB and refuses above 2 MiB unless states are referenced", () => {
    expect(shootStateSizeCheck(MiB, false)).toEqual({ ok: true });
    expect(shootStateSizeCheck(1.6 * MiB, false)).toMatchObject({
      ok: true,
      warning: expect.stringMatching(/1\.5 MiB/),
    });
    expect(shootStateSizeCheck(2.1 * MiB, false)).toMatchObject({ ok: false, error: expect.stringMatching(/2 MiB/) });
    expect(shootStateSizeCheck(2.1 * MiB, true)).toMatchObject({ ok: true, warning: expect.any(String) });
  });
});
