// The forecast's updates at risk: counted for the tile, kept by the "at risk only" filter, in the URL.
import { describe, expect, it } from "vitest";
import { countAtRisk, describeRiskCount } from "./forecast-risk.ts";
import {
  filterForecastItems,
  forecastSearch,
  narrowsForecast,
  parseForecastFilters,
  withoutNarrowing,
} from "./forecast-filters.ts";
import { forecastExportUrl } from "./export-links.ts";

const risk = (causes: ("maintenanceFailed" | "hibernated" | "preconditionsFalse")[]) => ({
  causes,
  short: "webhook denied (3×)",
  summary: "At risk: every maintenance since 21 Nov 2026 failed (3 runs on record).",
  lead: "At risk: every maintenance since 21 Nov 2026 failed (3 runs on record).",
});

const item = (name: string, kind: "kubernetes" | "machineImage", atRisk?: ReturnType<typeof risk>) => ({
  namespace: "garden-dev",
  name,
  cloudProfile: "aws",
  kind,
  stuck: false,
  ...(atRisk ? { risk: atRisk } : {}),
});

const items = [
  item("a", "kubernetes", risk(["maintenanceFailed", "preconditionsFalse"])),
  item("a", "machineImage", risk(["maintenanceFailed", "preconditionsFalse"])),
  item("b", "kubernetes"),
  item("c", "kubernetes", risk(["hibernated"])),
];

describe("updates at risk in the forecast", () => {
  it("are counted by update, by shoot and by cause", () => {
    const count = countAtRisk(items);
    expect(count).toEqual({
      updates: 3,
      shoots: 2,
      byCause: { maintenanceFailed: 1, preconditionsFalse: 1, hibernated: 1 },
    });
    expect(describeRiskCount(count)).toBe(
      "3 updates on 2 shoots: 1 maintenance failed, 1 precondition False, 1 hibernated.",
    );
    expect(describeRiskCount(countAtRisk([items[2]]))).toBe("No update is at risk.");
  });

  it("are what the 'at risk only' filter keeps, with the other filters", () => {
    const base = parseForecastFilters(new URLSearchParams(""));
    expect(base.atRisk).toBe(false);
    expect(filterForecastItems(items, base)).toHaveLength(4);
    const atRisk = { ...base, atRisk: true };
    expect(filterForecastItems(items, atRisk).map((i) => `${i.name}/${i.kind}`)).toEqual([
      "a/kubernetes",
      "a/machineImage",
      "c/kubernetes",
    ]);
    expect(filterForecastItems(items, { ...atRisk, kind: "machineImage" })).toEqual([items[1]]);
  });

  it("are a filter in the URL and in the export", () => {
    const f = parseForecastFilters(new URLSearchParams("atRisk=true&days=90"));
    expect(f.atRisk).toBe(true);
    expect(forecastSearch(f)).toBe("days=90&atRisk=true");
    expect(narrowsForecast(f)).toBe(true);
    expect(withoutNarrowing(f).atRisk).toBe(false);
    expect(parseForecastFilters(new URLSearchParams("atRisk=yes")).atRisk).toBe(false);
    expect(forecastExportUrl(f, "csv")).toBe("/api/v1/forecast/export?days=90&atRisk=true&format=csv");
  });
});
