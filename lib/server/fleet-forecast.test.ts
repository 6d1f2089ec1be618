// The fleet forecast is computed once per revision and horizon, whatever `days` clients ask for
// and however many ask at once, and still answers each `days` as a forecast to it would.
import { describe, expect, it } from "vitest";
import { generateLandscape } from "../demo/landscape.ts";
import { forecast, forecastHorizon } from "../engine/forecast.ts";
import { DAY_MS } from "../engine/time-units.ts";
import { type ForecastInput, fleetForecaster } from "./fleet-forecast.ts";

const now = Date.parse("2026-03-01T10:00:00.123Z");
const landscape = generateLandscape({ now, shoots: 24 });
const input: ForecastInput = {
  shoots: landscape.shoots,
  profiles: new Map(landscape.cloudProfiles.map((p) => [p.metadata.name, p])),
};

function counted() {
  const counter = { computations: 0, loads: 0 };
  const compute: typeof forecastHorizon = (...args) => {
    counter.computations++;
    return forecastHorizon(...args);
  };
  const load = async () => {
    counter.loads++;
    return input;
  };
  const forecaster = fleetForecaster(compute);
  const ask = (days: number, revision: number | undefined, at = now) =>
    forecaster(load, { days, namespaces: undefined }, revision, at);
  return { counter, ask };
}

const expected = (days: number) =>
  JSON.stringify({ days, ...forecast(input.shoots, input.profiles, now, now + days * DAY_MS) });

describe("fleet forecast", () => {
  it("computes once for two different days within one revision, each answer as before", async () => {
    const { counter, ask } = counted();
    expect(await ask(7, 1)).toBe(expected(7));
    expect(await ask(30, 1, now + 5_000)).toBe(expected(30));
    expect(counter).toEqual({ computations: 1, loads: 1 });
    expect(JSON.parse(await ask(30, 1)).items.length).toBeGreaterThan(JSON.parse(await ask(7, 1)).items.length);
  });

  it("cycling through every days value computes at most once per horizon", async () => {
    const { counter, ask } = counted();
    for (let days = 1; days <= 366; days++) {
      const body = await ask(days, 1);
      if (days % 61 === 0 || days === 366) expect(body).toBe(expected(days));
    }
    expect(counter.computations).toBe(3);
  });

  it("shares one computation among concurrent requests", async () => {
    const { counter, ask } = counted();
    const bodies = await Promise.all(Array.from({ length: 30 }, (_, i) => ask(i + 1, 1)));
    expect(bodies[29]).toBe(expected(30));
    expect(counter).toEqual({ computations: 1, loads: 1 });
  });

  it("computes again when the garden changes, after a minute, and always without the change feed", async () => {
    const { counter, ask } = counted();
    await ask(30, 1);
    await ask(30, 2);
    expect(counter.computations).toBe(2);
    await ask(7, 2, now + 61_000);
    expect(counter.computations).toBe(3);
    await ask(30, undefined);
    await ask(30, undefined);
    expect(counter.computations).toBe(5);
  });

  it("keeps the answers over other namespaces apart from the fleet's and from each other", async () => {
    const loaded: (readonly string[] | undefined)[] = [];
    const forecaster = fleetForecaster();
    const load = async (namespaces: readonly string[] | undefined) => {
      loaded.push(namespaces);
      const shoots = input.shoots.filter((s) => !namespaces || namespaces.includes(s.metadata.namespace ?? ""));
      return { ...input, shoots };
    };
    const namespacesOf = (body: string) =>
      new Set((JSON.parse(body).items as { namespace: string }[]).map((i) => i.namespace));
    const ask = (namespaces?: readonly string[]) => forecaster(load, { days: 30, namespaces }, 1, now);

    expect(namespacesOf(await ask()).size).toBeGreaterThan(2);
    expect(namespacesOf(await ask(["garden-payments"]))).toEqual(new Set(["garden-payments"]));
    expect(namespacesOf(await ask(["garden-payments", "garden-sandbox"]))).toEqual(
      new Set(["garden-payments", "garden-sandbox"]),
    );
    // No namespace at all is nothing, not the fleet.
    expect(JSON.parse(await ask([])).items).toEqual([]);
    expect(loaded).toEqual([undefined, ["garden-payments"], ["garden-payments", "garden-sandbox"], []]);
    // Each is kept: asking again loads nothing.
    await ask();
    await ask(["garden-payments"]);
    expect(loaded).toHaveLength(4);
  });

  it("forgets a computation that failed", async () => {
    let fail = true;
    const forecaster = fleetForecaster((...args) => {
      if (fail) throw new Error("database gone");
      return forecastHorizon(...args);
    });
    const params = { days: 30, namespaces: undefined };
    await expect(forecaster(async () => input, params, 1, now)).rejects.toThrow("database gone");
    fail = false;
    expect(await forecaster(async () => input, params, 1, now)).toBe(expected(30));
  });
});
