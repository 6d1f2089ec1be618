// The forecast's updates at risk: described for the tile, a filter in the URL and the export.
import { describe, expect, it } from "vitest";
import { describeRiskCount } from "./forecast-risk.ts";
import { forecastSearch, narrowsForecast, parseForecastFilters, withoutNarrowing } from "./forecast-filters.ts";
import { forecastExportUrl } from "./export-links.ts";

describe("updates at risk in the forecast", () => {
  it("are described by update, by shoot and by cause", () => {
    const count = { updates: 3, shoots: 2, byCause: { maintenanceFailed: 1, preconditionsFalse: 1, hibernated: 1 } };
    expect(describeRiskCount(count)).toBe(
      "3 updates on 2 shoots: 1 maintenance failed, 1 precondition False, 1 hibernated.",
    );
    expect(describeRiskCount({ updates: 0, shoots: 0, byCause: {} })).toBe("No update is at risk.");
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
