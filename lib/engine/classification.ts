// The classification of a version at a given moment (Gardener:
// pkg/api/core/v1beta1/helper/cloudprofile.go, CurrentLifecycleClassification and
// ToLifecycleStages).
import type { ExpirableVersion, LifecycleStage, VersionClassification } from "../gardener/types.ts";

/** Parses an RFC 3339 timestamp to epoch milliseconds; NaN when it is not one. */
export function parseTime(text: string | undefined): number {
  if (text === undefined || text === "") return Number.NaN;
  return Date.parse(text);
}

/**
 * When a stage starts (epoch ms). A stage without a start (absent, null, or empty as an empty
 * `startTime:` reads from YAML) has always started, as Gardener reads a nil start as the zero time;
 * NaN only for text that is not a timestamp.
 */
export function stageStart(stage: LifecycleStage): number {
  const start: unknown = stage.startTime;
  if (start === undefined || start === null || start === "") return Number.NEGATIVE_INFINITY;
  return parseTime(String(start));
}

/**
 * The effective lifecycle: the explicit one, or one built from the legacy classification and
 * expirationDate fields.
 */
function effectiveLifecycle(v: ExpirableVersion): LifecycleStage[] {
  if (v.lifecycle && v.lifecycle.length > 0) return v.lifecycle;
  // A null legacy field (as JSON or an empty YAML key gives it) is an absent one, as for Gardener's pointers.
  const classification = v.classification ?? undefined;
  const expirationDate = v.expirationDate === null || v.expirationDate === "" ? undefined : v.expirationDate;
  if (classification === undefined && expirationDate === undefined) return [];
  const stages: LifecycleStage[] = [{ classification: classification ?? "supported" }];
  if (expirationDate !== undefined) stages.push({ classification: "expired", startTime: expirationDate });
  return stages;
}

/**
 * The classification at `now` (epoch ms). Stages apply in list order once their start lies
 * strictly before now, so an expiry exactly at `now` has not happened yet, and of stages with
 * equal starts the later one wins; with every start still ahead the version is `unavailable`.
 * A non-empty lifecycle wins over the legacy fields.
 */
export function classificationAt(v: ExpirableVersion, now: number): VersionClassification {
  const stages = effectiveLifecycle(v);
  if (stages.length === 0) return "supported";
  let current: string = "unavailable";
  for (const stage of stages) {
    if (stageStart(stage) < now) current = stage.classification;
  }
  return current as VersionClassification;
}

/** When a version becomes expired according to its lifecycle, if ever. */
export function expiryTime(v: ExpirableVersion): number | undefined {
  const stage = effectiveLifecycle(v).find((s) => s.classification === "expired");
  if (!stage) return undefined;
  return stageStart(stage);
}

/**
 * The moments at which the classification of a version may change: the start times of its
 * lifecycle stages, ascending. Used by the forecast to step through time.
 */
export function classificationChangeTimes(v: ExpirableVersion): number[] {
  return effectiveLifecycle(v)
    .map(stageStart)
    .filter((t) => Number.isFinite(t))
    .sort((a, b) => a - b);
}
