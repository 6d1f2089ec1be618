import { describe, expect, it } from "vitest";
import {
  asleepAt,
  nextMoments,
  scheduleInWords,
  scheduleWarnings,
  windowsWhileHibernated,
} from "./hibernation-outlook";

const WEEKNIGHTS = { start: "00 19 * * 1-5", end: "00 07 * * 1-5", location: "Europe/Berlin" };
// Friday 27 Nov 2026, 12:00 UTC (13:00 in Berlin).
const NOW = new Date("2026-11-27T12:00:00Z");
// 22:00–23:00 UTC every day (23:00–00:00 in Berlin, while the weeknights schedule sleeps).
const NIGHT_WINDOW = { begin: "220000+0000", end: "230000+0000" };
// 10:00–11:00 UTC every day: awake on weekdays, asleep on weekends.
const MORNING_WINDOW = { begin: "100000+0000", end: "110000+0000" };

describe("a schedule in words and its next moments", () => {
  it("says a valid schedule in words with its zone", () => {
    expect(scheduleInWords(WEEKNIGHTS)).toMatch(
      /^Hibernates at 07:00 PM.*Monday.*Friday.*wakes at 07:00 AM.*\(Europe\/Berlin\)$/,
    );
  });

  it("says nothing while a schedule does not parse or is empty", () => {
    expect(scheduleInWords({ start: "0 25 * * *" })).toBeUndefined();
    expect(scheduleInWords({ location: "UTC" })).toBeUndefined();
  });

  it("finds the next hibernation and wake-up on the schedule's clock", () => {
    expect(nextMoments([WEEKNIGHTS], NOW)).toEqual({
      hibernateAt: new Date("2026-11-27T18:00:00Z"), // Friday 19:00 in Berlin (UTC+1)
      wakeAt: new Date("2026-11-30T06:00:00Z"), // Monday 07:00 in Berlin
    });
  });

  it("leaves out schedules that do not parse, so the others still answer", () => {
    expect(nextMoments([{ start: "nonsense" }, WEEKNIGHTS], NOW).wakeAt).toEqual(new Date("2026-11-30T06:00:00Z"));
    expect(nextMoments([{ start: "nonsense" }], NOW)).toEqual({});
  });

  it("knows whether the schedule keeps the cluster asleep at a moment", () => {
    expect(asleepAt([WEEKNIGHTS], new Date("2026-11-28T12:00:00Z"))).toBe(true); // Saturday
    expect(asleepAt([WEEKNIGHTS], new Date("2026-11-30T12:00:00Z"))).toBe(false); // Monday noon
    expect(asleepAt([], new Date("2026-11-30T12:00:00Z"))).toBe(false);
  });
});

describe("the maintenance window while hibernated", () => {
  it("every night's window falls while the weeknights schedule sleeps", () => {
    expect(windowsWhileHibernated([WEEKNIGHTS], NIGHT_WINDOW, NOW)).toHaveLength(14);
  });

  it("a morning window falls in the sleep only on weekends", () => {
    const hit = windowsWhileHibernated([WEEKNIGHTS], MORNING_WINDOW, NOW);
    expect(hit.map((o) => o.start.toISOString().slice(0, 10))).toEqual([
      "2026-11-28",
      "2026-11-29",
      "2026-12-05",
      "2026-12-06",
    ]);
  });

  it("a window the schedule hibernates in the middle of counts", () => {
    const hit = windowsWhileHibernated([{ start: "30 22 * * *", end: "0 6 * * *" }], NIGHT_WINDOW, NOW);
    expect(hit.length).toBeGreaterThan(0);
  });

  it("a schedule that only wakes never overlaps", () => {
    expect(windowsWhileHibernated([{ end: "0 7 * * *" }], NIGHT_WINDOW, NOW)).toEqual([]);
  });
});

describe("warnings", () => {
  it("warns of a schedule that never wakes", () => {
    const warnings = scheduleWarnings({ schedules: [{ start: "0 19 * * *" }], now: NOW });
    expect(warnings.map((w) => w.kind)).toEqual(["never-wakes"]);
  });

  it("warns where the sleep swallows the maintenance window, naming the first and the consequence", () => {
    const [warning] = scheduleWarnings({ schedules: [WEEKNIGHTS], window: MORNING_WINDOW, now: NOW });
    expect(warning.kind).toBe("maintenance");
    expect(warning.text).toMatch(
      /^The cluster sleeps through its maintenance window on Sat 28 Nov, 10:00 UTC and 3 more/,
    );
    expect(warning.text).toContain("runs the new versions only once it wakes up");
  });

  it("warns when the HibernationPossible constraint keeps Gardener from hibernating it, with its message", () => {
    const warnings = scheduleWarnings({
      schedules: [WEEKNIGHTS],
      constraints: [
        {
          type: "HibernationPossible",
          status: "False",
          reason: "ProblematicWebhooks",
          message: "webhook x acts on pods in kube-system.",
          lastTransitionTime: "2026-11-20T00:00:00Z",
          lastUpdateTime: "2026-11-20T00:00:00Z",
        },
      ],
      now: NOW,
    });
    expect(warnings.map((w) => w.kind)).toEqual(["constraint"]);
    expect(warnings[0].text).toMatch(
      /HibernationPossible constraint is False \(webhook x acts on pods in kube-system\)/,
    );
  });

  it("says nothing of a True constraint, a good schedule away from the window, or no schedule", () => {
    const constraints = [
      {
        type: "HibernationPossible",
        status: "True",
        lastTransitionTime: "2026-11-20T00:00:00Z",
        lastUpdateTime: "2026-11-20T00:00:00Z",
      },
    ];
    expect(
      scheduleWarnings({
        schedules: [{ ...WEEKNIGHTS, start: "00 19 * * 1,2,3,4", end: "00 07 * * 2,3,4,5" }],
        window: MORNING_WINDOW,
        constraints,
        now: NOW,
      }),
    ).toEqual([]);
    expect(scheduleWarnings({ schedules: [], window: NIGHT_WINDOW, constraints, now: NOW })).toEqual([]);
  });
});
