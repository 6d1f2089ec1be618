import { describe, expect, it } from "vitest";
import { gardenerDashboardBase } from "./dashboard-link.ts";

describe("gardenerDashboardBase", () => {
  it("is the setting's http(s) address without a trailing slash", () => {
    expect(gardenerDashboardBase("https://dashboard.garden.example.com/")).toBe("https://dashboard.garden.example.com");
    expect(gardenerDashboardBase("http://gd.local:8080/garden")).toBe("http://gd.local:8080/garden");
  });

  it("is nothing when unset (lib/config refuses anything but an http(s) URL at start)", () => {
    expect(gardenerDashboardBase(undefined)).toBeUndefined();
  });
});
