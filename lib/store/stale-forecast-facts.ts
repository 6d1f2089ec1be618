// The facts of shoots whose stored ones are stale, computed from what the store read of them, with
// the versions they were computed from (storeForecastFacts keeps them only if those still hold).
// The forecast's read path and the background refresh both compute them so.
import { shootForecastFacts } from "../engine/forecast-facts.ts";
import type { CloudProfile } from "../gardener/types.ts";
import { profileKeyOf } from "../gardener/profile-reference.ts";
import type { ForecastFactsWrite, StaleShoot } from "./shoot-forecasts.ts";

/** The facts of shoots read stale, computed from `now`, with the versions they are computed from. */
export function computedForecastFacts(
  stale: readonly StaleShoot[],
  profiles: ReadonlyMap<string, CloudProfile>,
  now: number,
): ForecastFactsWrite[] {
  return stale.map((s) => {
    const profile = profiles.get(profileKeyOf(s.shoot));
    return {
      facts: shootForecastFacts(s.shoot, profile, s.running, now),
      resourceVersion: s.resourceVersion,
      updatedAt: s.updatedAt,
      profileVersion: profile ? Number(profile.metadata.resourceVersion ?? 0) : 0,
      filedUnder: s.filedUnder,
    };
  });
}
