import { describe, expect, it } from "vitest";
import {
  describeHibernationSchedule,
  hibernationMoments,
  neverWakes,
  nextHibernationMoments,
  parseHibernationCron,
  scheduledHibernatedAt,
  validateHibernationSchedules,
} from "./hibernation-schedule.ts";

const iso = (moments: { at: Date; action: string }[]) => moments.map((m) => `${m.action} ${m.at.toISOString()}`);

describe("hibernation moments", () => {
  const weekdays = [{ start: "0 19 * * 1-5", end: "0 7 * * 1-5", location: "Europe/Berlin" }];

  it("finds the next hibernate and wake moments in the schedule's zone", () => {
    // Friday 2026-11-27 12:00 UTC = 13:00 CET: hibernates 19:00 CET, wakes Monday 07:00 CET.
    const next = nextHibernationMoments(weekdays, new Date("2026-11-27T12:00:00Z"));
    expect(next.hibernateAt?.toISOString()).toBe("2026-11-27T18:00:00.000Z");
    expect(next.wakeAt?.toISOString()).toBe("2026-11-30T06:00:00.000Z");
  });

  it("counts a moment exactly at `from`", () => {
    const next = nextHibernationMoments(weekdays, new Date("2026-11-27T18:00:00Z"));
    expect(next.hibernateAt?.toISOString()).toBe("2026-11-27T18:00:00.000Z");
  });

  it("lists moments in time order with their schedule", () => {
    const moments = hibernationMoments(
      [{ start: "0 22 * * *" }, { end: "30 6 * * *", location: "America/New_York" }],
      new Date("2026-11-27T00:00:00Z"),
      new Date("2026-11-28T12:00:00Z"),
    );
    expect(moments.map((m) => [m.action, m.at.toISOString(), m.schedule])).toEqual([
      ["wake", "2026-11-27T11:30:00.000Z", 1],
      ["hibernate", "2026-11-27T22:00:00.000Z", 0],
      ["wake", "2026-11-28T11:30:00.000Z", 1],
    ]);
  });

  it("skips 02:30 on the day Europe/Berlin springs forward, as robfig/cron does", () => {
    // 2026-03-29: 02:00 CET becomes 03:00 CEST; 02:30 does not exist that day.
    const moments = hibernationMoments(
      [{ start: "30 2 * * *", location: "Europe/Berlin" }],
      new Date("2026-03-28T00:00:00Z"),
      new Date("2026-03-31T00:00:00Z"),
    );
    expect(iso(moments)).toEqual(["hibernate 2026-03-28T01:30:00.000Z", "hibernate 2026-03-30T00:30:00.000Z"]);
    const next = nextHibernationMoments(
      [{ start: "30 2 * * *", location: "Europe/Berlin" }],
      new Date("2026-03-28T02:00:00Z"),
    );
    expect(next.hibernateAt?.toISOString()).toBe("2026-03-30T00:30:00.000Z");
  });

  it("fires 02:30 twice on the day Europe/Berlin falls back, as robfig/cron does", () => {
    // 2026-10-25: 03:00 CEST becomes 02:00 CET; 02:30 happens at 00:30 UTC and again at 01:30 UTC.
    const moments = hibernationMoments(
      [{ start: "30 2 * * *", location: "Europe/Berlin" }],
      new Date("2026-10-24T12:00:00Z"),
      new Date("2026-10-26T12:00:00Z"),
    );
    expect(iso(moments)).toEqual([
      "hibernate 2026-10-25T00:30:00.000Z",
      "hibernate 2026-10-25T01:30:00.000Z",
      "hibernate 2026-10-26T01:30:00.000Z",
    ]);
    const afterFirst = nextHibernationMoments(
      [{ start: "30 2 * * *", location: "Europe/Berlin" }],
      new Date("2026-10-25T00:31:00Z"),
    );
    expect(afterFirst.hibernateAt?.toISOString()).toBe("2026-10-25T01:30:00.000Z");
  });

  it("keeps real-time order through the repeated hour", () => {
    const moments = hibernationMoments(
      [{ start: "0,45 2 * * *", location: "Europe/Berlin" }],
      new Date("2026-10-24T23:00:00Z"),
      new Date("2026-10-25T03:00:00Z"),
    );
    expect(iso(moments)).toEqual([
      "hibernate 2026-10-25T00:00:00.000Z",
      "hibernate 2026-10-25T00:45:00.000Z",
      "hibernate 2026-10-25T01:00:00.000Z",
      "hibernate 2026-10-25T01:45:00.000Z",
    ]);
  });

  it("follows robfig's day rule: OR when both day fields are restricted, AND when one starts with *", () => {
    const from = new Date("2026-11-01T00:00:00Z");
    const to = new Date("2026-12-01T00:00:00Z");
    const days = (start: string) => hibernationMoments([{ start }], from, to).map((m) => m.at.getUTCDate());
    // The 1st or any Monday (Nov 2026: Mondays 2, 9, 16, 23, 30).
    expect(days("0 0 1 * MON")).toEqual([1, 2, 9, 16, 23, 30]);
    // */2 starts with *: odd days AND Mondays (croner alone would take the OR).
    expect(days("0 0 */2 * MON")).toEqual([9, 23]);
    // `?` is robfig's *; N/step means N-max/step.
    expect(days("0 0 ? * mon")).toEqual([2, 9, 16, 23, 30]);
    expect(days("0 0 25/2 * *")).toEqual([25, 27, 29]);
  });

  describe("a schedule that fires every minute", () => {
    const everyMinute = [{ start: "* * * * *", end: "*/2 * * * *", location: "Europe/Berlin" }];
    const next = (from: string) => {
      const { hibernateAt, wakeAt } = nextHibernationMoments(everyMinute, new Date(from));
      return [hibernateAt?.toISOString(), wakeAt?.toISOString()];
    };

    it("answers the next minute, and the next even minute to wake", () => {
      expect(next("2026-11-27T12:00:30Z")).toEqual(["2026-11-27T12:01:00.000Z", "2026-11-27T12:02:00.000Z"]);
      expect(next("2026-11-27T12:01:00Z")).toEqual(["2026-11-27T12:01:00.000Z", "2026-11-27T12:02:00.000Z"]);
    });

    it("answers the next minute across both clock changes", () => {
      // 01:59:30 CET, then the clock springs to 03:00 CEST (01:00 UTC); 02:00-02:59 are skipped.
      expect(next("2026-03-29T00:59:30Z")).toEqual(["2026-03-29T01:00:00.000Z", "2026-03-29T01:00:00.000Z"]);
      // 02:59:30 CEST, then the clock falls back to 02:00 CET (01:00 UTC): 02:00 comes again.
      expect(next("2026-10-25T00:59:30Z")).toEqual(["2026-10-25T01:00:00.000Z", "2026-10-25T01:00:00.000Z"]);
    });

    it("fires once per real minute through the skipped and the repeated hour", () => {
      for (const day of ["2026-03-29", "2026-10-25"]) {
        const moments = hibernationMoments(
          [everyMinute[0]!],
          new Date(`${day}T00:00:00Z`),
          new Date(`${day}T03:00:00Z`),
        ).filter((m) => m.action === "hibernate");
        expect(moments).toHaveLength(180);
        expect(new Set(moments.map((m) => m.at.getTime())).size).toBe(180);
      }
    });

    it("answers the same through many every-minute schedules", () => {
      const many = Array.from({ length: 58 }, (_, k) => ({
        start: `0-${k},${k + 1}-59 * * * *`,
        end: `0-${k}/1,${k + 1}-59/1 * * * *`,
        location: "Europe/Berlin",
      }));
      expect(validateHibernationSchedules(many)).toEqual([]);
      const { hibernateAt, wakeAt } = nextHibernationMoments(many, new Date("2026-10-25T00:59:30Z"));
      expect([hibernateAt?.toISOString(), wakeAt?.toISOString()]).toEqual([
        "2026-10-25T01:00:00.000Z",
        "2026-10-25T01:00:00.000Z",
      ]);
      expect(scheduledHibernatedAt(many, new Date("2026-10-25T01:00:30Z"))).toBe(true);
    });
  });

  it("answers the other moments when a spec names a day that never comes", () => {
    // robfig parses "0 7 31 2 *" (Gardener accepts it); it never fires.
    const schedules = [{ start: "0 19 * * 1-5", end: "0 7 31 2 *", location: "Europe/Berlin" }];
    const next = nextHibernationMoments(schedules, new Date("2026-11-27T12:00:00Z"));
    expect(next).toEqual({ hibernateAt: new Date("2026-11-27T18:00:00.000Z") });
    expect(scheduledHibernatedAt(schedules, new Date("2026-11-27T19:00:00Z"))).toBe(true);
    expect(
      iso(hibernationMoments(schedules, new Date("2026-11-27T00:00:00Z"), new Date("2026-11-28T00:00:00Z"))),
    ).toEqual(["hibernate 2026-11-27T18:00:00.000Z"]);
  });

  it("does nothing when any schedule is invalid, as Gardener's controller stops", () => {
    const schedules = [{ start: "0 19 * * *" }, { end: "not a cron" }];
    expect(hibernationMoments(schedules, new Date("2026-11-27T00:00:00Z"), new Date("2026-11-29T00:00:00Z"))).toEqual(
      [],
    );
    expect(nextHibernationMoments(schedules, new Date("2026-11-27T00:00:00Z"))).toEqual({});
  });
});

describe("scheduledHibernatedAt", () => {
  const nights = [{ start: "0 22 * * *", end: "0 6 * * *" }];

  it("is decided by the latest moment at or before the instant", () => {
    expect(scheduledHibernatedAt(nights, new Date("2026-11-27T23:00:00Z"))).toBe(true);
    expect(scheduledHibernatedAt(nights, new Date("2026-11-28T05:59:00Z"))).toBe(true);
    expect(scheduledHibernatedAt(nights, new Date("2026-11-28T06:00:00Z"))).toBe(false);
    expect(scheduledHibernatedAt(nights, new Date("2026-11-28T12:00:00Z"))).toBe(false);
  });

  it("takes the latest moment in the repeated hour, whichever wall time it read", () => {
    // 2026-10-25, Europe/Berlin falls back at 01:00 UTC. At 01:40 UTC (02:40 CET, second pass)
    // 02:45 has fired once (00:45 UTC) and 02:30 twice (00:30, 01:30 UTC); the wake at 02:20
    // last fired at 01:20 UTC. So the hibernation at 01:30 UTC is the latest.
    const schedules = [{ start: "30,45 2 * * *", end: "20 2 * * *", location: "Europe/Berlin" }];
    expect(scheduledHibernatedAt(schedules, new Date("2026-10-25T01:40:00Z"))).toBe(true);
    expect(scheduledHibernatedAt(schedules, new Date("2026-10-25T01:25:00Z"))).toBe(false);
  });

  it("lets the first schedule win a tie, as Gardener's getScheduleWithMostRecentTime", () => {
    // The same moment written two ways (the same spec twice is a Duplicate).
    const tie = [{ start: "0 6 * * *" }, { end: "0 6 * * 0-6", location: "Etc/UTC" }];
    expect(scheduledHibernatedAt(tie, new Date("2026-11-28T07:00:00Z"))).toBe(true);
  });

  it("is undefined without a moment within a year", () => {
    expect(scheduledHibernatedAt([], new Date("2026-11-28T07:00:00Z"))).toBeUndefined();
    expect(scheduledHibernatedAt([{ start: "0 0 30 2 *" }], new Date("2026-11-28T07:00:00Z"))).toBeUndefined();
  });
});

describe("neverWakes", () => {
  it("is true when schedules hibernate and nothing wakes", () => {
    expect(neverWakes([{ start: "0 19 * * *" }])).toBe(true);
    expect(neverWakes([{ start: "0 19 * * *" }, { end: "0 7 31 2 *" }])).toBe(true);
    expect(neverWakes([{ start: "0 19 * * *" }, { end: "0 7 * * 1" }])).toBe(false);
    expect(neverWakes([{ end: "0 7 * * 1" }])).toBe(false);
    expect(neverWakes([])).toBe(false);
  });
});

describe("validateHibernationSchedules", () => {
  const fields = (schedules: unknown) => validateHibernationSchedules(schedules).map((e) => `${e.type} ${e.field}`);

  it("accepts Gardener's valid schedules, descriptors and null", () => {
    expect(fields(null)).toEqual([]);
    expect(
      fields([
        { start: "0 19 * * MON-FRI", end: "0 7 * * MON-FRI", location: "Europe/Berlin" },
        { start: "@weekly" },
        { end: "*/15 1-5 1,15 jan-mar ?", location: "UTC" },
      ]),
    ).toEqual([]);
  });

  it("names the field of a bad cron spec", () => {
    const errors = validateHibernationSchedules([{ start: "0 19 * *" }, { end: "61 7 * * *" }]);
    expect(errors.map((e) => `${e.type} ${e.field}`)).toEqual([
      "Invalid spec.hibernation.schedules[0].start",
      "Invalid spec.hibernation.schedules[1].end",
    ]);
    expect(errors[0]!.detail).toMatch(/^not a valid cron spec: /);
    expect(errors[1]!.detail).toContain("above maximum (59)");
  });

  it("refuses croner's extensions that robfig/cron does not parse", () => {
    for (const spec of [
      "0 0 19 * * *",
      "0 19 L * *",
      "0 19 * * 5#2",
      "0 19 * * 7",
      "0 19 * * +1",
      "@every 1h",
      "@reboot",
    ]) {
      expect(fields([{ start: spec }]), spec).toEqual(["Invalid spec.hibernation.schedules[0].start"]);
    }
  });

  it("names an unknown zone, an offset and a wrong letter case", () => {
    for (const location of ["Mars/Olympus", "+01:00", "europe/berlin"]) {
      expect(fields([{ start: "0 19 * * *", location }]), location).toEqual([
        "Invalid spec.hibernation.schedules[0].location",
      ]);
    }
  });

  it("requires start or end, as Gardener's start/end", () => {
    expect(fields([{ location: "UTC" }])).toEqual(["Required spec.hibernation.schedules[0].start/end"]);
  });

  it("refuses the same cron spec twice, anywhere", () => {
    expect(fields([{ start: "0 19 * * *", end: "0 7 * * *" }, { start: "0 7 * * *" }])).toEqual([
      "Duplicate spec.hibernation.schedules[1].start",
    ]);
  });

  it("refuses what is not a list of schedules, and unknown fields", () => {
    expect(fields({ start: "0 19 * * *" })).toEqual(["Invalid spec.hibernation.schedules"]);
    expect(fields(["0 19 * * *"])).toEqual(["Invalid spec.hibernation.schedules[0]"]);
    expect(fields([{ start: "0 19 * * *", begin: "x" }])).toEqual(["NotSupported spec.hibernation.schedules[0].begin"]);
    expect(fields([{ start: 19 }])).toEqual(["Invalid spec.hibernation.schedules[0].start"]);
  });

  it("takes another path", () => {
    expect(validateHibernationSchedules([{}], "schedules").map((e) => e.field)).toEqual(["schedules[0].start/end"]);
  });
});

describe("parseHibernationCron", () => {
  it("normalizes to number lists croner reads as robfig means them", () => {
    expect(parseHibernationCron("0 19 * * MON-FRI")).toMatchObject({ pattern: "0 19 * * 1,2,3,4,5", domAndDow: true });
    expect(parseHibernationCron("0 0 1 * 1")).toMatchObject({ domAndDow: false });
    expect(parseHibernationCron("@daily")).toMatchObject({ pattern: "0 0 * * *" });
  });
});

describe("describeHibernationSchedule", () => {
  it("says the schedule in words with its zone", () => {
    expect(describeHibernationSchedule({ start: "0 19 * * 1-5", end: "0 7 * * 1-5", location: "Europe/Berlin" })).toBe(
      "Hibernates at 07:00 PM, Monday through Friday; wakes at 07:00 AM, Monday through Friday (Europe/Berlin)",
    );
    expect(describeHibernationSchedule({ start: "@daily" })).toBe("Hibernates at 12:00 AM (UTC)");
  });
});
