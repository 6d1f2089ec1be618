import { describe, expect, it } from "vitest";
import {
  auditExportUrl,
  fleetExportUrl,
  forecastExportUrl,
  gardenerDashboardUrl,
  namespaceCalendarUrl,
  shootCalendarUrl,
} from "./export-links.ts";
import { DEFAULT_FILTERS } from "./fleet-filters.ts";

describe("export links", () => {
  it("carry the fleet's filters and sort, without paging", () => {
    expect(
      fleetExportUrl({ ...DEFAULT_FILTERS, q: "prod", status: ["unhealthy"], namespace: "garden-dev" }, "csv"),
    ).toBe("/api/v1/shoots/export?q=prod&status=unhealthy&namespace=garden-dev&sort=status&format=csv");
  });

  it("carry the forecast's horizon and the filters the page narrows with", () => {
    expect(
      forecastExportUrl(
        { days: 90, by: "day", stuck: true, atRisk: false, kind: "kubernetes", cloudProfile: "aws" },
        "json",
      ),
    ).toBe("/api/v1/forecast/export?days=90&cloudProfile=aws&kind=kubernetes&stuck=true&format=json");
  });

  it("carry the audit filters, the last day included", () => {
    expect(auditExportUrl({ actor: "ann@example.com", until: "2026-11-23" }, "csv")).toBe(
      "/api/v1/audit/export?actor=ann%40example.com&until=2026-11-24&format=csv",
    );
  });

  it("name the calendars and the Gardener dashboard's page of a cluster", () => {
    expect(shootCalendarUrl("garden-dev", "a")).toBe("/api/v1/namespaces/garden-dev/shoots/a/calendar.ics");
    expect(namespaceCalendarUrl("garden-dev")).toBe("/api/v1/namespaces/garden-dev/calendar.ics");
    expect(gardenerDashboardUrl("https://dashboard.garden.example.com/", "garden-dev", "a")).toBe(
      "https://dashboard.garden.example.com/namespace/garden-dev/shoots/a",
    );
  });
});
