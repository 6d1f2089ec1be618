import { describe, expect, it } from "vitest";
import type { FreezePeriod } from "./freezes.ts";
import {
  expectedEnd,
  gateBound,
  type ItemState,
  nextProgress,
  type ProgressInput,
  type ProgressItem,
  type ProgressStage,
  resumeChanges,
  type RunSnapshot,
  type ShootHealth,
} from "./update-run-progress.ts";

const T0 = Date.parse("2026-12-01T10:00:00Z");
const S = 1000;
const HOUR = 3600 * S;

const item = (position: number, name: string, state: ItemState = "Pending", extra: Partial<ProgressItem> = {}) =>
  ({ position, namespace: "garden-dev", name, project: "dev", state, ...extra }) satisfies ProgressItem;

const stage = (name: string, items: ProgressItem[], extra: Partial<ProgressStage> = {}): ProgressStage => ({
  name,
  when: "now",
  soakSeconds: 0,
  approval: false,
  state: "Pending",
  items,
  ...extra,
});

const run = (stages: ProgressStage[], extra: Partial<RunSnapshot> = {}): RunSnapshot => ({
  state: "Running",
  healthySeconds: null,
  stages,
  ...extra,
});

const healthy = (...names: string[]) =>
  new Map<string, ShootHealth>(names.map((n) => [`garden-dev/${n}`, { ready: true }]));

const decide = (r: RunSnapshot, extra: Partial<ProgressInput> = {}) =>
  nextProgress({ run: r, health: new Map(), freezes: [], now: T0, gateGraceSeconds: 60, ...extra });

const freeze = (start: number, end: number, project?: string): FreezePeriod => ({
  id: "f1",
  start,
  end,
  reason: "year end",
  ...(project !== undefined ? { project } : {}),
});

describe("nextProgress: ordering", () => {
  it("a Pending run starts: Running, the first stage Acting, its shoots acted on at once", () => {
    const d = decide(
      run([stage("a", [item(0, "s0"), item(1, "s1")]), stage("b", [item(2, "s2")])], { state: "Pending" }),
    );
    expect(d.run).toMatchObject({ state: "Running", startedAt: T0 });
    expect(d.stages.get(0)).toMatchObject({ state: "Acting", startedAt: T0 });
    expect(d.stages.has(1)).toBe(false);
    expect(d.act).toEqual([0, 1]);
    expect(d.wakeAt).toBe(T0);
    expect(d.events).toEqual([{ kind: "stage-started", stage: 0 }]);
  });

  it("acts on no shoot of a later stage before the earlier one is finished", () => {
    const d = decide(
      run([
        stage("a", [item(0, "s0", "Acting"), item(1, "s1", "Succeeded")], { state: "Acting" }),
        stage("b", [item(2, "s2")]),
      ]),
    );
    expect(d.act).toEqual([0]);
    expect(d.stages.has(1)).toBe(false);
  });

  it("without a gate or soak: a settled stage succeeds and the next starts in the same decision", () => {
    const d = decide(run([stage("a", [item(0, "s0", "Succeeded")], { state: "Acting" }), stage("b", [item(1, "s1")])]));
    expect(d.stages.get(0)).toMatchObject({ state: "Succeeded", finishedAt: T0, actedAt: T0 });
    expect(d.stages.get(1)).toMatchObject({ state: "Acting", startedAt: T0 });
    expect(d.act).toEqual([1]);
    expect(d.events).toEqual([
      { kind: "stage-finished", stage: 0, state: "Succeeded" },
      { kind: "stage-started", stage: 1 },
    ]);
  });

  it("the last stage settled: the run Succeeded, nothing more to wake for", () => {
    const d = decide(run([stage("a", [item(0, "s0", "Succeeded")], { state: "Acting", soakSeconds: 600 })]));
    expect(d.stages.get(0)).toMatchObject({ state: "Succeeded" });
    expect(d.run).toMatchObject({ state: "Succeeded", finishedAt: T0, expectedEnd: null });
    expect(d.wakeAt).toBeUndefined();
    expect(d.events.at(-1)).toEqual({ kind: "run-finished", state: "Succeeded" });
  });

  it("a refused or failed shoot fails its stage and the run; later stages are cancelled, pending shoots too", () => {
    const d = decide(
      run([
        stage("a", [item(0, "s0", "Succeeded"), item(1, "s1", "Refused")], { state: "Acting" }),
        stage("b", [item(2, "s2")]),
      ]),
    );
    expect(d.stages.get(0)).toMatchObject({ state: "Failed" });
    expect(d.stages.get(1)).toMatchObject({ state: "Cancelled" });
    expect(d.cancelPending).toBe(true);
    expect(d.act).toEqual([]);
    expect(d.run.state).toBe("Failed");
    expect(d.run.message).toContain("garden-dev/s1");
  });

  it("moves neither a paused nor an ended run", () => {
    for (const state of ["Paused", "Succeeded", "Failed", "Cancelled"] as const) {
      const d = decide(run([stage("a", [item(0, "s0")])], { state }));
      expect(d.act).toEqual([]);
      expect(d.stages.size).toBe(0);
      expect(d.wakeAt).toBeUndefined();
    }
  });
});

describe("nextProgress: soak", () => {
  const soaking = () =>
    run([stage("a", [item(0, "s0", "Succeeded")], { state: "Acting", soakSeconds: 300 }), stage("b", [item(1, "s1")])]);

  it("soaks for soakSeconds before the next stage, waking at its end", () => {
    const d = decide(soaking());
    expect(d.stages.get(0)).toMatchObject({ state: "Soaking", soakUntil: T0 + 300 * S });
    expect(d.stages.has(1)).toBe(false);
    expect(d.wakeAt).toBe(T0 + 300 * S);
    expect(d.run.message).toContain("soaks until");
  });

  it("starts the next stage once the soak is over, not before", () => {
    const r = run([
      stage("a", [item(0, "s0", "Succeeded")], { state: "Soaking", soakSeconds: 300, soakUntil: T0 + 300 * S }),
      stage("b", [item(1, "s1")]),
    ]);
    expect(decide(r, { now: T0 + 299 * S }).act).toEqual([]);
    const d = decide(r, { now: T0 + 300 * S });
    expect(d.stages.get(0)).toMatchObject({ state: "Succeeded" });
    expect(d.act).toEqual([1]);
  });
});

describe("nextProgress: health gate", () => {
  const gated = (healthySince?: number, extra: Partial<ProgressStage> = {}) =>
    run(
      [
        stage("a", [item(0, "s0", "Succeeded", healthySince !== undefined ? { healthySince } : {})], {
          state: "Gating",
          startedAt: T0,
          actedAt: T0,
          gateStartedAt: T0,
          ...extra,
        }),
        stage("b", [item(1, "s1")]),
      ],
      { healthySeconds: 10 },
    );

  it("a settled stage enters the gate when the run has one", () => {
    const d = decide(
      run([stage("a", [item(0, "s0", "Succeeded")], { state: "Acting" }), stage("b", [item(1, "s1")])], {
        healthySeconds: 10,
      }),
      { health: healthy("s0") },
    );
    expect(d.stages.get(0)).toMatchObject({ state: "Gating", gateStartedAt: T0 });
    expect(d.items).toEqual([{ position: 0, healthySince: T0 }]);
    expect(d.act).toEqual([]);
  });

  it("passes only after every shoot was ready for healthySeconds without a break", () => {
    const first = decide(gated(), { health: healthy("s0") });
    expect(first.items).toEqual([{ position: 0, healthySince: T0 }]);
    expect(first.stages.get(0)?.holding).toEqual([
      { namespace: "garden-dev", name: "s0", reason: "ready for 0 s of 10 s" },
    ]);
    expect(first.wakeAt).toBe(T0 + 2 * S);
    const early = decide(gated(T0), { health: healthy("s0"), now: T0 + 9 * S });
    expect(early.act).toEqual([]);
    const passed = decide(gated(T0), { health: healthy("s0"), now: T0 + 10 * S });
    expect(passed.stages.get(0)).toMatchObject({ state: "Succeeded", holding: null });
    expect(passed.act).toEqual([1]);
  });

  it("a break starts the count again", () => {
    const broken = decide(gated(T0), {
      health: new Map([["garden-dev/s0", { ready: false, reason: "last operation Processing" }]]),
      now: T0 + 5 * S,
    });
    expect(broken.items).toEqual([{ position: 0, healthySince: null }]);
    expect(broken.stages.get(0)?.holding).toEqual([
      { namespace: "garden-dev", name: "s0", reason: "last operation Processing" },
    ]);
    expect(broken.run.state).toBeUndefined();
  });

  it("a shoot not ready by the gate's bound pauses the run, naming it; no wake-up (a person resumes)", () => {
    const bound = gateBound(gated().stages[0]!, 10, 60);
    expect(bound).toBe(T0 + 80 * S);
    const health = new Map([["garden-dev/s0", { ready: false, reason: "status unhealthy" }]]);
    expect(decide(gated(), { health, now: bound - 1 }).run.state).toBeUndefined();
    const d = decide(gated(), { health, now: bound });
    expect(d.run.state).toBe("Paused");
    expect(d.run.message).toContain("garden-dev/s0 (status unhealthy)");
    expect(d.wakeAt).toBeUndefined();
    expect(d.events).toEqual([{ kind: "gate-paused", stage: 0 }]);
    expect(d.stages.get(0)?.holding).toEqual([{ namespace: "garden-dev", name: "s0", reason: "status unhealthy" }]);
  });

  it("the bound grows with the stage's acting time", () => {
    const s = gated(undefined, { startedAt: T0 - HOUR, actedAt: T0, gateStartedAt: T0 }).stages[0]!;
    expect(gateBound(s, 10, 60)).toBe(T0 + HOUR + 80 * S);
  });

  it("a shoot ready but not yet for long enough does not pause the run at the bound", () => {
    const r = gated(T0 + 75 * S);
    const d = decide(r, { health: healthy("s0"), now: T0 + 80 * S });
    expect(d.run.state).toBeUndefined();
    expect(d.wakeAt).toBe(T0 + 82 * S);
  });

  it("resuming restarts a paused gate's watch", () => {
    const r = { ...gated(), state: "Paused" as const };
    expect(resumeChanges(r.stages, T0 + HOUR).get(0)).toEqual({ gateStartedAt: T0 + HOUR, holding: null });
    expect(resumeChanges(r.stages, T0 + HOUR).has(1)).toBe(false);
  });
});

describe("nextProgress: approval", () => {
  const r = (approvedAt?: number) =>
    run([
      stage("a", [item(0, "s0", "Succeeded")], { state: "Succeeded" }),
      stage("b", [item(1, "s1")], { approval: true, ...(approvedAt !== undefined ? { approvedAt } : {}) }),
    ]);

  it("a stage asking for approval waits for it; nothing wakes the run but the approval", () => {
    const d = decide(r());
    expect(d.run.state).toBe("WaitingForApproval");
    expect(d.stages.get(1)).toEqual({ state: "WaitingForApproval" });
    expect(d.run.message).toBe('Stage "b" waits for approval.');
    expect(d.act).toEqual([]);
    expect(d.wakeAt).toBeUndefined();
  });

  it("approved: the stage starts", () => {
    const d = decide({
      ...r(T0),
      stages: r(T0).stages.map((s, i) => (i === 1 ? { ...s, state: "WaitingForApproval" as const } : s)),
    });
    expect(d.run.state).toBeUndefined();
    expect(d.stages.get(1)).toMatchObject({ state: "Acting" });
    expect(d.act).toEqual([1]);
  });
});

describe("nextProgress: freezes", () => {
  it("a stage due inside a freeze of its projects waits until the freeze ends, naming it", () => {
    const f = freeze(T0 - HOUR, T0 + HOUR, "dev");
    const d = decide(run([stage("a", [item(0, "s0")])]), { freezes: [f] });
    expect(d.act).toEqual([]);
    expect(d.stages.size).toBe(0);
    expect(d.run.message).toContain('the freeze "year end" of project dev');
    expect(d.wakeAt).toBe(T0 + HOUR);
    expect(decide(run([stage("a", [item(0, "s0")])]), { freezes: [f], now: T0 + HOUR }).act).toEqual([0]);
  });

  it("an approved stage due in a freeze no longer waits for a person, but for the freeze", () => {
    const approved = run(
      [stage("a", [item(0, "s0")], { approval: true, approvedAt: T0, state: "WaitingForApproval" })],
      { state: "Running" },
    );
    const d = decide(approved, { freezes: [freeze(T0 - HOUR, T0 + HOUR)] });
    expect(d.stages.get(0)).toEqual({ state: "Pending" });
    expect(d.run.state).toBeUndefined();
    expect(d.run.message).toContain("year end");
    expect(d.wakeAt).toBe(T0 + HOUR);
  });

  it("a landscape-wide freeze holds every stage; another project's does not", () => {
    expect(decide(run([stage("a", [item(0, "s0")])]), { freezes: [freeze(T0, T0 + HOUR)] }).act).toEqual([]);
    expect(decide(run([stage("a", [item(0, "s0")])]), { freezes: [freeze(T0, T0 + HOUR, "prod")] }).act).toEqual([0]);
  });

  it("the expected end counts the wait for the freeze", () => {
    const stages = [stage("a", [item(0, "s0")])];
    expect(expectedEnd(stages, 10, [freeze(T0 - HOUR, T0 + HOUR)], T0)).toBe(T0 + HOUR + 10 * S);
  });
});

describe("nextProgress: a freeze that begins while a now stage acts", () => {
  it("holds the shoots not yet acted on until it ends, saying so; those begun are finished", () => {
    const f = freeze(T0 - HOUR, T0 + 2 * HOUR, "dev");
    const acting = run([
      stage("a", [item(0, "s0", "Succeeded"), item(1, "s1", "Acting"), item(2, "s2")], {
        state: "Acting",
        startedAt: T0 - 2 * HOUR,
      }),
    ]);
    const d = decide(acting, { freezes: [f] });
    expect(d.act).toEqual([1]);
    const held = decide(
      run([stage("a", [item(0, "s0", "Succeeded"), item(2, "s2")], { state: "Acting", startedAt: T0 - 2 * HOUR })]),
      { freezes: [f] },
    );
    expect(held.act).toEqual([]);
    expect(held.wakeAt).toBe(T0 + 2 * HOUR);
    expect(held.run.message).toContain("year end");
    expect(decide(acting, { freezes: [f], now: T0 + 2 * HOUR + S }).act).toEqual([1, 2]);
  });
});

describe("nextProgress: window stages", () => {
  // 22:00-23:00 UTC; effective windows as the caller passes them (seconds of the day).
  const window = { begin: 22 * 3600, end: 23 * 3600 - 15 * 60 };
  const windowed = () =>
    run([
      stage(
        "w",
        [
          item(0, "s0", "Pending", { window }),
          item(1, "s1", "Pending", { window: { begin: 12 * 3600, end: 13 * 3600 } }),
        ],
        {
          when: "window",
        },
      ),
    ]);

  it("starting: each shoot is due at its next window's start; none acted on before", () => {
    const d = decide(windowed());
    expect(d.items).toEqual([
      { position: 0, dueAt: Date.parse("2026-12-01T22:00:00Z") },
      { position: 1, dueAt: Date.parse("2026-12-01T12:00:00Z") },
    ]);
    expect(d.act).toEqual([]);
    expect(d.wakeAt).toBe(Date.parse("2026-12-01T12:00:00Z"));
    expect(d.run.message).toContain("maintenance windows");
    expect(d.run.expectedEnd).toBe(Date.parse("2026-12-01T22:00:00Z"));
  });

  it("acts on a shoot once its moment has come", () => {
    const acting = run([
      stage(
        "w",
        [
          item(0, "s0", "Pending", { window, dueAt: Date.parse("2026-12-01T22:00:00Z") }),
          item(1, "s1", "Pending", { dueAt: Date.parse("2026-12-01T12:00:00Z") }),
        ],
        { when: "window", state: "Acting", startedAt: T0 },
      ),
    ]);
    const d = decide(acting, { now: Date.parse("2026-12-01T12:00:00Z") });
    expect(d.act).toEqual([1]);
  });

  it("a shoot whose window closed before it was acted on (paused, a late job) waits for the next one", () => {
    const due = Date.parse("2026-12-01T22:00:00Z");
    const acting = run([
      stage("w", [item(0, "s0", "Pending", { window, dueAt: due })], {
        when: "window",
        state: "Acting",
        startedAt: T0,
      }),
    ]);
    // Resumed at 01:00, after the 22:00-22:45 window closed.
    const d = decide(acting, { now: Date.parse("2026-12-02T01:00:00Z") });
    expect(d.act).toEqual([]);
    expect(d.items).toEqual([expect.objectContaining({ position: 0, dueAt: Date.parse("2026-12-02T22:00:00Z") })]);
    expect(d.items[0]?.message).toContain("window closed");
    expect(d.wakeAt).toBe(Date.parse("2026-12-02T22:00:00Z"));
    // Still inside the window (a job a few minutes late): acted on.
    expect(decide(acting, { now: due + 10 * 60 * S }).act).toEqual([0]);
  });

  it("a window inside a freeze moves to the first one after it", () => {
    const f = freeze(Date.parse("2026-12-01T21:00:00Z"), Date.parse("2026-12-03T00:00:00Z"), "dev");
    const d = decide(run([stage("w", [item(0, "s0", "Pending", { window })], { when: "window" })]), { freezes: [f] });
    expect(d.items[0]).toMatchObject({ position: 0, dueAt: Date.parse("2026-12-03T22:00:00Z") });
    expect(d.items[0]?.message).toContain("year end");
  });
});

describe("nextProgress: cancel and expected end", () => {
  it("a cancelled run is not moved (its pending shoots were cancelled with it)", () => {
    const d = decide(run([stage("a", [item(0, "s0", "Cancelled")], { state: "Cancelled" })], { state: "Cancelled" }));
    expect(d).toMatchObject({ act: [], cancelPending: false, events: [] });
  });

  it("the expected end: each stage's acting, gate and soak, the last stage without its soak", () => {
    const stages = [
      stage("a", [item(0, "s0")], { soakSeconds: 600 }),
      stage("b", [item(1, "s1")], { soakSeconds: 600, approval: true }),
    ];
    expect(expectedEnd(stages, 30, [], T0)).toBe(T0 + 30 * S + 600 * S + 30 * S);
    expect(decide(run(stages, { healthySeconds: 30 })).run.expectedEnd).toBe(T0 + 660 * S);
  });
});
