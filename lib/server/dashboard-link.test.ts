import { describe, expect, it } from "vitest";
import { gardenerDashboardBase } from "./dashboard-link.ts";

describe("gardenerDashboardBase", () => {
  it("is the setting's http(s) address without a trailing slash", () => {
    expect(gardenerDashboardBase({ ALMANAC_DASHBOARD_URL: "https://dashboard.garden.example.com/" })).toBe(
      "https://dashboard.garden.example.com",
    );
    expect(gardenerDashboardBase({ ALMANAC_DASHBOARD_URL: "http://gd.local:8080/garden" })).toBe(
      "http://gd.local:8080/garden",
    );
  });

  it("is nothing when unset or not an http(s) URL", () => {
    expect(gardenerDashboardBase({})).toBeUndefined();
    expect(gardenerDashboardBase({ ALMANAC_DASHBOARD_URL: " " })).toBeUndefined();
    expect(gardenerDashboardBase({ ALMANAC_DASHBOARD_URL: "javascript:alert(1)" })).toBeUndefined();
    expect(gardenerDashboardBase({ ALMANAC_DASHBOARD_URL: "dashboard.example.com" })).toBeUndefined();
  });
});
