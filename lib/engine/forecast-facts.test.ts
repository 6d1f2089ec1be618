// Stored forecast facts answer every forecast they claim to answer exactly as the engine's
// step-by-step forecast from that moment: generated shoots and profiles, then the demo landscape.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { generateLandscape } from "../demo/landscape.ts";
import type { CloudProfile, ExpirableVersion, Shoot } from "../gardener/types.ts";
import { forecastHorizon } from "./forecast.ts";
import {
  FACTS_HORIZON_MS,
  FACTS_MARGIN_MS,
  FACTS_SPREAD_MS,
  FORECAST_MAX_DAYS,
  factsAnswer,
  factsMarginOf,
  readForecastFacts,
  shootForecastFacts,
} from "./forecast-facts.ts";
import type { RunningVersions } from "./running-versions.ts";
import { DAY_MS, HOUR_MS } from "./time-units.ts";

const F0 = Date.parse("2026-05-04T13:21:07.250Z");
const iso = (ms: number) => new Date(ms).toISOString();

/** What a forecast from `from` to `to` says of one shoot, the engine's way. */
function engine(
  shoot: Shoot,
  profiles: ReadonlyMap<string, CloudProfile>,
  running: RunningVersions | undefined,
  from: number,
  to: number,
) {
  const f = forecastHorizon([shoot], profiles, from, to, () => running).until(to);
  return { items: f.items, problem: f.problems[0]?.problem };
}

function stored(
  shoot: Shoot,
  profiles: ReadonlyMap<string, CloudProfile>,
  running: RunningVersions | undefined,
  from: number,
  to: number,
) {
  const facts = shootForecastFacts(shoot, profiles.get(shoot.spec.cloudProfileName ?? ""), running, F0);
  expect(factsAnswer(facts, from, to)).toBe(true);
  const read = readForecastFacts(facts, from, to);
  return { items: read.items, problem: read.problem };
}

// Versions whose classification changes at generated moments around F0 (legacy expiry dates and
// lifecycles), so that windows, change times and chains fall everywhere.
const moment = fc.integer({ min: -40, max: 400 }).map((days) => F0 + days * DAY_MS + (days % 7) * HOUR_MS);
const kubernetesVersion = fc.record({
  minor: fc.integer({ min: 28, max: 32 }),
  patch: fc.integer({ min: 0, max: 3 }),
  expires: fc.option(moment, { nil: undefined }),
  deprecatedAt: fc.option(moment, { nil: undefined }),
  preview: fc.boolean(),
  legacy: fc.boolean(),
});

function expirable(
  v: { expires?: number; deprecatedAt?: number; preview: boolean; legacy: boolean },
  version: string,
): ExpirableVersion {
  if (v.legacy) {
    return {
      version,
      ...(v.preview ? { classification: "preview" } : { classification: "supported" }),
      ...(v.expires !== undefined ? { expirationDate: iso(v.expires) } : {}),
    };
  }
  const stages = [
    { classification: v.preview ? "preview" : "supported" },
    ...(v.deprecatedAt !== undefined ? [{ classification: "deprecated", startTime: iso(v.deprecatedAt) }] : []),
    ...(v.expires !== undefined
      ? [{ classification: "expired", startTime: iso(Math.max(v.expires, v.deprecatedAt ?? 0)) }]
      : []),
  ];
  return { version, lifecycle: stages };
}

const scenario = fc
  .record({
    versions: fc.uniqueArray(kubernetesVersion, {
      minLength: 1,
      maxLength: 8,
      selector: (v) => `${v.minor}.${v.patch}`,
    }),
    images: fc.uniqueArray(kubernetesVersion, { minLength: 1, maxLength: 4, selector: (v) => `${v.minor}.${v.patch}` }),
    pick: fc.nat(),
    imagePick: fc.nat(),
    autoKubernetes: fc.boolean(),
    autoImage: fc.boolean(),
    windowHour: fc.integer({ min: 0, max: 23 }),
    uid: fc.uuid(),
    withWorker: fc.boolean(),
    profileMissing: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
    deleting: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
    brokenWindow: fc.integer({ min: 0, max: 19 }).map((n) => n === 0),
    heldFrom: fc.option(fc.integer({ min: 0, max: 7 }), { nil: undefined }),
    hibernated: fc.boolean(),
    // Where F lies in [F0, validUntil] (a fraction), and how far T lies after F.
    at: fc.double({ min: 0, max: 1, noNaN: true }),
    days: fc.integer({ min: 1, max: FORECAST_MAX_DAYS }),
  })
  .map((s) => {
    const profile: CloudProfile = {
      metadata: { name: "gen" },
      spec: {
        type: "aws",
        kubernetes: { versions: s.versions.map((v) => expirable(v, `1.${v.minor}.${v.patch}`)) },
        machineImages: [
          {
            name: "img",
            versions: s.images.map((v) => ({
              ...expirable(v, `${v.minor}.${v.patch}.0`),
              cri: [{ name: "containerd" }],
            })),
          },
        ],
      },
    };
    const v = s.versions[s.pick % s.versions.length];
    const image = s.images[s.imagePick % s.images.length];
    const hour = String(s.windowHour).padStart(2, "0");
    const shoot: Shoot = {
      metadata: {
        name: "gen-shoot",
        namespace: "garden-gen",
        uid: s.uid,
        ...(s.deleting ? { deletionTimestamp: iso(F0 - DAY_MS) } : {}),
      },
      spec: {
        cloudProfileName: s.profileMissing ? "elsewhere" : "gen",
        kubernetes: { version: `1.${v.minor}.${v.patch}` },
        hibernation: { enabled: s.hibernated },
        provider: {
          type: "aws",
          workers: s.withWorker
            ? [
                {
                  name: "pool",
                  machine: { type: "m5", image: { name: "img", version: `${image.minor}.${image.patch}.0` } },
                  cri: { name: "containerd" },
                  minimum: 1,
                  maximum: 2,
                },
              ]
            : [],
        },
        maintenance: {
          timeWindow: s.brokenWindow
            ? { begin: "99", end: "nope" }
            : { begin: `${hour}0000+0000`, end: `${hour}3000+0000` },
          autoUpdate: { kubernetesVersion: s.autoKubernetes, machineImageVersion: s.autoImage },
          confineSpecUpdateRollout: s.heldFrom !== undefined,
        },
      },
      status: { lastOperation: { type: "Reconcile", state: "Succeeded" } },
    } as Shoot;
    // A cluster that still runs an older patch than its spec asks (a rollout held for the window).
    const running: RunningVersions | undefined =
      s.heldFrom === undefined
        ? undefined
        : {
            since: iso(F0 - DAY_MS),
            kubernetesVersion: `1.${v.minor}.${v.patch + 1 + s.heldFrom}`,
            workers: [{ name: "pool" }],
          };
    return { profile, shoot, running, at: s.at, days: s.days };
  });

describe("forecast facts", () => {
  it("answer every forecast from a moment in [F0, validUntil] to any end before the horizon as the engine does", () => {
    fc.assert(
      fc.property(scenario, ({ profile, shoot, running, at, days }) => {
        const profiles = new Map([[profile.metadata.name, profile]]);
        const facts = shootForecastFacts(
          shoot,
          profile.metadata.name === shoot.spec.cloudProfileName ? profile : undefined,
          running,
          F0,
        );
        const from = Math.floor(F0 + at * (facts.validUntil - F0));
        const to = Math.min(from + days * DAY_MS, facts.horizon);
        expect(stored(shoot, profiles, running, from, to)).toEqual(engine(shoot, profiles, running, from, to));
      }),
      { numRuns: 400 },
    );
  });

  it("are valid for at most the margin, and look far enough for any question asked meanwhile", () => {
    const landscape = generateLandscape({ now: F0, shoots: 40, seed: 3 });
    const profiles = new Map(landscape.cloudProfiles.map((p) => [p.metadata.name, p]));
    for (const shoot of landscape.shoots) {
      const facts = shootForecastFacts(shoot, profiles.get(shoot.spec.cloudProfileName ?? ""), undefined, F0);
      expect(facts.validUntil).toBeLessThanOrEqual(F0 + FACTS_MARGIN_MS);
      expect(facts.validUntil + FORECAST_MAX_DAYS * DAY_MS).toBeLessThanOrEqual(F0 + FACTS_HORIZON_MS);
    }
  });

  it("computed for many shoots at one moment expire spread over the week before the margin ends", () => {
    const landscape = generateLandscape({ now: F0, shoots: 1000, seed: 4 });
    const profiles = new Map(landscape.cloudProfiles.map((p) => [p.metadata.name, p]));
    const expiries = landscape.shoots.map((shoot) => {
      const facts = shootForecastFacts(shoot, profiles.get(shoot.spec.cloudProfileName ?? ""), undefined, F0);
      const margin = factsMarginOf(shoot.metadata.namespace ?? "", shoot.metadata.name);
      expect(facts.validUntil).toBeLessThanOrEqual(F0 + margin);
      return facts.validUntil;
    });
    // The shoots no update or change stops earlier: counted per day of the spread, each day holds
    // about a seventh of them, and no moment more than a few. (About a quarter of the demo's shoots:
    // most have an update pending for their next window, from the versions released hours ago.)
    const full = expiries.filter((v) => v > F0 + FACTS_MARGIN_MS - FACTS_SPREAD_MS);
    expect(full.length).toBeGreaterThan(200);
    const perDay = Array.from({ length: 7 }, (_, day) => {
      const start = F0 + FACTS_MARGIN_MS - FACTS_SPREAD_MS + day * DAY_MS;
      return full.filter((v) => v > start && v <= start + DAY_MS).length;
    });
    expect(perDay.reduce((a, b) => a + b, 0)).toBe(full.length);
    for (const count of perDay) {
      expect(count).toBeGreaterThan(full.length / 7 / 2);
      expect(count).toBeLessThan((full.length / 7) * 2);
    }
    const sameMoment = Math.max(...[...Map.groupBy(full, (v) => v).values()].map((g) => g.length));
    expect(sameMoment).toBeLessThanOrEqual(3);
  });

  it("give up a part of the margin that depends only on the shoot's key, up to the spread", () => {
    expect(factsMarginOf("garden-a", "one")).toBe(factsMarginOf("garden-a", "one"));
    expect(factsMarginOf("garden-a", "one")).not.toBe(factsMarginOf("garden-a", "two"));
    for (let i = 0; i < 200; i++) {
      const margin = factsMarginOf(`garden-${i % 7}`, `shoot-${i}`);
      expect(margin).toBeLessThanOrEqual(FACTS_MARGIN_MS);
      expect(margin).toBeGreaterThan(FACTS_MARGIN_MS - FACTS_SPREAD_MS);
    }
  });

  it("read the demo landscape's shoots as the engine forecasts them, at F0, later and at validUntil", () => {
    for (const seed of [1, 2, 7]) {
      const landscape = generateLandscape({ now: F0, shoots: 150, seed });
      const profiles = new Map(landscape.cloudProfiles.map((p) => [p.metadata.name, p]));
      for (const shoot of landscape.shoots) {
        const facts = shootForecastFacts(shoot, profiles.get(shoot.spec.cloudProfileName ?? ""), undefined, F0);
        for (const from of [F0, Math.floor((F0 + facts.validUntil) / 2), facts.validUntil]) {
          for (const days of [1, 30, FORECAST_MAX_DAYS]) {
            const to = from + days * DAY_MS;
            expect(stored(shoot, profiles, undefined, from, to)).toEqual(engine(shoot, profiles, undefined, from, to));
          }
        }
      }
    }
  });

  it("refuse a forecast from before they were computed or after they are valid", () => {
    const landscape = generateLandscape({ now: F0, shoots: 1, seed: 1 });
    const shoot = landscape.shoots[0];
    const facts = shootForecastFacts(
      shoot,
      landscape.cloudProfiles.find((p) => p.metadata.name === shoot.spec.cloudProfileName),
      undefined,
      F0,
    );
    expect(() => readForecastFacts(facts, F0 - 1, F0 + DAY_MS)).toThrow(RangeError);
    expect(() => readForecastFacts(facts, facts.validUntil + 1, facts.validUntil + DAY_MS)).toThrow(RangeError);
    expect(() => readForecastFacts(facts, F0, F0 + FACTS_HORIZON_MS + 1)).toThrow(RangeError);
  });
});
