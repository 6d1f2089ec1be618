import { describe, expect, it } from "vitest";
import {
  activeFilterCount,
  DEFAULT_FILTERS,
  filtersFromSearch,
  listQuery,
  searchFromFilters,
  summaryQuery,
} from "./fleet-filters";

describe("fleet filters in the URL", () => {
  it("round-trips every filter and the sort", () => {
    const search =
      "q=payments+prod&status=unhealthy%2Cprogressing&classification=deprecated&expiringWithinDays=30&namespace=garden-a&project=a&cloudProfile=aws&seed=aws-eu1&sort=-expiry";
    const filters = filtersFromSearch(new URLSearchParams(search));
    expect(filters).toEqual({
      q: "payments prod",
      status: ["unhealthy", "progressing"],
      classification: "deprecated",
      expiringWithinDays: 30,
      namespace: "garden-a",
      project: "a",
      cloudProfile: "aws",
      seed: "aws-eu1",
      sort: "expiry",
      descending: true,
    });
    expect(searchFromFilters(filters)).toBe(search);
  });

  it("drops malformed values instead of sending them", () => {
    const filters = filtersFromSearch(
      new URLSearchParams(
        "status=broken,healthy&classification=old&expiringWithinDays=-3&project=Not_A_Name&sort=colour",
      ),
    );
    expect(filters).toEqual({ ...DEFAULT_FILTERS, status: ["healthy"] });
  });

  it("carries purposes and a label selector, and drops an unknown purpose or a selector that does not parse", () => {
    const search = "purpose=production%2Ctesting&labels=env%3Dprod%2Cteam+in+%28a%2Cb%29%2C%21legacy";
    const filters = filtersFromSearch(new URLSearchParams(search));
    expect(filters).toEqual({
      ...DEFAULT_FILTERS,
      purpose: ["production", "testing"],
      labels: "env=prod,team in (a,b),!legacy",
    });
    expect(searchFromFilters(filters)).toBe(search);
    expect(activeFilterCount(filters)).toBe(2);
    expect(listQuery(filters).get("labels")).toBe("env=prod,team in (a,b),!legacy");
    expect(filtersFromSearch(new URLSearchParams("purpose=staging,production&labels=team+in+()"))).toEqual({
      ...DEFAULT_FILTERS,
      purpose: ["production"],
    });
  });

  it("keeps an expiry horizon of 0 days (already expired)", () => {
    expect(filtersFromSearch(new URLSearchParams("expiringWithinDays=0")).expiringWithinDays).toBe(0);
  });

  it("reads an empty expiry horizon as none, not as 0 days", () => {
    expect(filtersFromSearch(new URLSearchParams("expiringWithinDays=")).expiringWithinDays).toBeUndefined();
  });

  it("reads anything with get(), as Next's read-only search params", () => {
    const search = { get: (name: string) => (name === "seed" ? "aws-eu1" : null) };
    expect(filtersFromSearch(search)).toEqual({ ...DEFAULT_FILTERS, seed: "aws-eu1" });
  });

  it("leaves defaults out of the URL but always tells the API the sort", () => {
    expect(searchFromFilters(DEFAULT_FILTERS)).toBe("");
    expect(listQuery(DEFAULT_FILTERS).toString()).toBe("sort=status");
  });

  it("asks the summary with the list's filters, without the sort", () => {
    const f = { ...DEFAULT_FILTERS, status: ["unhealthy" as const], seed: "gcp-eu1" };
    expect(summaryQuery(f).toString()).toBe("status=unhealthy&seed=gcp-eu1");
    expect(activeFilterCount(f)).toBe(2);
  });
});
