import { describe, expect, it } from "vitest";
import type { ForecastItem } from "./forecast.ts";
import { type CountedItem, ForecastCounts, shootCountRows } from "./forecast-counts.ts";
import { type ForecastNarrowing, kubernetesMarkers, summarizeForecast } from "./forecast-summary.ts";
import { DAY_MS, HOUR_MS } from "./time-units.ts";

/** A small deterministic generator (the engine takes no randomness it is not given). */
function generator(seed: number) {
  let state = seed >>> 0;
  return (below: number) => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state % below;
  };
}

const CAUSES = ["deleting", "hibernated", "maintenanceFailed"] as const;
const T0 = Date.parse("2026-12-01T00:00:00.000Z");

/** Random shoots' items in the engine's order (held ones first, then by moment). */
function randomFleet(seed: number) {
  const next = generator(seed);
  const shoots: { key: string; items: ForecastItem[] }[] = [];
  for (let s = 0; s < 40; s++) {
    const risky = next(3) === 0;
    const causes = CAUSES.filter(() => next(2) === 0);
    const items: ForecastItem[] = [];
    let at = T0 + next(20 * DAY_MS);
    for (let i = next(5); i > 0; i--) {
      const held = i === 1 && next(4) === 0;
      const kind = next(2) === 0 ? "kubernetes" : "machineImage";
      items.push({
        namespace: `garden-${next(3)}`,
        name: `shoot-${s}`,
        cloudProfile: "p",
        target: "controlPlane",
        kind,
        at: new Date(at).toISOString(),
        window: { begin: "", end: "" },
        from: `1.${next(4)}.0`,
        reason: "",
        stuck: next(4) === 0,
        ...(held ? { held: true as const } : {}),
        message: "",
        // Held rollouts carry no risk; the run's items carry the shoot's.
        ...(risky && !held ? { risk: { causes, short: "", summary: "", lead: "" } } : {}),
      } as ForecastItem);
      at += next(9 * DAY_MS) + HOUR_MS;
    }
    shoots.push({ key: `s${s}`, items: items.map((item) => ({ ...item, namespace: "ns", name: `shoot-${s}` })) });
  }
  return shoots;
}

const counted = (item: ForecastItem): CountedItem => ({
  at: Date.parse(item.at),
  kind: item.kind,
  fromVersion: item.from,
  stuck: item.stuck,
  held: item.held === true,
  causes: item.risk ? item.risk.causes.join(",") : null,
});

const NARROWINGS: ForecastNarrowing[] = [
  {},
  { kind: "kubernetes" },
  { kind: "machineImage", stuck: true },
  { stuck: true },
  { atRisk: true },
  { kind: "kubernetes", atRisk: true, stuck: true },
];

describe("the forecast's counts", () => {
  it("add up, shoot by shoot, to the summary and the markers' counts of the items", () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const shoots = randomFleet(seed);
      const counts = new ForecastCounts();
      for (const s of shoots) counts.add(shootCountRows(s.items.map(counted)));
      const all = shoots
        .flatMap((s) => s.items)
        .sort((a, b) => Date.parse(a.at) - Date.parse(b.at) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      for (const narrowing of NARROWINGS) expect(counts.summary(narrowing)).toEqual(summarizeForecast(all, narrowing));
      expect(counts.markerGroups().map((g) => [g.from, g.updates, g.stuck])).toEqual(
        kubernetesMarkers(all).map((m) => [m.from, m.updates, m.stuck]),
      );
    }
  });

  it("take a shoot's part away again, leaving nothing", () => {
    const shoots = randomFleet(9);
    const counts = new ForecastCounts();
    for (const s of shoots) counts.add(shootCountRows(s.items.map(counted)));
    for (const s of shoots) counts.add(shootCountRows(s.items.map(counted)), -1);
    expect(counts.summary({})).toEqual(summarizeForecast([], {}));
    expect(counts.markerGroups()).toEqual([]);
  });
});
