import { describe, expect, it } from "vitest";
import { validateTimeWindow } from "../engine/time-window.ts";
import {
  describeSettingChanges,
  formEdits,
  formFromSettings,
  formWindow,
  maintenancePatch,
  readableWindowMessage,
  reapplyEdits,
  sameSettings,
  spellMinutes,
  TOO_LONG,
  TOO_SHORT,
  windowPreview,
  windowTouched,
  zoneProblem,
  type MaintenanceSettings,
} from "./maintenance-form";

const NOW = new Date("2026-11-23T09:00:00Z");
const BASE: MaintenanceSettings = {
  timeWindow: { begin: "220000+0100", end: "000000+0100" },
  autoUpdate: { kubernetesVersion: true, machineImageVersion: false },
};

describe("formFromSettings", () => {
  it("shows the stored window on the chosen zone's clock, with Gardener's defaults for missing flags", () => {
    expect(formFromSettings(BASE, "Europe/Berlin", NOW)).toEqual({
      zone: "Europe/Berlin",
      start: "22:00",
      end: "00:00",
      duration: "120",
      mode: "end",
      autoKubernetes: true,
      autoImages: false,
      confine: false,
    });
    expect(formFromSettings({ timeWindow: BASE.timeWindow }, "UTC", NOW, "duration")).toMatchObject({
      start: "21:00",
      end: "23:00",
      duration: "120",
      mode: "duration",
      autoKubernetes: true,
      autoImages: true,
    });
  });
});

describe("formWindow", () => {
  it("reads the window from a start and an end, or a duration", () => {
    const form = formFromSettings(BASE, "Europe/Berlin", NOW);
    expect(formWindow({ ...form, start: "23:00", end: "01:30" }, NOW)).toEqual({
      window: { begin: "230000+0100", end: "013000+0100" },
      problems: {},
    });
    expect(formWindow({ ...form, mode: "duration", duration: "20" }, NOW).window).toEqual({
      begin: "220000+0100",
      end: "222000+0100",
    });
  });

  it("names each unreadable input", () => {
    const form = formFromSettings(BASE, "Europe/Berlin", NOW);
    expect(formWindow({ ...form, zone: "Mars/Base", start: "25:00", end: "x" }, NOW).problems).toEqual({
      zone: '"Mars/Base" is not a time zone; pick one from the list, such as Europe/Berlin or UTC.',
      start: "Enter the start as HH:MM on a 24-hour clock, from 00:00 to 23:59.",
      end: "Enter the end as HH:MM on a 24-hour clock, from 00:00 to 23:59.",
    });
    expect(formWindow({ ...form, mode: "duration", duration: "1.5" }, NOW).problems).toEqual({
      duration: "Enter the duration in whole minutes.",
    });
    expect(formWindow({ ...form, end: "22:30" }, NOW).problems).toEqual({});
  });

  it("judges the length by the engine's rule, 30 minutes to 6 hours, in words, and still gives the window", () => {
    const form = formFromSettings(BASE, "Europe/Berlin", NOW);
    expect(formWindow({ ...form, end: "22:10" }, NOW)).toEqual({
      window: { begin: "220000+0100", end: "221000+0100" },
      problems: { end: "The window must be at least 30 minutes long; this one is 10 minutes." },
    });
    expect(formWindow({ ...form, start: "23:00", end: "05:30" }, NOW).problems).toEqual({
      end: "The window can be at most 6 hours long; this one is 6 hours 30 minutes.",
    });
    expect(formWindow({ ...form, end: "22:00" }, NOW).problems).toEqual({
      end: "The window can be at most 6 hours long; an end equal to the start makes it a whole day.",
    });
    // The bounds themselves are accepted, across midnight too.
    expect(formWindow({ ...form, start: "23:45", end: "00:15" }, NOW).problems).toEqual({});
    expect(formWindow({ ...form, start: "21:00", end: "03:00" }, NOW).problems).toEqual({});
    const duration = { ...form, mode: "duration" as const };
    expect(formWindow({ ...duration, duration: "20" }, NOW).problems).toEqual({
      duration: "The window must be at least 30 minutes long; this one is 20 minutes.",
    });
    expect(formWindow({ ...duration, duration: "0" }, NOW).problems.duration).toMatch(/^The window must be at least/);
    // A duration past a day is judged as typed, not wrapped around the clock into 1 hour.
    expect(formWindow({ ...duration, duration: "1500" }, NOW).problems).toEqual({
      duration: "The window can be at most 6 hours long; this one is 25 hours.",
    });
    expect(formWindow({ ...duration, duration: "360" }, NOW).problems).toEqual({});
    expect(formWindow({ ...duration, duration: "90" }, NOW).problems).toEqual({});
  });
});

describe("zoneProblem", () => {
  it("refuses a name that is no time zone, and names the zone a city probably means", () => {
    expect(zoneProblem("Europe/Berlin")).toBeUndefined();
    expect(zoneProblem("UTC")).toBeUndefined();
    expect(zoneProblem("Berlin")).toBe('"Berlin" is not a time zone. Did you mean Europe/Berlin?');
    expect(zoneProblem("new york")).toBe('"new york" is not a time zone. Did you mean America/New_York?');
    expect(zoneProblem("Mars/Base")).toBe(
      '"Mars/Base" is not a time zone; pick one from the list, such as Europe/Berlin or UTC.',
    );
    expect(zoneProblem(" ")).toBe("Enter a time zone, such as Europe/Berlin or UTC.");
  });
});

describe("readableWindowMessage", () => {
  it("words the engine's refusals of a window's length for people, and leaves other messages", () => {
    expect(readableWindowMessage("time window must not be smaller than 30m0s")).toBe(
      "The window must be at least 30 minutes long.",
    );
    expect(readableWindowMessage("time window must not be greater than 6h0m0s")).toBe(
      "The window can be at most 6 hours long.",
    );
    expect(readableWindowMessage("something else")).toBe("something else");
    expect(readableWindowMessage(undefined)).toBeUndefined();
  });

  it("covers exactly the messages the engine gives", () => {
    const detail = (begin: string, end: string) => validateTimeWindow({ begin, end })[0]?.detail;
    expect(readableWindowMessage(detail("220000+0000", "221000+0000"))).toBe(`${TOO_SHORT}.`);
    expect(readableWindowMessage(detail("220000+0000", "050000+0000"))).toBe(`${TOO_LONG}.`);
  });
});

describe("spellMinutes", () => {
  it("spells a length out", () => {
    expect([1, 30, 60, 90, 360, 1500].map(spellMinutes)).toEqual([
      "1 minute",
      "30 minutes",
      "1 hour",
      "1 hour 30 minutes",
      "6 hours",
      "25 hours",
    ]);
  });
});

describe("formEdits and maintenancePatch", () => {
  it("finds nothing to send for an untouched form, whatever zone it is shown in", () => {
    expect(formEdits(formFromSettings(BASE, "Asia/Kolkata", NOW), BASE, NOW)).toEqual({});
    expect(formEdits(formFromSettings(BASE, "UTC", NOW, "duration"), BASE, NOW)).toEqual({});
  });

  it("sends only what changed, with the resourceVersion the form started from", () => {
    const form = { ...formFromSettings(BASE, "Europe/Berlin", NOW), start: "23:00", end: "01:00", autoImages: true };
    const edits = formEdits(form, BASE, NOW);
    expect(edits).toEqual({ timeWindow: { begin: "230000+0100", end: "010000+0100" }, autoImages: true });
    expect(maintenancePatch(edits, "42")).toEqual({
      metadata: { resourceVersion: "42" },
      spec: {
        maintenance: {
          timeWindow: { begin: "230000+0100", end: "010000+0100" },
          autoUpdate: { machineImageVersion: true },
        },
      },
    });
    expect(maintenancePatch({ confine: true }, "7")).toEqual({
      metadata: { resourceVersion: "7" },
      spec: { maintenance: { confineSpecUpdateRollout: true } },
    });
  });

  it("writes the offset of the chosen zone", () => {
    const form = { ...formFromSettings(BASE, "Asia/Kolkata", NOW), start: "03:00", end: "05:00" };
    expect(formEdits(form, BASE, NOW).timeWindow).toEqual({ begin: "030000+0530", end: "050000+0530" });
  });
});

describe("reapplyEdits", () => {
  it("keeps the user's edits and takes everything else from what is stored now", () => {
    const mine = { ...formFromSettings(BASE, "Europe/Berlin", NOW), start: "01:00", end: "03:00" };
    const theirs: MaintenanceSettings = { ...BASE, confineSpecUpdateRollout: true };
    const merged = reapplyEdits(mine, BASE, theirs, NOW);
    expect(merged).toMatchObject({ start: "01:00", end: "03:00", confine: true, autoImages: false });
    expect(formEdits(merged, theirs, NOW)).toEqual({ timeWindow: { begin: "010000+0100", end: "030000+0100" } });
  });

  it("shows their window when the user did not touch it, and keeps the user's flag", () => {
    const mine = { ...formFromSettings(BASE, "Europe/Berlin", NOW), autoKubernetes: false };
    const theirs: MaintenanceSettings = { ...BASE, timeWindow: { begin: "030000+0100", end: "050000+0100" } };
    expect(windowTouched(mine, BASE, NOW)).toBe(false);
    const merged = reapplyEdits(mine, BASE, theirs, NOW);
    expect(merged).toMatchObject({ start: "03:00", end: "05:00", autoKubernetes: false });
    expect(formEdits(merged, theirs, NOW)).toEqual({ autoKubernetes: false });
  });

  it("keeps an unreadable entry as typed", () => {
    const mine = { ...formFromSettings(BASE, "Europe/Berlin", NOW), start: "2x:00" };
    expect(reapplyEdits(mine, BASE, BASE, NOW).start).toBe("2x:00");
  });
});

describe("describeSettingChanges", () => {
  it("says in words what someone else changed", () => {
    const after: MaintenanceSettings = {
      timeWindow: { begin: "220000+0000", end: "230000+0000" },
      autoUpdate: { kubernetesVersion: false, machineImageVersion: false },
      confineSpecUpdateRollout: true,
    };
    expect(describeSettingChanges(BASE, after, "UTC", NOW)).toEqual([
      "the window moved from 21:00–23:00 (2 h) to 22:00–23:00 (1 h) UTC time",
      "automatic Kubernetes patch updates turned off",
      "rollouts confined to the window turned on",
    ]);
    expect(sameSettings(BASE, { ...BASE, timeWindow: { begin: "210000+0000", end: "230000+0000" } }, "UTC", NOW)).toBe(
      true,
    );
  });
});

describe("the moment the form was filled", () => {
  // Filled on the Saturday before the change to summer time; Berlin moves from +01:00 to +02:00.
  const FILLED = new Date("2027-03-27T12:00:00Z");
  const SUMMER = new Date("2027-03-28T12:00:00Z");
  const base: MaintenanceSettings = { timeWindow: { begin: "220000+0100", end: "230000+0100" } };

  it("keeps an untouched window untouched when judged at that moment, across a daylight saving change", () => {
    const form = formFromSettings(base, "Europe/Berlin", FILLED);
    expect(form).toMatchObject({ start: "22:00", end: "23:00" });
    expect(windowTouched(form, base, FILLED)).toBe(false);
    expect(formEdits(form, base, FILLED)).toEqual({});
    // Judged on the ticking clock instead, the same untouched form reads as a new window.
    expect(windowTouched(form, base, SUMMER)).toBe(true);
    expect(formEdits(form, base, SUMMER).timeWindow).toEqual({ begin: "220000+0200", end: "230000+0200" });
  });

  it("reapplies onto newer settings without taking the untouched window for an edit", () => {
    const form = { ...formFromSettings(base, "Europe/Berlin", FILLED), autoImages: false };
    const current: MaintenanceSettings = { ...base, confineSpecUpdateRollout: true };
    const again = reapplyEdits(form, base, current, SUMMER, FILLED);
    expect(again).toMatchObject({ start: "23:00", end: "00:00", autoImages: false, confine: true });
  });
});

describe("windowPreview", () => {
  const form = formFromSettings(BASE, "Europe/Berlin", NOW);

  it("shows the stored window while the times are untouched", () => {
    expect(windowPreview(form, BASE, NOW)).toEqual({ kind: "window", window: BASE.timeWindow, edited: false });
    expect(windowPreview(formFromSettings({}, "UTC", NOW), {}, NOW)).toEqual({ kind: "none" });
  });

  it("shows the edited window once it is valid", () => {
    const edited = windowPreview({ ...form, start: "01:00", end: "03:00" }, BASE, NOW);
    expect(edited).toMatchObject({ kind: "window", edited: true });
  });

  it("shows no window while the typed one is invalid", () => {
    // Too short for Gardener (20 minutes), unreadable, and an unreadable duration.
    expect(windowPreview({ ...form, start: "01:00", end: "01:20" }, BASE, NOW)).toEqual({ kind: "invalid" });
    expect(windowPreview({ ...form, start: "25:00" }, BASE, NOW)).toEqual({ kind: "invalid" });
    expect(windowPreview({ ...form, mode: "duration", duration: "abc" }, BASE, NOW)).toEqual({ kind: "invalid" });
  });
});
