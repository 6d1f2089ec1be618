// The forecast: every forced update the maintenance controller will make between two dates.
// Each shoot is stepped from window to window, but only at the windows where something can
// change: the first one, the first after each classification change in its cloud profile, and
// the one after every window that changed the shoot (chains: one minor per window).
import type { CloudProfile, Shoot } from "../gardener/types.ts";
import { missingProfileMessage, parentProfileName, profileKeyOf } from "../gardener/profile-reference.ts";
import { markWhileHibernated } from "./forecast-hibernation.ts";
import { classificationChangeTimes } from "./classification.ts";
import { REASON_VERSION_MISSING } from "./kubernetes-maintenance.ts";
import { maintain } from "./maintain.ts";
import { nextMaintenanceMoment } from "./maintenance-moment.ts";
import { heldRolloutItems } from "./held-rollout-forecast.ts";
import type { RunningVersions } from "./running-versions.ts";
import { formatTime } from "./time-format.ts";
import type { UpdateResult } from "./update-result.ts";
import { riskBrief, updateRisk, type UpdateRiskBrief } from "./update-risk.ts";
import { tryParseVersion } from "./version.ts";

export interface ForecastItem {
  readonly namespace: string;
  readonly name: string;
  readonly cloudProfile: string;
  /** "controlPlane" or the worker pool's name. */
  readonly target: "controlPlane" | "worker";
  readonly worker?: string;
  readonly kind: "kubernetes" | "machineImage";
  /** The moment maintenance runs (inside the effective window). */
  readonly at: string;
  readonly window: { readonly begin: string; readonly end: string };
  readonly from: string;
  /**
   * Absent when no version can be found: the cluster is stuck. Present on a stuck item when the
   * API server refuses the update to it (a machine image version not yet available).
   */
  readonly to?: string;
  /** Why the update is forced: the version expired, or it is missing from the profile. */
  readonly reason: string;
  readonly stuck: boolean;
  /** For a stuck cluster, the controller's failure text. */
  readonly error?: string;
  /**
   * Not forced: the spec asks for `to`, the cluster runs `from`, and confineSpecUpdateRollout
   * holds the rollout for this window (held-rollout-forecast.ts).
   */
  readonly held?: true;
  /**
   * The shoot's hibernation schedules keep it hibernated at `at` (forecast-hibernation.ts): the
   * spec is updated then all the same, and the nodes roll when it wakes.
   */
  readonly whileHibernated?: true;
  readonly message: string;
  /** Set when the shoot's record speaks against the update (update-risk.ts): why, in words. */
  readonly risk?: ForecastRisk;
}

/** The at-risk state of a forecast update, as the forecast carries it. */
export type ForecastRisk = UpdateRiskBrief;

export interface Forecast {
  readonly from: string;
  readonly to: string;
  readonly items: readonly ForecastItem[];
  /** Shoots that could not be forecast (missing cloud profile, unparsable version). */
  readonly problems: readonly { namespace: string; name: string; problem: string }[];
}

/**
 * Whether an update reason is a forced one: the version expired, or it is missing from the cloud
 * profile (forced even with auto-update off). Every "Forced" vs "Automatic" label uses this.
 */
export function isForcedReason(reason: string): boolean {
  return reason === REASON_VERSION_MISSING || reason.includes("expired - force update required");
}

function isForced(result: UpdateResult): boolean {
  return isForcedReason(result.reason);
}

/** A moment with the same classifications as `m` that is shared by many shoots (for caching). */
function classificationMoment(changeTimes: readonly number[], m: number): number {
  let k = 0;
  while (k < changeTimes.length && changeTimes[k] < m) k++;
  if (k === 0) return changeTimes.length > 0 ? Math.min(m, changeTimes[0]) : m;
  return changeTimes[k - 1] + 1;
}

function describe(item: Omit<ForecastItem, "message">): string {
  const who = item.target === "controlPlane" ? "Control plane" : `Worker pool "${item.worker}"`;
  const what = item.kind === "kubernetes" ? "Kubernetes" : "machine image";
  const when = `the window of ${item.window.begin.slice(0, 16).replace("T", " ")} UTC`;
  if (item.stuck && item.to !== undefined) {
    return `${who} cannot move from ${what} ${item.from} to ${item.to} in ${when} (${item.reason}): the API server refuses the update, so the maintenance fails and the cluster will be stuck.`;
  }
  if (item.stuck) {
    const cur = tryParseVersion(item.from);
    const needed = item.kind === "kubernetes" && cur ? `${cur.major}.${cur.minor + 1} version` : "suitable version";
    return `${who} cannot leave ${what} ${item.from} in ${when}: it must be updated (${item.reason}) but the cloud profile offers no ${needed}, so the cluster will be stuck.`;
  }
  return `${who} moves from ${what} ${item.from} to ${item.to} in ${when} (${item.reason}).`;
}

/**
 * One shoot's forecast up to `to`, in a form any earlier horizon can be read from: the items with
 * their moments, and the failures with the smallest horizon at which a run meets each. A run
 * only ever looks at windows in time order, so up to any `to` it does exactly what a run up to
 * that `to` would.
 */
export interface ShootSteps {
  readonly items: readonly { readonly at: number; readonly item: ForecastItem }[];
  /** In the order a run meets them; a run up to `to` throws the first whose `from` <= `to`. */
  readonly failures: readonly { readonly from: number; readonly error: unknown }[];
  /** The first window whose maintenance changed the spec (from there on the state differs). */
  readonly changedAt?: number;
}

export function stepShoot(shoot: Shoot, profile: CloudProfile, from: number, to: number): ShootSteps {
  const items: { at: number; item: ForecastItem }[] = [];
  const failures: { from: number; error: unknown }[] = [];
  let changedAt: number | undefined;
  // The controller skips shoots marked for deletion (Gardener:
  // pkg/controllermanager/controller/shoot/maintenance/reconciler.go, Reconcile).
  if (shoot.metadata.deletionTimestamp) return { items, failures };
  const changeTimes = [...new Set(profileChangeTimes(profile))].sort((a, b) => a - b);
  // What the shoot's record says of every update it is promised (its status, not the runs).
  const risk = updateRisk(shoot);
  const atRisk: ForecastRisk | undefined = risk && riskBrief(risk);
  let state = shoot;
  const seenStuck = new Set<string>();
  const moments = new Set<number>();
  const queue: { at: number; begin: number; end: number }[] = [];
  const schedule = (t: number) => {
    const next = nextMaintenanceMoment(state, t);
    if (next.at > to || moments.has(next.at)) return;
    moments.add(next.at);
    queue.push(next);
    queue.sort((a, b) => a.at - b.at);
  };
  try {
    schedule(from);
  } catch (error) {
    return { items, failures: [{ from: -Infinity, error }] };
  }
  for (const c of changeTimes) {
    if (c < from || c >= to) continue;
    try {
      schedule(c + 1);
    } catch (error) {
      // A run up to `to` makes this call when c < to; change times and horizons are whole
      // milliseconds, so from c + 1 on. Runs to an earlier horizon go on without it.
      failures.push({ from: c + 1, error });
    }
  }

  while (queue.length > 0) {
    const occurrence = queue.shift()!;
    const at = occurrence.at;
    try {
      const outcome = maintain(state, profile, classificationMoment(changeTimes, at));
      const base = {
        namespace: shoot.metadata.namespace ?? "",
        name: shoot.metadata.name,
        // The CloudProfile it rests on: the forecast narrows by it as the fleet list does.
        cloudProfile: parentProfileName(profile),
        at: formatTime(at),
        window: { begin: formatTime(occurrence.begin), end: formatTime(occurrence.end) },
      };
      const add = (
        target: "controlPlane" | "worker",
        kind: "kubernetes" | "machineImage",
        result: UpdateResult,
        worker?: string,
      ) => {
        if (!isForced(result)) return;
        // A refused update (the API server's admission) leaves the spec as it was: stuck as well.
        const refusal = outcome.rejected ? outcome.shoot.status?.lastMaintenance?.failureReason : undefined;
        const stuck = !result.isSuccessful || outcome.rejected;
        const key = `${target}|${worker}|${kind}|${result.from}`;
        if (stuck && seenStuck.has(key)) return;
        if (stuck) seenStuck.add(key);
        const item = {
          ...base,
          target,
          ...(worker !== undefined ? { worker } : {}),
          kind,
          from: result.from ?? "",
          ...(result.to !== undefined ? { to: result.to } : {}),
          reason: result.reason,
          stuck,
          ...(stuck ? { error: result.isSuccessful ? (refusal ?? "") : result.description } : {}),
        };
        items.push({ at, item: { ...item, message: describe(item), ...(atRisk ? { risk: atRisk } : {}) } });
      };
      if (outcome.controlPlane) add("controlPlane", "kubernetes", outcome.controlPlane);
      for (const w of outcome.workerKubernetes) add("worker", "kubernetes", w.result, w.worker);
      for (const w of outcome.workerImages) add("worker", "machineImage", w.result, w.worker);
      const changed = JSON.stringify(outcome.shoot.spec) !== JSON.stringify(state.spec);
      state = { ...state, spec: outcome.shoot.spec };
      if (changed) changedAt ??= at;
      if (changed) schedule(at + 1000);
    } catch (error) {
      // Runs to a horizon before `at` never get here; the state after a failure is unknown.
      failures.push({ from: at, error });
      break;
    }
  }
  return { items, failures, ...(changedAt !== undefined ? { changedAt } : {}) };
}

// Exported for its unit tests, which follow one shoot's chain of forced updates.
export function forecastShoot(shoot: Shoot, profile: CloudProfile, from: number, to: number): ForecastItem[] {
  const steps = stepShoot(shoot, profile, from, to);
  if (steps.failures.length > 0) throw steps.failures[0].error;
  return steps.items.map((i) => i.item);
}

function profileChangeTimes(profile: CloudProfile): number[] {
  const versions = [
    ...(profile.spec.kubernetes?.versions ?? []),
    ...(profile.spec.machineImages ?? []).flatMap((m) => m.versions ?? []),
  ];
  return versions.flatMap(classificationChangeTimes).filter((t) => Number.isFinite(t));
}

/** The forecast from one moment up to a horizon, from which any earlier horizon's is read. */
export interface ForecastHorizon {
  /** epoch ms */
  readonly from: number;
  readonly to: number;
  /** The forecast from `from` to `to` (epoch ms, at most the horizon's), as `forecast` makes it. */
  until(to: number): Forecast;
}

const byTime = (a: { item: ForecastItem }, b: { item: ForecastItem }) =>
  a.item.at < b.item.at ? -1 : a.item.at > b.item.at ? 1 : 0;

/**
 * Every shoot stepped once up to `horizon` (epoch ms). `running` gives what a shoot runs (its
 * recorded versions), so that a rollout held for its next window is forecast too.
 */
export function forecastHorizon(
  shoots: readonly Shoot[],
  profiles: ReadonlyMap<string, CloudProfile>,
  from: number,
  horizon: number,
  running: (shoot: Shoot) => RunningVersions | undefined = () => undefined,
): ForecastHorizon {
  const perShoot = shoots.map((shoot) => {
    const profile = profiles.get(profileKeyOf(shoot));
    const who = { namespace: shoot.metadata.namespace ?? "", name: shoot.metadata.name };
    if (!profile) return { who, missing: missingProfileMessage(shoot), failures: [] };
    const steps = stepShoot(shoot, profile, from, horizon);
    const held = heldRolloutItems(shoot, running(shoot), parentProfileName(profile), from, horizon).map((item) => ({
      at: Date.parse(item.at),
      item,
    }));
    const items = markWhileHibernated(shoot, [...held, ...steps.items]);
    return { who, missing: undefined, failures: steps.failures, items };
  });
  // Sorted once, stably and by the text of the moment as before (whole seconds: items of the same
  // second keep the shoots' order); a shorter horizon keeps a prefix of each shoot's items.
  const timeline = perShoot.flatMap((s, index) => (s.items ?? []).map((i) => ({ ...i, index }))).sort(byTime);
  return {
    from,
    to: horizon,
    until(to) {
      if (to > horizon) throw new RangeError("until() beyond the forecast's horizon");
      const problems: { namespace: string; name: string; problem: string }[] = [];
      const failed = perShoot.map((s) => {
        const problem = s.missing ?? failureAt(s.failures, to);
        if (problem !== undefined) problems.push({ ...s.who, problem });
        return problem !== undefined;
      });
      const items = timeline.filter((i) => i.at <= to && !failed[i.index]).map((i) => i.item);
      return { from: formatTime(from), to: formatTime(to), items, problems };
    },
  };
}

function failureAt(failures: readonly { from: number; error: unknown }[], to: number): string | undefined {
  const failure = failures.find((f) => f.from <= to);
  return failure === undefined ? undefined : (failure.error as Error).message;
}

/** Forced updates of all shoots between `from` and `to` (epoch ms), ordered by time. */
export function forecast(
  shoots: readonly Shoot[],
  profiles: ReadonlyMap<string, CloudProfile>,
  from: number,
  to: number,
): Forecast {
  return forecastHorizon(shoots, profiles, from, to).until(to);
}
