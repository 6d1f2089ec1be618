// One shoot's forecast as stored facts: its coming forced, stuck and held updates up to a horizon,
// computed once from a moment F0, and until when they answer any later question exactly as a
// fresh forecast would. Stored per shoot (lib/store/shoot-forecasts.ts), the fleet forecast becomes
// a query instead of stepping every shoot.
//
// Why facts from F0 still answer a forecast from F (F0 <= F <= validUntil) to T (T <= horizon):
// until the first window V where the stored run changed the spec, produced an item or failed,
// every window it evaluated was a no-op, and the state (the spec) was the shoot's own. A run from
// F evaluates the window at or after F, whose classifications are those of a window the stored run
// evaluated (the first one, or the one after the last change time before it, since every change
// time from F0 on got its own window), so it is a no-op too; the change-time windows from F on are
// the stored run's, and from V on both runs evaluate the same windows on the same state. Items all
// lie at or after V, so none is before F. Failures: one met at the first window (an unusable time
// window) holds for any F, whereas one met at a change time c + 1 only for runs that schedule c,
// i.e. from F <= c: validUntil stops just before. The held rollout lies in the first window (V at
// the latest), and the update risk reads only the shoot's status. Past validUntil, or when the
// shoot is written (its spec, status, running versions or cloud profile changed), facts are
// computed again. forecast-facts.test.ts checks this against forecastHorizon on generated shoots.
import type { CloudProfile, Shoot } from "../gardener/types.ts";
import { fleetProfileName, missingProfileMessage } from "../gardener/profile-reference.ts";
import { markWhileHibernated } from "./forecast-hibernation.ts";
import { crc32 } from "./crc32.ts";
import { type ForecastItem, stepShoot } from "./forecast.ts";
import { heldRolloutItems } from "./held-rollout-forecast.ts";
import type { RunningVersions } from "./running-versions.ts";
import { DAY_MS } from "./time-units.ts";

/** How long facts may serve at most: after that every shoot is computed again. */
export const FACTS_MARGIN_MS = 30 * DAY_MS;

/** How much of the margin a shoot gives up at most, so that facts computed together expire spread out. */
export const FACTS_SPREAD_MS = 7 * DAY_MS;

/**
 * The margin of the shoot `namespace/name`: FACTS_MARGIN_MS less a part of FACTS_SPREAD_MS drawn
 * from a hash of its key, the same for the shoot every time. Facts computed for a whole fleet at
 * one moment (after seeding) then expire over a week instead of all at once 30 days later, so no
 * refresh or read ever has to compute the whole fleet again. It is the engine's, not the store's,
 * because validUntil is the engine's promise of how long facts answer exactly (a shorter one is
 * always safe): every writer of facts (a read, the background refresh) then stores the same.
 */
export function factsMarginOf(namespace: string, name: string): number {
  return FACTS_MARGIN_MS - Math.floor((crc32(`${namespace}/${name}`) / 2 ** 32) * FACTS_SPREAD_MS);
}

/** The furthest a forecast looks ahead (the API's `days` at most). */
export const FORECAST_MAX_DAYS = 366;

/** How far facts look: any question asked while they are valid ends before it. */
export const FACTS_HORIZON_MS = FORECAST_MAX_DAYS * DAY_MS + FACTS_MARGIN_MS;

export interface ForecastFailure {
  /** The smallest end of a forecast that meets it (-Infinity: every forecast). */
  readonly from: number;
  readonly message: string;
}

export interface ShootForecastFacts {
  readonly namespace: string;
  readonly name: string;
  readonly cloudProfile: string;
  /** F0 (epoch ms): the moment they were computed from. */
  readonly computedFrom: number;
  /** The last moment (inclusive) from which they answer a forecast. */
  readonly validUntil: number;
  /** A forecast read from them ends at this moment at the latest. */
  readonly horizon: number;
  /** In the shoot's own order (held rollouts first, then the run's), each with its moment. */
  readonly items: readonly { readonly at: number; readonly item: ForecastItem }[];
  /** In the order a run meets them; a forecast to T reports the first with `from` <= T. */
  readonly failures: readonly ForecastFailure[];
}

/** The facts of `shoot` from `from` on; `profile` undefined when its cloud profile is missing. */
export function shootForecastFacts(
  shoot: Shoot,
  profile: CloudProfile | undefined,
  running: RunningVersions | undefined,
  from: number,
): ShootForecastFacts {
  // The CloudProfile the shoot rests on (a NamespacedCloudProfile's parent), as the fleet list files it.
  const cloudProfile = fleetProfileName(shoot, profile);
  const horizon = from + FACTS_HORIZON_MS;
  const base = {
    namespace: shoot.metadata.namespace ?? "",
    name: shoot.metadata.name,
    cloudProfile,
    computedFrom: from,
    horizon,
  };
  const margin = factsMarginOf(base.namespace, base.name);
  if (!profile) {
    const missing = { from: -Infinity, message: missingProfileMessage(shoot) };
    return { ...base, validUntil: from + margin, items: [], failures: [missing] };
  }
  const steps = stepShoot(shoot, profile, from, horizon);
  const held = heldRolloutItems(shoot, running, cloudProfile, from, horizon).map((item) => ({
    at: Date.parse(item.at),
    item,
  }));
  // As forecastHorizon marks them, so that the stored forecast stays the engine's.
  const items = markWhileHibernated(shoot, [...held, ...steps.items]);
  const failures = steps.failures.map((f) => ({ from: f.from, message: (f.error as Error).message }));
  // The first moment at which the stored run stops being what a later run would do.
  const events = [
    from + margin,
    ...items.map((i) => i.at),
    ...(steps.changedAt !== undefined ? [steps.changedAt] : []),
    ...failures.filter((f) => Number.isFinite(f.from)).map((f) => f.from - 1),
  ];
  return { ...base, validUntil: Math.min(...events), items, failures };
}

/** The smallest end of a forecast that reports a problem for the shoot, if any. */
export function failsFrom(facts: ShootForecastFacts): number | undefined {
  return facts.failures.length === 0 ? undefined : Math.min(...facts.failures.map((f) => f.from));
}

/** Whether `facts` answer a forecast from `from` to `to`. */
export function factsAnswer(
  facts: Pick<ShootForecastFacts, "computedFrom" | "validUntil" | "horizon">,
  from: number,
  to: number,
) {
  return facts.computedFrom <= from && from <= facts.validUntil && to <= facts.horizon;
}

/**
 * The shoot's part of the forecast from `from` to `to`, as forecastHorizon(...).until(to) has it:
 * its items up to `to`, or none and the problem when the run to `to` fails.
 */
export function readForecastFacts(
  facts: ShootForecastFacts,
  from: number,
  to: number,
): { readonly items: readonly ForecastItem[]; readonly problem?: string } {
  if (!factsAnswer(facts, from, to)) throw new RangeError("the facts do not answer this forecast");
  const problem = facts.failures.find((f) => f.from <= to)?.message;
  if (problem !== undefined) return { items: [], problem };
  return { items: facts.items.filter((i) => i.at <= to).map((i) => i.item) };
}
