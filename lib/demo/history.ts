// The maintenance history: past runs that lead to each shoot's current versions, so that the
// history panel explains how a shoot got where it is, and the failed runs explain why some
// shoots are still on expired versions.
import { classificationAt } from "../engine/classification.ts";
import { parseBound, parseTimeWindow, windowDurationSeconds } from "../engine/time-window.ts";
import type { ExpirableVersion, Shoot, Worker } from "../gardener/types.ts";
import { predecessor } from "./catalogue.ts";
import { createRng, type Rng } from "./random.ts";
import type { ShootDraft } from "./shoots.ts";
import { DAY, HOUR, MINUTE } from "./time.ts";

export interface DemoMaintenanceChange {
  /** "controlPlane", or the worker pool's name. */
  target: string;
  kind: "kubernetes" | "machineImage";
  from: string;
  to: string;
  reason: string;
}

export interface DemoMaintenanceRun {
  namespace: string;
  name: string;
  trigger: "window" | "maintain-now";
  state: "Succeeded" | "Failed";
  /** epoch ms */
  startedAt: number;
  finishedAt: number;
  /** What the run changed. Failed runs were rejected as a whole and changed nothing. */
  changes: DemoMaintenanceChange[];
  description: string;
  failureReason?: string;
}

// Why the API server rejected a maintenance update (the controller's dry run), by purpose.
const MAINTENANCE_REJECTIONS = [
  'Internal error occurred: failed calling webhook "validate.kyverno.svc-fail": failed to call webhook: context deadline exceeded',
  'Operation cannot be fulfilled on shoots.core.gardener.cloud "{name}": the object has been modified; please apply your changes to the latest version and try again',
];
const PRODUCTION_REJECTION =
  'admission webhook "shoot-policy.platform.example.com" denied the request: changes to production shoots are frozen until the quarter closes';

const K8S_AUTO = "Automatic update of Kubernetes version configured";
const K8S_EXPIRED = "Kubernetes version expired - force update required";
const imageReason = (expired: boolean, strategy: string) =>
  expired
    ? `Machine image version expired - force update required (image update strategy: ${strategy})`
    : `Automatic update of the machine image version is configured (image update strategy: ${strategy})`;

/** Whether a maintenance run at `at` could have moved to `version`: it must have been offered and not in preview. */
function couldUpdateTo(entry: ExpirableVersion, at: number): boolean {
  const c = classificationAt(entry, at);
  return c === "supported" || c === "deprecated";
}

function describeChange(change: DemoMaintenanceChange, worker?: Worker): string {
  if (change.kind === "kubernetes") {
    return `Control Plane: Updated Kubernetes version from "${change.from}" to "${change.to}". Reason: ${change.reason}`;
  }
  return `Worker pool "${change.target}": Updated machine image "${worker?.machine.image?.name}" from "${change.from}" to "${change.to}". Reason: ${change.reason}`;
}

/**
 * Run start times, newest first, on distinct days of the last 30: in the shoot's window, or at
 * office hours that day when someone asked for "maintain now" (always so for the newest run if
 * `newestByHand`, so that even a small landscape shows both triggers). The newest run is one of
 * the latest `newestWithin` windows.
 */
function runTimes(
  shoot: Shoot,
  count: number,
  newestWithin: number,
  newestByHand: boolean,
  now: number,
  rng: Rng,
): { at: number; trigger: DemoMaintenanceRun["trigger"] }[] {
  const tw = shoot.spec.maintenance!.timeWindow!;
  const begin = parseBound(tw.begin) * 1000;
  const spreadMinutes = Math.max(0, windowDurationSeconds(parseTimeWindow(tw.begin, tw.end)) / 60 - 30);
  // Past window openings, newest first, leaving two hours for the latest run to finish.
  const openings: number[] = [];
  for (let d = 0; d <= 31; d++) {
    const at = Math.floor((now - d * DAY) / DAY) * DAY + begin;
    if (at <= now - 3 * HOUR && at >= now - 30 * DAY) openings.push(at);
  }
  const picked = new Set<number>([rng.int(0, Math.min(newestWithin, openings.length) - 1)]);
  while (picked.size < Math.min(count, openings.length)) picked.add(rng.int(0, openings.length - 1));
  return [...picked]
    .sort((a, b) => a - b)
    .map((k, i) => {
      const opening = openings[k];
      if ((i === 0 && newestByHand) || rng.chance(0.05)) {
        const midnight = Math.floor(opening / DAY) * DAY;
        return {
          at: Math.min(midnight + rng.int(7 * 60, 19 * 60) * MINUTE, now - 2 * HOUR),
          trigger: "maintain-now" as const,
        };
      }
      return { at: opening + rng.int(0, spreadMinutes) * MINUTE, trigger: "window" as const };
    })
    .sort((a, b) => b.at - a.at);
}

export function buildHistory(
  draft: ShootDraft,
  historyIndex: number,
  now: number,
  seed: number,
  index: number,
): DemoMaintenanceRun[] {
  const { shoot, catalogue } = draft;
  const rng = createRng(seed, 0x4d41, index);
  const cpEntry = catalogue.kubernetes.find((v) => v.entry.version === shoot.spec.kubernetes.version)!;
  const cpExpired = cpEntry.bucket === "expired";
  // A shoot still on an expired version was not force-updated: its latest run must have failed.
  const newestFailed = cpExpired || historyIndex % 10 === 3;
  const times = runTimes(shoot, rng.int(1, 4), newestFailed ? 2 : 10, historyIndex % 8 === 5, now, rng);
  const auto = shoot.spec.maintenance?.autoUpdate ?? {};
  const workers = shoot.spec.provider?.workers ?? [];

  // Walk back in time from the current versions: each successful run moved something from
  // its predecessor to what the shoot has now (or had at the next run).
  let controlPlane = shoot.spec.kubernetes.version;
  const images = new Map(workers.map((w) => [w.name, w.machine.image!.version!]));
  const runs: DemoMaintenanceRun[] = [];
  times.forEach(({ at, trigger }, i) => {
    const finishedAt = at + rng.int(2, 25) * MINUTE;
    const base = {
      namespace: shoot.metadata.namespace!,
      name: shoot.metadata.name,
      trigger,
      startedAt: at,
      finishedAt,
    };
    if ((i === 0 && newestFailed) || (i > 0 && rng.chance(0.05))) {
      const rejections =
        shoot.spec.purpose === "production"
          ? [...MAINTENANCE_REJECTIONS, PRODUCTION_REJECTION]
          : MAINTENANCE_REJECTIONS;
      const rejection = rng.pick(rejections).replace("{name}", shoot.metadata.name);
      runs.push({
        ...base,
        state: "Failed",
        changes: [],
        description: "Maintenance failed",
        failureReason: `Updates to the Shoot failed to be applied: ${rejection}`,
      });
      return;
    }
    const changes: DemoMaintenanceChange[] = [];
    const previous = predecessor(catalogue.kubernetes, controlPlane, "patch");
    const current = catalogue.kubernetes.find((v) => v.entry.version === controlPlane)!;
    if (previous && couldUpdateTo(current.entry, at) && rng.chance(0.6)) {
      const forced = classificationAt(previous.entry, at) === "expired";
      if (forced || auto.kubernetesVersion) {
        changes.push({
          target: "controlPlane",
          kind: "kubernetes",
          from: previous.entry.version,
          to: controlPlane,
          reason: forced ? K8S_EXPIRED : K8S_AUTO,
        });
        controlPlane = previous.entry.version;
      }
    }
    for (const worker of workers) {
      const image = catalogue.images.get(worker.machine.image!.name)!;
      const version = images.get(worker.name)!;
      const scope = image.strategy as "patch" | "minor" | "major";
      const arch = worker.machine.architecture ?? "amd64";
      const previousImage = predecessor(
        image.versions.filter((v) => (v.entry.architectures ?? []).includes(arch)),
        version,
        scope,
      );
      const currentImage = image.versions.find((v) => v.entry.version === version)!;
      if (!previousImage || !couldUpdateTo(currentImage.entry, at) || !rng.chance(0.5)) continue;
      const forced = classificationAt(previousImage.entry, at) === "expired";
      if (!forced && !auto.machineImageVersion) continue;
      changes.push({
        target: worker.name,
        kind: "machineImage",
        from: previousImage.entry.version,
        to: version,
        reason: imageReason(forced, image.strategy),
      });
      images.set(worker.name, previousImage.entry.version);
    }
    // Gardener records nothing for a run that had nothing to do.
    if (changes.length === 0) return;
    const byName = new Map(workers.map((w) => [w.name, w]));
    const description = `All maintenance operations successful. ${changes.map((c) => describeChange(c, byName.get(c.target))).join(", ")}`;
    runs.push({ ...base, state: "Succeeded", changes, description });
  });
  return runs.reverse();
}
