import { describe, expect, it } from "vitest";
import { fleetHibernationNote, shortMoment } from "./hibernation-fleet";

// Local times are on the machine's clock: the moments are at noon UTC, the same weekday in every
// zone within 11 hours of UTC.
const NOW = Date.parse("2026-11-27T12:00:00Z"); // a Friday

describe("the fleet's hibernation note", () => {
  it("a sleeping cluster says when its schedule wakes it", () => {
    const note = fleetHibernationNote({ enabled: true, wakeAt: "2026-11-30T12:00:00Z" }, true, NOW);
    expect(note?.text).toMatch(/^Hibernated · wakes Mon \d\d:\d\d$/);
    expect(note?.asleep).toBe(true);
    expect(note?.title).toContain("UTC");
  });

  it("a sleeping cluster with no wake-up says someone has to wake it", () => {
    const note = fleetHibernationNote({ enabled: true }, true, NOW);
    expect(note?.text).toBe("Hibernated");
    expect(note?.title).toMatch(/someone has to/);
  });

  it("an awake cluster on a schedule says when it sleeps next", () => {
    const note = fleetHibernationNote(
      { enabled: false, hibernateAt: "2026-11-30T12:00:00Z", wakeAt: "2026-12-01T12:00:00Z" },
      false,
      NOW,
    );
    expect(note?.text).toMatch(/^sleeps Mon \d\d:\d\d$/);
    expect(note?.asleep).toBe(false);
  });

  it("says nothing of an awake cluster without a schedule; without the field, the row's own state counts", () => {
    expect(fleetHibernationNote({ enabled: false }, false, NOW)).toBeUndefined();
    expect(fleetHibernationNote(undefined, false, NOW)).toBeUndefined();
    expect(fleetHibernationNote(undefined, true, NOW)?.text).toBe("Hibernated");
  });

  it("names the weekday within the coming week and the date beyond it", () => {
    expect(shortMoment("2026-12-03T12:00:00Z", NOW)).toMatch(/^Thu \d\d:\d\d$/);
    expect(shortMoment("2026-12-12T12:00:00Z", NOW)).toMatch(/^12 Dec \d\d:\d\d$/);
  });
});
