// The maintenance calendar: every window of the next 30 days as an event in UTC, and the forced
// updates the forecast sees, as RFC 5545 text.
import { describe, expect, it } from "vitest";
import { at, profile, shoot } from "../../tests/support/builders.ts";
import { maintenanceCalendar, maintenanceWindows } from "./maintenance-calendar.ts";

const now = at("2026-03-01T10:00:00Z");
const expiredProfile = profile([
  { version: "1.30.1", classification: "deprecated", expirationDate: "2026-02-01T00:00:00Z" },
  { version: "1.30.5", classification: "supported" },
]);
const profiles = new Map([["test-profile", expiredProfile]]);

function events(text: string) {
  return text
    .split("BEGIN:VEVENT\r\n")
    .slice(1)
    .map((block) => block.split("END:VEVENT")[0]);
}

describe("maintenanceWindows", () => {
  it("gives each window the shoot sets (22:00 to 23:00 UTC) for 30 days", () => {
    const windows = maintenanceWindows(shoot("1.30.5"), now, now + 30 * 86_400_000);
    expect(windows).toHaveLength(30);
    expect(new Date(windows[0].begin).toISOString()).toBe("2026-03-01T22:00:00.000Z");
    expect(new Date(windows[0].end).toISOString()).toBe("2026-03-01T23:00:00.000Z");
    expect(windows[0].at).toBeGreaterThanOrEqual(windows[0].begin);
    expect(windows[0].at).toBeLessThanOrEqual(windows[0].end - 15 * 60_000);
    expect(new Date(windows[29].begin).toISOString()).toBe("2026-03-30T22:00:00.000Z");
  });

  it("gives none for a shoot being deleted", () => {
    const deleting = shoot("1.30.5");
    const gone = { ...deleting, metadata: { ...deleting.metadata, deletionTimestamp: "2026-03-01T09:00:00Z" } };
    expect(maintenanceWindows(gone, now, now + 30 * 86_400_000)).toEqual([]);
  });
});

describe("maintenanceCalendar", () => {
  const text = maintenanceCalendar(
    "Maintenance of garden-dev/my-shoot",
    "uid-1",
    [shoot("1.30.1")],
    profiles,
    now,
    (ns, n = "") => `https://almanac.example.com/shoots/${ns}/${n}`,
  );

  it("is an iCalendar with CRLF line ends, folded at 75 octets", () => {
    expect(text.startsWith("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:")).toBe(true);
    expect(text.endsWith("END:VCALENDAR\r\n")).toBe(true);
    expect(text.replaceAll("\r\n", "")).not.toMatch(/[\r\n]/);
    for (const line of text.split("\r\n")) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
  });

  it("has an event per window in UTC and one for the forced update, with unique ids", () => {
    const all = events(text);
    const windows = all.filter((e) => e.includes("SUMMARY:Maintenance window"));
    expect(windows).toHaveLength(30);
    expect(windows[0]).toContain("DTSTART:20260301T220000Z\r\n");
    expect(windows[0]).toContain("DTEND:20260301T230000Z\r\n");
    expect(windows[0]).toContain("(1 forced update)");
    const forced = all.filter((e) => e.includes("SUMMARY:Forced update"));
    expect(forced).toHaveLength(1);
    expect(forced[0].replaceAll("\r\n ", "")).toContain(
      "SUMMARY:Forced update: garden-dev/my-shoot control plane Kubernetes 1.30.1 → 1.30.5",
    );
    expect(forced[0]).toMatch(/DTSTART:20260301T22\d{4}Z/);
    expect(forced[0].replaceAll("\r\n ", "")).toContain(
      "URL;VALUE=URI:https://almanac.example.com/shoots/garden-dev/my-shoot",
    );
    const ids = all.map((e) => /UID:(.*)\r\n/.exec(e.replaceAll("\r\n ", ""))![1]);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("escapes text values (commas, semicolons, line breaks)", () => {
    const strange = shoot("1.30.5");
    const named = { ...strange, metadata: { ...strange.metadata, name: "a,b;c" } };
    const out = maintenanceCalendar("x", "x", [named], profiles, now).replaceAll("\r\n ", "");
    expect(out).toContain("SUMMARY:Maintenance window: garden-dev/a\\,b\\;c");
  });

  it("gives clusters that share a window one event, naming them", () => {
    const a = shoot("1.30.5");
    const b = { ...a, metadata: { ...a.metadata, name: "other-shoot", uid: "b" } };
    const all = events(
      maintenanceCalendar("Maintenance in garden-dev", "garden-dev", [a, b], profiles, now, (ns, n) =>
        n ? `https://a.example/shoots/${ns}/${n}` : `https://a.example/shoots?namespace=${ns}`,
      ).replaceAll("\r\n ", ""),
    );
    expect(all).toHaveLength(30);
    expect(all[0]).toContain("SUMMARY:Maintenance window: 2 clusters in garden-dev\r\n");
    expect(all[0]).toMatch(
      /DESCRIPTION:Gardener maintains 2 clusters of garden-dev in this window: my-shoot at 22:\d\d UTC\\, other-shoot at 22:\d\d UTC\./,
    );
    expect(all[0]).toContain("URL;VALUE=URI:https://a.example/shoots?namespace=garden-dev");
  });
});

describe("the calendar's text (RFC 5545)", () => {
  it("escapes a name and ids that carry line breaks, semicolons and commas", () => {
    const text = maintenanceCalendar(
      "Maintenance in a\r\nX-INJECT:1;b,c\\d",
      "id\r\nX-ID:1",
      [shoot("1.30.5")],
      profiles,
      now,
    );
    const lines = text.split("\r\n");
    expect(lines).toContain("X-WR-CALNAME:Maintenance in a\\nX-INJECT:1\\;b\\,c\\\\d");
    expect(lines.some((l) => l.startsWith("X-INJECT") || l.startsWith("X-ID"))).toBe(false);
  });
});
