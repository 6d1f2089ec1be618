import { describe, expect, it } from "vitest";
import type { ForecastItem } from "./forecast.ts";
import { summarizeForecast } from "./forecast-summary.ts";

type Item = Pick<ForecastItem, "namespace" | "name" | "kind" | "stuck" | "held" | "at" | "risk">;

const risk = (...causes: NonNullable<ForecastItem["risk"]>["causes"]) => ({ causes, short: "", summary: "", lead: "" });

const ITEMS: Item[] = [
  { namespace: "a", name: "one", kind: "kubernetes", stuck: false, at: "2026-12-01T03:00:00.000Z" },
  { namespace: "a", name: "one", kind: "machineImage", stuck: false, at: "2026-12-01T23:59:59.999Z" },
  {
    namespace: "a",
    name: "two",
    kind: "kubernetes",
    stuck: true,
    at: "2026-12-02T00:00:00.000Z",
    risk: risk("maintenanceFailed"),
  },
  { namespace: "b", name: "one", kind: "kubernetes", stuck: false, held: true, at: "2026-12-01T05:00:00.000Z" },
  {
    namespace: "b",
    name: "two",
    kind: "machineImage",
    stuck: false,
    at: "2026-12-09T05:00:00.000Z",
    risk: risk("hibernated", "deleting"),
  },
];

describe("the forecast's summary", () => {
  it("counts updates and shoots, forced, stuck and held apart, and the updates per UTC day", () => {
    expect(summarizeForecast(ITEMS, {})).toEqual({
      updates: 5,
      forced: 4,
      forcedShoots: 3,
      stuck: 1,
      stuckShoots: 1,
      held: 1,
      heldShoots: 1,
      risk: { of: 5, updates: 2, shoots: 2, byCause: { deleting: 1, hibernated: 1, maintenanceFailed: 1 } },
      days: [
        { start: "2026-12-01T00:00:00.000Z", kubernetes: 2, machineImage: 1, stuck: 0 },
        { start: "2026-12-02T00:00:00.000Z", kubernetes: 0, machineImage: 0, stuck: 1 },
        { start: "2026-12-09T00:00:00.000Z", kubernetes: 0, machineImage: 1, stuck: 0 },
      ],
    });
  });

  it("counts what a narrowing selects, and the risk among what the other narrowings select", () => {
    const atRisk = summarizeForecast(ITEMS, { atRisk: true });
    expect([atRisk.updates, atRisk.forcedShoots, atRisk.stuck, atRisk.risk.of, atRisk.risk.updates]).toEqual([
      2, 2, 1, 5, 2,
    ]);
    const kubernetes = summarizeForecast(ITEMS, { kind: "kubernetes", atRisk: true });
    expect([kubernetes.updates, kubernetes.risk.of, kubernetes.risk.byCause]).toEqual([1, 3, { maintenanceFailed: 1 }]);
    const stuck = summarizeForecast(ITEMS, { stuck: true });
    expect([stuck.updates, stuck.days.length, stuck.risk.of]).toEqual([1, 1, 1]);
    expect(summarizeForecast(ITEMS, { kind: "machineImage", stuck: true }).updates).toBe(0);
  });
});
