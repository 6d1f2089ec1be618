import { describe, expect, it } from "vitest";
import {
  beginStep,
  finishStep,
  MIGRATION_STEPS,
  migrationLastOperation,
  retryMigration,
  seedAfter,
  shootStateSizeCheck,
  startMigration,
} from "./migration-flow.ts";

const T0 = Date.parse("2026-11-22T10:00:00Z");
const options = { retryDurationMs: 60_000, backoffMs: 1_000, maxBackoffMs: 8_000 };

function runAll() {
  let m = startMigration("aws-eu1", "aws-eu2", T0);
  const seen: { type: string; progress: number; seed: string }[] = [];
  let t = T0;
  while (m.state !== "Succeeded") {
    m = beginStep(m, (t += 1000));
    const op = migrationLastOperation(m, t);
    seen.push({ type: op.type, progress: op.progress, seed: seedAfter(m) });
    m = finishStep(m, { ok: true }, (t += 1000), options);
  }
  return { m, seen };
}

describe("the migration flow", () => {
  it("runs the document's steps in order: Migrate, then Restore, progress rising, the seed switching at restore", () => {
    const { m, seen } = runAll();
    expect(m.steps.map((s) => s.name)).toEqual(MIGRATION_STEPS.map((s) => s.name));
    expect(m.steps.every((s) => s.outcome === "Succeeded" && s.attempts === 1 && s.startedAt! < s.endedAt!)).toBe(true);
    expect(seen.map((s) => s.type)).toEqual([
      "Migrate",
      "Migrate",
      "Migrate",
      "Migrate",
      "Migrate",
      "Migrate",
      "Restore",
      "Restore",
      "Restore",
    ]);
    const progress = seen.map((s) => s.progress);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(seen.map((s) => s.seed)).toEqual([
      "aws-eu1",
      "aws-eu1",
      "aws-eu1",
      "aws-eu1",
      "aws-eu1",
      "aws-eu1",
      "aws-eu2",
      "aws-eu2",
      "aws-eu2",
    ]);
    expect(migrationLastOperation(m, T0)).toMatchObject({ type: "Restore", state: "Succeeded", progress: 100 });
    expect(seedAfter(m)).toBe("aws-eu2");
  });

  it("retries a failing step with growing backoff, then fails after the retry duration; a user's retry resumes there", () => {
    let m = startMigration("aws-eu1", "aws-eu2", T0);
    m = finishStep(beginStep(m, T0), { ok: true }, T0 + 10, options);
    let t = T0 + 1000;
    const waits: number[] = [];
    while (m.state !== "Failed") {
      m = beginStep(m, t);
      m = finishStep(m, { ok: false, message: "etcd backup bucket unreachable" }, t, options);
      if (m.state === "Error") {
        expect(migrationLastOperation(m, t)).toMatchObject({ type: "Migrate", state: "Error" });
        waits.push(m.retryAt! - t);
        t = m.retryAt!;
      }
    }
    expect(waits.slice(0, 5)).toEqual([1000, 2000, 4000, 8000, 8000]);
    expect(t - (T0 + 1000)).toBeGreaterThanOrEqual(options.retryDurationMs);
    expect(m.step).toBe(1);
    expect(migrationLastOperation(m, t).description).toMatch(
      /Stopping the shoot's API server failed: etcd backup bucket unreachable/,
    );
    const resumed = retryMigration(m, t + 5);
    expect(resumed).toMatchObject({ state: "Processing", step: 1 });
    const next = finishStep(beginStep(resumed, t + 5), { ok: true }, t + 6, options);
    expect(next).toMatchObject({ state: "Processing", step: 2 });
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
