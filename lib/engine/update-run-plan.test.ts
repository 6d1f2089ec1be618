import { describe, expect, it } from "vitest";
import type { CloudProfile, ExpirableVersion, Shoot } from "../gardener/types.ts";
import type { FreezePeriod } from "./freezes.ts";
import { nextMaintenanceMoment } from "./maintenance-moment.ts";
import { DAY_MS, HOUR_MS, MINUTE_MS, SECOND_MS } from "./time-units.ts";
import {
  forcedBefore,
  nextWindowStart,
  type PlanCluster,
  type PlanDecision,
  type PlanStageInput,
  planUpdateRun,
  runWindowOf,
  type UpdateRunPlanInput,
} from "./update-run-plan.ts";
import { windowStart } from "./update-run-progress.ts";

const t = (iso: string) => Date.parse(iso);
const NOW = t("2026-12-01T10:00:00Z");
const EXPIRY = "2026-12-03T00:00:00Z";

const PROFILE: CloudProfile = {
  metadata: { name: "aws" },
  spec: {
    type: "aws",
    kubernetes: {
      versions: [
        { version: "1.33.2" },
        { version: "1.32.5" },
        { version: "1.32.4", expirationDate: EXPIRY } as ExpirableVersion,
      ],
    },
  },
};

function shoot(name: string, version = "1.32.5", window = { begin: "220000+0000", end: "230000+0000" }): Shoot {
  return {
    metadata: { name, namespace: "garden-dev", uid: `uid-${name}` },
    spec: {
      cloudProfileName: "aws",
      kubernetes: { version },
      provider: { type: "aws", workers: [] },
      maintenance: { timeWindow: window, autoUpdate: { kubernetesVersion: false, machineImageVersion: false } },
    },
    status: { lastOperation: { type: "Reconcile", state: "Succeeded" } },
  };
}

const ACT: PlanDecision = {
  outcome: "act",
  changes: [{ field: "spec.kubernetes.version", before: "1.32.5", after: "1.33.2" }],
  message: "spec.kubernetes.version: 1.32.5 -> 1.33.2",
};
const UNCHANGED: PlanDecision = { outcome: "unchanged", changes: [], message: "Already runs 1.33.2." };
const REFUSED: PlanDecision = { outcome: "refused", changes: [], message: "You may not change shoots of dev." };

function cluster(s: Shoot, decision: PlanDecision = ACT, project = "dev"): PlanCluster {
  return { namespace: s.metadata.namespace!, name: s.metadata.name, project, shoot: s, profile: PROFILE, decision };
}

function stage(name: string, clusters: PlanCluster[], o: Partial<PlanStageInput> = {}): PlanStageInput {
  return { name, when: "now", soakSeconds: 0, approval: false, clusters, ...o };
}

function plan(stages: PlanStageInput[], o: Partial<UpdateRunPlanInput> = {}) {
  return planUpdateRun({ stages, healthGate: null, actingSeconds: 600, freezes: [], now: NOW, ...o });
}

describe("nextWindowStart: when a window stage reaches a cluster", () => {
  it("is the next start of its window, today or tomorrow", () => {
    const s = shoot("a");
    expect(nextWindowStart(s, NOW)).toBe(t("2026-12-01T22:00:00Z"));
    expect(nextWindowStart(s, t("2026-12-01T23:30:00Z"))).toBe(t("2026-12-02T22:00:00Z"));
  });

  it("is the next day's start while the window is open (a run acts at a window's start, as the run's job does)", () => {
    expect(nextWindowStart(shoot("a"), t("2026-12-01T22:40:00Z"))).toBe(t("2026-12-02T22:00:00Z"));
    expect(windowStart(runWindowOf(shoot("a")), t("2026-12-01T22:40:00Z"))).toBe(t("2026-12-02T22:00:00Z"));
  });

  it("reads the window's time zone: the same local hour is a different moment in another zone", () => {
    // 22:00 at +02:00 is 20:00 UTC; 01:00 at -05:00 is 06:00 UTC the same day.
    expect(nextWindowStart(shoot("a", "1.32.5", { begin: "220000+0200", end: "230000+0200" }), NOW)).toBe(
      t("2026-12-01T20:00:00Z"),
    );
    expect(nextWindowStart(shoot("a", "1.32.5", { begin: "010000-0500", end: "020000-0500" }), NOW)).toBe(
      t("2026-12-02T06:00:00Z"),
    );
    // 10:30 at +01:00 is 09:30 UTC, open at 10:00 UTC: the next day's.
    expect(nextWindowStart(shoot("a", "1.32.5", { begin: "103000+0100", end: "113000+0100" }), NOW)).toBe(
      t("2026-12-02T09:30:00Z"),
    );
  });

  it("follows a window across midnight, and reads no valid window as Gardener's always-open one (from midnight)", () => {
    const overnight = shoot("a", "1.32.5", { begin: "233000+0000", end: "003000+0000" });
    expect(nextWindowStart(overnight, t("2026-12-01T23:00:00Z"))).toBe(t("2026-12-01T23:30:00Z"));
    expect(nextWindowStart(overnight, t("2026-12-02T00:10:00Z"))).toBe(t("2026-12-02T23:30:00Z"));
    expect(nextWindowStart(overnight, t("2026-12-02T00:40:00Z"))).toBe(t("2026-12-02T23:30:00Z"));
    const none = shoot("b");
    delete (none.spec as { maintenance?: unknown }).maintenance;
    expect(nextWindowStart(none, NOW)).toBe(t("2026-12-02T00:00:00Z"));
    expect(nextWindowStart(shoot("c", "1.32.5", { begin: "nonsense", end: "230000+0000" }), NOW)).toBe(
      t("2026-12-02T00:00:00Z"),
    );
  });
});

describe("planUpdateRun: stages in order, with gates and soak", () => {
  it("starts the first 'now' stage at once and the next after its acting, health gate and soak", () => {
    const p = plan(
      [stage("canary", [cluster(shoot("a"))], { soakSeconds: 3600 }), stage("prod", [cluster(shoot("b"))])],
      { healthGate: { healthySeconds: 300 } },
    );
    const [canary, prod] = p.stages;
    expect(canary.earliestStart).toBe(NOW);
    expect(canary.items[0].plannedAt).toBe(NOW);
    expect(canary.expectedEnd).toBe(NOW + 600 * SECOND_MS + 300 * SECOND_MS);
    expect(prod.earliestStart).toBe(canary.expectedEnd + HOUR_MS);
    expect(prod.items[0].plannedAt).toBe(prod.earliestStart);
    expect(prod.expectedEnd).toBe(prod.earliestStart + 900 * SECOND_MS);
    // The last stage's soak holds nothing back.
    expect(p.expectedEnd).toBe(prod.expectedEnd);
    expect(p.stages.map((s) => s.name)).toEqual(["canary", "prod"]);
  });

  it("adds no health gate without one, and ends a stage that acts on nothing at its start", () => {
    const p = plan([
      stage("nothing", [cluster(shoot("a"), UNCHANGED), cluster(shoot("b"), REFUSED)], { soakSeconds: 60 }),
      stage("rest", [cluster(shoot("c"))]),
    ]);
    expect(p.stages[0].expectedEnd).toBe(NOW);
    expect(p.stages[1].earliestStart).toBe(NOW + MINUTE_MS);
    expect(p.stages[1].expectedEnd).toBe(NOW + MINUTE_MS + 600 * SECOND_MS);
  });

  it("plans each cluster of a window stage in its own window, and ends the stage after the last", () => {
    const early = shoot("early", "1.32.5", { begin: "120000+0000", end: "130000+0000" });
    const late = shoot("late", "1.32.5", { begin: "220000+0100", end: "230000+0100" });
    const idle = shoot("idle", "1.32.5", { begin: "230000+0000", end: "233000+0000" });
    const p = plan([stage("w", [cluster(early), cluster(late), cluster(idle, UNCHANGED)], { when: "window" })], {
      healthGate: { healthySeconds: 120 },
    });
    const [w] = p.stages;
    expect(w.items.map((i) => [i.name, i.plannedAt])).toEqual([
      ["early", t("2026-12-01T12:00:00Z")],
      ["late", t("2026-12-01T21:00:00Z")],
      ["idle", t("2026-12-01T23:00:00Z")],
    ]);
    // The unchanged cluster's window does not hold the stage.
    expect(w.expectedEnd).toBe(t("2026-12-01T21:00:00Z") + 600 * SECOND_MS + 120 * SECOND_MS);
  });

  it("plans a window stage from the previous stage's end, not from now", () => {
    const p = plan([
      stage("first", [cluster(shoot("a"))], { soakSeconds: DAY_MS / SECOND_MS }),
      stage("second", [cluster(shoot("b"))], { when: "window" }),
    ]);
    // first ends 10:10 on the 1st; a day's soak; the window at 22:00 on the 2nd.
    expect(p.stages[1].earliestStart).toBe(t("2026-12-02T10:10:00Z"));
    expect(p.stages[1].items[0].plannedAt).toBe(t("2026-12-02T22:00:00Z"));
  });

  it("says that an approval stage and every later one start at the earliest", () => {
    const p = plan([
      stage("one", [cluster(shoot("a"))]),
      stage("two", [cluster(shoot("b"))], { approval: true }),
      stage("three", [cluster(shoot("c"))]),
    ]);
    expect(p.stages.map((s) => [s.approval, s.afterApproval])).toEqual([
      [false, false],
      [true, true],
      [false, true],
    ]);
    expect(p.stages[1].earliestStart).toBe(p.stages[0].expectedEnd);
    expect(p.afterApproval).toBe(true);
    expect(p.warnings).toContain(
      'Stage "two" waits for approval: its moments, and every later one, are the earliest possible.',
    );
    expect(plan([stage("one", [cluster(shoot("a"))])]).afterApproval).toBe(false);
  });

  it("plans nothing for no stages", () => {
    const p = plan([]);
    expect(p.expectedEnd).toBe(NOW);
    expect(p.warnings).toEqual(["The run would change no cluster."]);
  });
});

describe("planUpdateRun: what Gardener forces before the run arrives", () => {
  const expiring = () => shoot("old", "1.32.4");

  it("names the forced update, and to what, when the cluster's window comes before its planned moment", () => {
    const p = plan([
      stage("first", [cluster(shoot("a"))], { soakSeconds: 3 * 24 * 3600 }),
      stage("late", [cluster(expiring())]),
    ]);
    const item = p.stages[1].items[0];
    const moment = nextMaintenanceMoment(expiring(), t(EXPIRY)).at;
    expect(item.forcedBefore).toMatchObject({
      at: moment,
      target: "controlPlane",
      kind: "kubernetes",
      from: "1.32.4",
      to: "1.32.5",
    });
    expect(item.forcedBefore?.reason).toContain("expired");
    expect(item.forcedBefore?.freeze).toBeUndefined();
    expect(p.stages[1].counts.forcedBefore).toBe(1);
    expect(p.counts.forcedBefore).toBe(1);
    expect(p.warnings[0]).toBe(
      '1 cluster will be force-updated by Gardener before the run reaches them (stage "late"): move them to an earlier stage.',
    );
  });

  it("marks a forced update inside a freeze: Gardener forces it there all the same", () => {
    const moment = nextMaintenanceMoment(expiring(), t(EXPIRY)).at;
    const christmas: FreezePeriod = { id: "x", start: moment - HOUR_MS, end: moment + HOUR_MS, reason: "Christmas" };
    const p = plan(
      [stage("first", [cluster(shoot("a"))], { soakSeconds: 3 * 24 * 3600 }), stage("late", [cluster(expiring())])],
      { freezes: [christmas] },
    );
    expect(p.stages[1].items[0].forcedBefore).toMatchObject({ at: moment, to: "1.32.5", freeze: christmas });
    expect(p.warnings[1]).toBe(
      "1 of these forced updates falls inside a freeze period: Gardener cannot be stopped from forcing an expired version, freeze or not.",
    );
  });

  it("names none when the run reaches the cluster first", () => {
    const p = plan([stage("first", [cluster(expiring())])]);
    expect(p.stages[0].items[0].forcedBefore).toBeUndefined();
    expect(p.counts.forcedBefore).toBe(0);
  });

  it("names none for a version that is not expired, nor without a profile", () => {
    const later = NOW + 10 * DAY_MS;
    expect(forcedBefore(shoot("a"), PROFILE, NOW, later)).toBeUndefined();
    expect(forcedBefore(expiring(), undefined, NOW, later)).toBeUndefined();
    expect(forcedBefore(expiring(), PROFILE, NOW, later)?.to).toBe("1.32.5");
    // Up to the forced moment itself, excluded.
    const moment = nextMaintenanceMoment(expiring(), t(EXPIRY)).at;
    expect(forcedBefore(expiring(), PROFILE, NOW, moment)).toBeUndefined();
    expect(forcedBefore(expiring(), PROFILE, NOW, moment + 1)?.at).toBe(moment);
  });
});

describe("planUpdateRun: freezes", () => {
  const freeze = (id: string, start: number, end: number, project?: string): FreezePeriod => ({
    id,
    start,
    end,
    reason: `freeze ${id}`,
    ...(project !== undefined ? { project } : {}),
  });

  it("holds a stage due in a freeze of any of its projects until it ends, marking the clusters it covers", () => {
    const holiday = freeze("holiday", NOW - HOUR_MS, NOW + HOUR_MS);
    const prodOnly = freeze("prod", NOW - HOUR_MS, NOW + HOUR_MS, "prod");
    const p = plan(
      [
        stage("now", [
          cluster(shoot("dev-a"), ACT, "dev"),
          cluster(shoot("prod-a"), ACT, "prod"),
          cluster(shoot("refused"), REFUSED, "dev"),
        ]),
      ],
      { freezes: [prodOnly] },
    );
    // The whole stage waits (the run starts a stage in no freeze of its projects).
    expect(p.stages[0].earliestStart).toBe(NOW + HOUR_MS);
    expect(p.stages[0].heldByFreeze).toEqual(prodOnly);
    expect(p.stages[0].items.map((i) => i.plannedAt)).toEqual([NOW + HOUR_MS, NOW + HOUR_MS, NOW + HOUR_MS]);
    expect(p.stages[0].items.map((i) => i.freeze?.id)).toEqual([undefined, "prod", undefined]);
    expect(p.stages[0].expectedEnd).toBe(NOW + HOUR_MS + 600 * SECOND_MS);
    expect(p.counts.inFreeze).toBe(1);
    expect(p.stages[0].message).toBe(
      'Starts at 2026-12-01 11:00 UTC, when the freeze "freeze prod" of project prod ends, acts on 2 clusters at once; expected to end 2026-12-01 11:10 UTC.',
    );
    expect(p.warnings).toContain(
      '1 cluster would be acted on inside a freeze period (stage "now"): Almanac starts nothing in a freeze, so the run waits for its end and they move after it.',
    );
    const all = plan([stage("now", [cluster(shoot("dev-a"), ACT, "dev")])], { freezes: [holiday] });
    expect(all.stages[0].items[0].freeze).toEqual(holiday);
    // Another project's freeze does not hold a stage of dev alone.
    const devOnly = plan([stage("now", [cluster(shoot("dev-a"), ACT, "dev")])], { freezes: [prodOnly] });
    expect(devOnly.stages[0].earliestStart).toBe(NOW);
    expect(devOnly.stages[0].items[0].freeze).toBeUndefined();
  });

  it("moves a window inside a freeze of its project to the first one after it, the freeze's end being free", () => {
    const morning = freeze("morning", t("2026-12-01T11:00:00Z"), t("2026-12-01T22:00:00Z"), "dev");
    const p = plan(
      [
        stage(
          "w",
          [cluster(shoot("noon", "1.32.5", { begin: "120000+0000", end: "130000+0000" })), cluster(shoot("night"))],
          { when: "window" },
        ),
      ],
      { freezes: [morning] },
    );
    expect(p.stages[0].heldByFreeze).toBeUndefined();
    expect(p.stages[0].items.map((i) => i.freeze?.id)).toEqual(["morning", undefined]);
    expect(p.stages[0].items.map((i) => i.plannedAt)).toEqual([t("2026-12-02T12:00:00Z"), t("2026-12-01T22:00:00Z")]);
    expect(p.stages[0].counts).toEqual({ act: 2, unchanged: 0, refused: 0, forcedBefore: 0, inFreeze: 1 });
    expect(p.stages[0].expectedEnd).toBe(t("2026-12-02T12:10:00Z"));
  });
});

describe("planUpdateRun: counts and decisions", () => {
  it("keeps each decision's words and changes and counts outcomes per stage and run", () => {
    const p = plan([
      stage("a", [cluster(shoot("x")), cluster(shoot("y"), UNCHANGED)]),
      stage("b", [cluster(shoot("z"), { ...REFUSED, errors: [{ field: "f", type: "Invalid", detail: "d" }] })]),
    ]);
    expect(p.stages[0].items[0]).toMatchObject({ outcome: "act", changes: ACT.changes, message: ACT.message });
    expect(p.stages[1].items[0].errors).toEqual([{ field: "f", type: "Invalid", detail: "d" }]);
    expect(p.stages[0].counts).toEqual({ act: 1, unchanged: 1, refused: 0, forcedBefore: 0, inFreeze: 0 });
    expect(p.counts).toEqual({ act: 1, unchanged: 1, refused: 1, forcedBefore: 0, inFreeze: 0 });
    expect(p.warnings).toEqual([
      '1 cluster will be refused (each one\'s message says why). A refused cluster fails the run at its stage: it would stop at stage "b". Leave them out, or first remove what refuses them.',
    ]);
    const early = plan([
      stage("a", [cluster(shoot("z"), REFUSED)]),
      stage("b", [cluster(shoot("x")), cluster(shoot("y"))]),
    ]);
    expect(early.warnings).toEqual([
      '1 cluster will be refused (each one\'s message says why). A refused cluster fails the run at its stage: it would stop at stage "a", and 2 clusters of later stages would not be updated. Leave them out, or first remove what refuses them.',
    ]);
  });
});

describe("planUpdateRun: what would stop the start", () => {
  it("says the start would be refused when the caller's role does not reach some clusters, naming the projects", () => {
    const byRole: PlanDecision = { ...REFUSED, byRole: true };
    const p = plan([
      stage("a", [cluster(shoot("x")), cluster(shoot("p1"), byRole, "prod"), cluster(shoot("p2"), byRole, "prod")]),
      stage("b", [cluster(shoot("y"), byRole, "ops"), cluster(shoot("z"), REFUSED)]),
    ]);
    expect(p.warnings).toEqual([
      "Your role does not let you change 3 clusters of the run (project ops, prod): starting it would be refused. Leave them out.",
      '1 cluster will be refused (each one\'s message says why). A refused cluster fails the run at its stage: it would stop at stage "b". Leave them out, or first remove what refuses them.',
    ]);
    // Not a leak into the answer: the decision's marker stays on the engine's item.
    expect(p.stages[0].items[1].byRole).toBe(true);
  });

  it("says a first 'now' stage due inside a freeze would be refused at the start, unless it waits anyway", () => {
    const freeze: FreezePeriod = { id: "f", start: NOW - HOUR_MS, end: NOW + HOUR_MS, reason: "Audit" };
    const refused = plan([stage("a", [cluster(shoot("x"))])], { freezes: [freeze] });
    expect(refused.warnings[0]).toBe(
      'The first stage is due inside the freeze "Audit" (until 2026-12-01 11:00 UTC): starting the run now would be refused. Start it after the freeze, or make its first stage wait for an approval or for the clusters\' windows.',
    );
    for (const o of [{ approval: true }, { when: "window" as const }]) {
      const waits = plan([stage("a", [cluster(shoot("x"))], o)], { freezes: [freeze] });
      expect(waits.warnings.some((w) => w.startsWith("The first stage is due inside"))).toBe(false);
    }
  });
});

describe("planUpdateRun: each stage in words", () => {
  it("says when each stage starts, how it acts and when it ends", () => {
    const p = plan(
      [
        stage("canary", [cluster(shoot("a")), cluster(shoot("b"))], { soakSeconds: 2 * 3600 }),
        stage("prod", [cluster(shoot("c"))], { when: "window", approval: true }),
        stage("rest", [cluster(shoot("d"), UNCHANGED)]),
      ],
      { healthGate: { healthySeconds: 300 } },
    );
    expect(p.stages.map((s) => s.message)).toEqual([
      "Starts at once (2026-12-01 10:00 UTC), acts on 2 clusters at once; expected to end 2026-12-01 10:15 UTC, once they have been healthy for 5 min.",
      "Starts after approval, at the earliest 2026-12-01 12:15 UTC, acts on the cluster at the start of its next maintenance window (the last at 2026-12-01 22:00 UTC); expected to end at the earliest 2026-12-01 22:15 UTC, once they have been healthy for 5 min.",
      'Starts after the approval of stage "prod", at the earliest 2026-12-01 22:15 UTC; it changes no cluster.',
    ]);
    const soaked = plan([stage("a", [cluster(shoot("a"))], { soakSeconds: 90 }), stage("b", [cluster(shoot("b"))])]);
    expect(soaked.stages[1].message).toBe(
      'Starts at 2026-12-01 10:11 UTC, after stage "a" and its soak of 90 s, acts on 1 cluster at once; expected to end 2026-12-01 10:21 UTC.',
    );
  });

  it("plans a cluster that does not exist at the stage's start, with nothing forced", () => {
    const missing: PlanCluster = { namespace: "garden-dev", name: "gone", decision: REFUSED };
    const p = plan([stage("w", [missing], { when: "window" })]);
    expect(p.stages[0].items[0]).toMatchObject({ name: "gone", outcome: "refused", plannedAt: NOW });
    expect(p.stages[0].items[0].forcedBefore).toBeUndefined();
  });
});
