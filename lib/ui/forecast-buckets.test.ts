import { describe, expect, it } from "vitest";
import { bucketForecast, bucketStart, bucketTitle, firstItems } from "./forecast-buckets.ts";
import {
  filterForecastItems,
  forecastApiPath,
  forecastSearch,
  narrowsForecast,
  parseForecastFilters,
  withoutNarrowing,
} from "./forecast-filters.ts";

const t = (iso: string) => Date.parse(iso);
const DAY = 86_400_000;

const item = (at: string, kind: "kubernetes" | "machineImage", stuck = false, cloudProfile = "aws") => ({
  at,
  kind,
  stuck,
  cloudProfile,
});

describe("bucketStart", () => {
  it("is UTC midnight for days and the Monday for weeks", () => {
    expect(bucketStart(t("2026-11-23T23:59:59Z"), "day")).toBe(t("2026-11-23T00:00:00Z"));
    // 23 Nov 2026 is a Monday; the Sunday after belongs to the same week.
    expect(bucketStart(t("2026-11-29T22:00:00Z"), "week")).toBe(t("2026-11-23T00:00:00Z"));
    expect(bucketStart(t("2026-11-23T00:00:00Z"), "week")).toBe(t("2026-11-23T00:00:00Z"));
    expect(bucketStart(t("2026-11-22T23:59:59Z"), "week")).toBe(t("2026-11-16T00:00:00Z"));
  });
});

describe("bucketForecast", () => {
  const items = [
    item("2026-11-23T16:11:00Z", "kubernetes"),
    item("2026-11-23T18:49:00Z", "machineImage"),
    item("2026-11-25T00:03:00Z", "machineImage", true),
    item("2026-12-01T20:00:00Z", "kubernetes"),
  ];
  const from = t("2026-11-23T09:12:00Z");

  it("has one bucket per day from the start to the end, empty ones included, counting stuck updates apart", () => {
    const days = bucketForecast(items, from, from + 7 * DAY, "day");
    expect(days).toHaveLength(8);
    expect(days[0]).toMatchObject({ start: t("2026-11-23T00:00:00Z"), kubernetes: 1, machineImage: 1, stuck: 0 });
    expect(days[1]).toMatchObject({ kubernetes: 0, machineImage: 0, stuck: 0, items: [] });
    expect(days[2]).toMatchObject({ kubernetes: 0, machineImage: 0, stuck: 1 });
    expect(days.reduce((n, d) => n + d.items.length, 0)).toBe(3); // 1 Dec is past the end
  });

  it("groups by ISO week", () => {
    const weeks = bucketForecast(items, from, from + 14 * DAY, "week");
    expect(weeks.map((w) => new Date(w.start).toISOString().slice(0, 10))).toEqual([
      "2026-11-23",
      "2026-11-30",
      "2026-12-07",
    ]);
    expect(weeks[0]).toMatchObject({ kubernetes: 1, machineImage: 1, stuck: 1 });
    expect(weeks[1]).toMatchObject({ kubernetes: 1, machineImage: 0, stuck: 0 });
    expect(weeks[0].end).toBe(weeks[1].start);
  });

  it("shows the first items, still grouped, and counts the rest", () => {
    const days = bucketForecast(items, from, from + 14 * DAY, "day");
    const { groups, hidden } = firstItems(days, 3);
    expect(groups.map((g) => [new Date(g.start).toISOString().slice(0, 10), g.items.length])).toEqual([
      ["2026-11-23", 2],
      ["2026-11-25", 1],
    ]);
    expect(hidden).toBe(1);
    expect(firstItems(days, 100)).toMatchObject({ hidden: 0 });
    expect(firstItems(days, 100).groups).toHaveLength(3);
  });

  it("titles buckets in UTC", () => {
    expect(bucketTitle(t("2026-11-23T00:00:00Z"), "day")).toBe("Mon, 23 Nov 2026");
    expect(bucketTitle(t("2026-12-28T00:00:00Z"), "week")).toBe("Week of 28 Dec – 3 Jan 2027");
  });
});

describe("forecast filters", () => {
  it("read the URL, falling back to defaults for nonsense", () => {
    expect(
      parseForecastFilters(
        new URLSearchParams("days=90&namespace=garden-dev&kind=machineImage&stuck=true&by=week&cloudProfile=aws"),
      ),
    ).toEqual({
      days: 90,
      namespace: "garden-dev",
      cloudProfile: "aws",
      kind: "machineImage",
      stuck: true,
      atRisk: false,
      by: "week",
    });
    expect(parseForecastFilters(new URLSearchParams("days=12&kind=os&stuck=yes&by=month&namespace="))).toEqual({
      days: 30,
      namespace: undefined,
      cloudProfile: undefined,
      kind: undefined,
      stuck: false,
      atRisk: false,
      by: "day",
    });
  });

  it("write the URL without defaults, and ask the server only for horizon and namespace", () => {
    const f = parseForecastFilters(new URLSearchParams("days=365&cloudProfile=gcp&by=week"));
    expect(forecastSearch(f)).toBe("days=365&cloudProfile=gcp&by=week");
    expect(forecastSearch(parseForecastFilters(new URLSearchParams("")))).toBe("");
    expect(forecastApiPath(f)).toBe("/forecast?days=365");
    expect(forecastApiPath({ ...f, namespace: "garden-dev" })).toBe("/forecast?days=365&namespace=garden-dev");
    expect(narrowsForecast(f)).toBe(true);
    expect(narrowsForecast({ ...f, cloudProfile: undefined })).toBe(false);
    const narrowed = parseForecastFilters(
      new URLSearchParams("days=90&by=week&namespace=garden-dev&cloudProfile=aws&kind=kubernetes&stuck=true"),
    );
    expect(forecastSearch(withoutNarrowing(narrowed))).toBe("days=90&by=week");
  });

  it("narrow the items by profile, kind and stuck", () => {
    const items = [
      item("2026-11-23T16:11:00Z", "kubernetes"),
      item("2026-11-24T00:00:00Z", "machineImage", true, "gcp"),
    ];
    const base = parseForecastFilters(new URLSearchParams(""));
    expect(filterForecastItems(items, base)).toHaveLength(2);
    expect(filterForecastItems(items, { ...base, cloudProfile: "gcp" })).toEqual([items[1]]);
    expect(filterForecastItems(items, { ...base, kind: "kubernetes" })).toEqual([items[0]]);
    expect(filterForecastItems(items, { ...base, stuck: true })).toEqual([items[1]]);
  });
});
