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
 * The effective lifecycle: the explicit one, or one built from the legacy classification and
 * expirationDate fields.
 */
function effectiveLifecycle(v: ExpirableVersion): LifecycleStage[] {
  if (v.lifecycle && v.lifecycle.length > 0) return v.lifecycle;
  if (v.classification === undefined && v.expirationDate === undefined) return [];
  const stages: LifecycleStage[] = [{ classification: v.classification ?? "supported" }];
  if (v.expirationDate !== undefined) stages.push({ classification: "expired", startTime: v.expirationDate });
  return stages;
}

/**
 * The classification at `now` (epoch ms). Stages apply in list order once their start lies
 * strictly before now, so an expiry exactly at `now` has not happened yet.
 */
export function classificationAt(v: ExpirableVersion, now: number): VersionClassification {
  const stages = effectiveLifecycle(v);
  if (stages.length === 0) return "supported";
  let current: string = "unavailable";
  for (const stage of stages) {
    const start = stage.startTime === undefined ? Number.NEGATIVE_INFINITY : parseTime(stage.startTime);
    if (start < now) current = stage.classification;
  }
  return current as VersionClassification;
}

/** When a version becomes expired according to its lifecycle, if ever. */
export function expiryTime(v: ExpirableVersion): number | undefined {
  const stage = effectiveLifecycle(v).find((s) => s.classification === "expired");
  if (!stage) return undefined;
  return stage.startTime === undefined ? Number.NEGATIVE_INFINITY : parseTime(stage.startTime);
}

/**
 * The moments at which the classification of a version may change: the start times of its
 * lifecycle stages, ascending. Used by the forecast to step through time.
 */
export function classificationChangeTimes(v: ExpirableVersion): number[] {
  return effectiveLifecycle(v)
    .map((s) => (s.startTime === undefined ? Number.NaN : parseTime(s.startTime)))
    .filter((t) => !Number.isNaN(t))
    .sort((a, b) => a - b);
}
