import { describe, expect, it } from "vitest";
import { bucketDays, bucketStart, bucketTitle, groupItems } from "./forecast-buckets.ts";
import {
  forecastApiPath,
  forecastSearch,
  narrowsForecast,
  parseForecastFilters,
  withoutNarrowing,
} from "./forecast-filters.ts";

const t = (iso: string) => Date.parse(iso);
const DAY = 86_400_000;

describe("bucketStart", () => {
  it("is UTC midnight for days and the Monday for weeks", () => {
    expect(bucketStart(t("2026-11-23T23:59:59Z"), "day")).toBe(t("2026-11-23T00:00:00Z"));
    // 23 Nov 2026 is a Monday; the Sunday after belongs to the same week.
    expect(bucketStart(t("2026-11-29T22:00:00Z"), "week")).toBe(t("2026-11-23T00:00:00Z"));
    expect(bucketStart(t("2026-11-23T00:00:00Z"), "week")).toBe(t("2026-11-23T00:00:00Z"));
    expect(bucketStart(t("2026-11-22T23:59:59Z"), "week")).toBe(t("2026-11-16T00:00:00Z"));
  });
});

describe("bucketDays", () => {
  const day = (start: string, kubernetes: number, machineImage: number, stuck: number) => ({
    start,
    kubernetes,
    machineImage,
    stuck,
  });
  const days = [
    day("2026-11-23T00:00:00.000Z", 1, 1, 0),
    day("2026-11-25T00:00:00.000Z", 0, 0, 1),
    day("2026-12-01T00:00:00.000Z", 4, 0, 0),
  ];
  const from = t("2026-11-23T09:12:00Z");

  it("has one bucket per day from the start to the end, empty ones included, counting stuck updates apart", () => {
    const buckets = bucketDays(days, from, from + 7 * DAY, "day");
    expect(buckets).toHaveLength(8);
    expect(buckets[0]).toEqual({
      start: t("2026-11-23T00:00:00Z"),
      end: t("2026-11-24T00:00:00Z"),
      kubernetes: 1,
      machineImage: 1,
      stuck: 0,
      total: 2,
    });
    expect(buckets[1]).toMatchObject({ kubernetes: 0, machineImage: 0, stuck: 0, total: 0 });
    expect(buckets[2]).toMatchObject({ kubernetes: 0, machineImage: 0, stuck: 1, total: 1 });
    expect(buckets.reduce((n, b) => n + b.total, 0)).toBe(3); // 1 Dec is past the end
  });

  it("sums the days of an ISO week", () => {
    const weeks = bucketDays(days, from, from + 14 * DAY, "week");
    expect(weeks.map((w) => new Date(w.start).toISOString().slice(0, 10))).toEqual([
      "2026-11-23",
      "2026-11-30",
      "2026-12-07",
    ]);
    expect(weeks[0]).toMatchObject({ kubernetes: 1, machineImage: 1, stuck: 1, total: 3 });
    expect(weeks[1]).toMatchObject({ kubernetes: 4, machineImage: 0, stuck: 0, total: 4 });
    expect(weeks[0].end).toBe(weeks[1].start);
  });
});

describe("groupItems", () => {
  it("groups a page of items in time order by their UTC day or week", () => {
    const items = ["2026-11-23T16:11:00Z", "2026-11-23T23:59:59Z", "2026-11-25T00:03:00Z", "2026-12-01T20:00:00Z"].map(
      (at) => ({ at }),
    );
    const byDay = groupItems(items, "day").map((g) => [new Date(g.start).toISOString().slice(0, 10), g.items.length]);
    expect(byDay).toEqual([
      ["2026-11-23", 2],
      ["2026-11-25", 1],
      ["2026-12-01", 1],
    ]);
    expect(groupItems(items, "week").map((g) => g.items.length)).toEqual([3, 1]);
    expect(groupItems([], "day")).toEqual([]);
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

  it("write the URL without defaults, and ask the server for a page of what they select and its summary", () => {
    const f = parseForecastFilters(new URLSearchParams("days=365&cloudProfile=gcp&by=week"));
    expect(forecastSearch(f)).toBe("days=365&cloudProfile=gcp&by=week");
    expect(forecastSearch(parseForecastFilters(new URLSearchParams("")))).toBe("");
    expect(forecastApiPath(f, 100)).toBe("/forecast?days=365&cloudProfile=gcp&limit=100&summary=true");
    const every = parseForecastFilters(
      new URLSearchParams(
        "days=90&by=week&namespace=garden-dev&cloudProfile=aws&kind=kubernetes&stuck=true&atRisk=true",
      ),
    );
    expect(forecastApiPath(every, 200)).toBe(
      "/forecast?days=90&namespace=garden-dev&cloudProfile=aws&kind=kubernetes&stuck=true&atRisk=true&limit=200&summary=true",
    );
    expect(narrowsForecast(f)).toBe(true);
    expect(narrowsForecast({ ...f, cloudProfile: undefined })).toBe(false);
    expect(forecastSearch(withoutNarrowing(every))).toBe("days=90&by=week");
  });
});
