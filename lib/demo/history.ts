// The maintenance history: each shoot's nightly maintenance replayed with the engine from its
// creation until now, so that its versions, status.lastMaintenance and history runs are what
// Gardener's maintenance controller would have produced. A shoot stays on an expired version only
// when something real blocks its maintenance (an admission webhook that rejects the update, or
// the engine finding no version to move to), and then every later night fails with that cause.
//
// Replaying every night of up to 18 months for 100000 shoots would be slow, and it is not needed:
// the cloud profile only changes when a version expires (its classifications are fixed, its
// expiry dates are relative to `now`) or when a version is released (releases.ts: a few hours
// before now; each night is evaluated against the profile as it was then), so a night's outcome
// depends only on the shoot and on the last such change before it. The replay therefore evaluates
// the first window after creation, the first window after each expiry or release, and the nights
// after a change until there is nothing left to do; nights in between would do nothing or repeat
// the same failure, which is written out for the last FAILED_NIGHTS_KEPT days. An automatic
// update released after a shoot's last window is left pending, as in Gardener until that window.
import { expiryTime } from "../engine/classification.ts";
import { admissionMessage, type GardenAdmissionRule } from "../engine/garden-admission.ts";
import { maintain, type MaintenanceOutcome } from "../engine/maintain.ts";
import { maintenanceSecondOfDay, nextAtSecondOfDay } from "../engine/maintenance-moment.ts";
import type { UpdateResult } from "../engine/update-result.ts";
import type { CloudProfile, LastMaintenance, Shoot, ShootSpec } from "../gardener/types.ts";
import { createRng } from "./random.ts";
import { profileAt, releaseInstants, releaseInstantsFor } from "./releases.ts";
import type { ShootDraft } from "./shoots.ts";
import { DAY, HOUR, MINUTE, iso } from "./time.ts";

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
  /** What the run changed. Failed runs changed nothing when rejected as a whole. */
  changes: DemoMaintenanceChange[];
  description: string;
  failureReason?: string;
}

/**
 * How many days of repeated nightly failures the history keeps (successful runs are all kept, and
 * so is the first night of each failure).
 */
export const FAILED_NIGHTS_KEPT = 14;

// What rejects the maintenance update of a blocked shoot (the API server's admission), by purpose:
// a production freeze, or a policy webhook that stopped answering. The landscape stores them as
// the garden's admission rules for exactly the shoots blocked here (landscape.ts), so that the
// simulated garden goes on rejecting what the history shows rejected.
export const WEBHOOK_TIMEOUT: Pick<GardenAdmissionRule, "webhook" | "action"> = {
  webhook: "validate.kyverno.svc-fail",
  action: { type: "Timeout" },
};
export const PRODUCTION_FREEZE: Pick<GardenAdmissionRule, "webhook" | "action"> = {
  webhook: "shoot-policy.platform.example.com",
  action: { type: "Deny", message: "changes to production shoots are frozen until the quarter closes" },
};

export interface ReplayedShoot {
  spec: ShootSpec;
  /** The webhook that rejects the shoot's maintenance (from before now), if any. */
  blockedBy?: Pick<GardenAdmissionRule, "webhook" | "action">;
  lastMaintenance?: LastMaintenance;
  runs: DemoMaintenanceRun[];
}

/** The instants at which the profile changes (a version expires, or one is released), ascending. */
const changesByProfile = new WeakMap<CloudProfile, number[]>();
function changeInstants(profile: CloudProfile, now: number): number[] {
  let instants = changesByProfile.get(profile);
  if (!instants) {
    const all = [
      ...profile.spec.kubernetes.versions,
      ...(profile.spec.machineImages ?? []).flatMap((m) => m.versions),
    ].map(expiryTime);
    all.push(...releaseInstants(profile, now));
    instants = [...new Set(all.filter((t): t is number => t !== undefined && Number.isFinite(t)))].sort(
      (a, b) => a - b,
    );
    changesByProfile.set(profile, instants);
  }
  return instants;
}

/**
 * A moment at which the profile offers the same versions with the same classifications as at `t`:
 * just after the last change before `t` (a version is expired, or released, once that instant
 * lies strictly before the moment), or the first change if none lies before. Maintaining at it
 * gives the same result as at `t`, and the engine prepares the profile once per such moment
 * instead of once per shoot.
 */
function canonicalMoment(instants: readonly number[], t: number): number {
  let last: number | undefined;
  for (const e of instants) {
    if (e < t) last = e;
    else break;
  }
  return last !== undefined ? last + 1 : instants.length > 0 ? instants[0] : t;
}

/** The first expiry at or after `t`: the next moment after which a night may differ from `t`'s. */
function nextExpiry(instants: readonly number[], t: number): number | undefined {
  return instants.find((e) => e >= t);
}

/** When each Kubernetes version ("k8s|1.31.9") and machine image version ("image|name|1.2.3") expires. */
const expiryByVersion = new WeakMap<CloudProfile, Map<string, number>>();
function versionExpiries(profile: CloudProfile): Map<string, number> {
  let byVersion = expiryByVersion.get(profile);
  if (!byVersion) {
    byVersion = new Map();
    for (const v of profile.spec.kubernetes.versions) {
      const t = expiryTime(v);
      if (t !== undefined && Number.isFinite(t)) byVersion.set(`k8s|${v.version}`, t);
    }
    for (const image of profile.spec.machineImages ?? []) {
      for (const v of image.versions) {
        const t = expiryTime(v);
        if (t !== undefined && Number.isFinite(t)) byVersion.set(`image|${image.name}|${v.version}`, t);
      }
    }
    expiryByVersion.set(profile, byVersion);
  }
  return byVersion;
}

/**
 * The expiries of the versions the shoot runs, and the releases of newer ones, ascending. When
 * maintenance has nothing to do for a shoot, only one of these can give it something to do: an
 * expiry elsewhere in the profile only removes candidates, and there was no candidate above its
 * versions, until a release adds one.
 */
function usedChanges(profile: CloudProfile, spec: ShootSpec, now: number): number[] {
  const byVersion = versionExpiries(profile);
  const running = [{ subject: "kubernetes", version: spec.kubernetes.version }];
  const keys = [`k8s|${spec.kubernetes.version}`];
  for (const w of spec.provider?.workers ?? []) {
    if (w.kubernetes?.version) {
      keys.push(`k8s|${w.kubernetes.version}`);
      running.push({ subject: "kubernetes", version: w.kubernetes.version });
    }
    if (w.machine.image?.version) {
      keys.push(`image|${w.machine.image.name}|${w.machine.image.version}`);
      running.push({ subject: w.machine.image.name, version: w.machine.image.version });
    }
  }
  return [
    ...keys.map((k) => byVersion.get(k)).filter((t): t is number => t !== undefined),
    ...releaseInstantsFor(profile, now, running),
  ].sort((a, b) => a - b);
}

/** What the run changed, in the history's terms (the engine's results, the successful ones). */
function demoChanges(outcome: MaintenanceOutcome): DemoMaintenanceChange[] {
  const changes: DemoMaintenanceChange[] = [];
  const add = (target: string, kind: DemoMaintenanceChange["kind"], r: UpdateResult | undefined) => {
    if (r?.isSuccessful && r.from !== undefined && r.to !== undefined && r.from !== r.to)
      changes.push({ target, kind, from: r.from, to: r.to, reason: r.reason });
  };
  add("controlPlane", "kubernetes", outcome.controlPlane);
  for (const w of outcome.workerKubernetes) add(w.worker, "kubernetes", w.result);
  for (const w of outcome.workerImages) add(w.worker, "machineImage", w.result);
  return changes;
}

/**
 * Replays the shoot's maintenance from its creation until `now`. `blockedSince` (epoch ms) is
 * when an admission webhook started rejecting its maintenance updates, if ever.
 */
function replay(
  draft: ShootDraft,
  now: number,
  blockedSince: number | undefined,
  rejection: string,
  byHand: (at: number) => number | undefined,
  duration: () => number,
): ReplayedShoot {
  const { shoot: original, catalogue } = draft;
  const profile = catalogue.profile;
  const instants = changeInstants(profile, now);
  // Only what maintenance reads: the spec, and the uid for the moment in the window.
  let state: Shoot = {
    apiVersion: original.apiVersion,
    kind: original.kind,
    metadata: {
      name: original.metadata.name,
      namespace: original.metadata.namespace,
      uid: original.metadata.uid,
      creationTimestamp: original.metadata.creationTimestamp,
    },
    spec: original.spec,
  };
  const runs: DemoMaintenanceRun[] = [];
  const horizon = now - FAILED_NIGHTS_KEPT * DAY;
  const secondOfDay = maintenanceSecondOfDay(original);
  const nextWindow = (from: number) => nextAtSecondOfDay(secondOfDay, from);
  const afterNextExpiry = (from: number, settled = false) => {
    const e = nextExpiry(settled ? usedChanges(profile, state.spec, now) : instants, from);
    return e === undefined ? Number.POSITIVE_INFINITY : nextWindow(e + 1);
  };
  // `first`: the first night of a failure (after a change or an expiry), kept however old, so the
  // history shows when the forced update first failed, not only its recent repetitions.
  const record = (
    at: number,
    trigger: DemoMaintenanceRun["trigger"],
    outcome: MaintenanceOutcome,
    changes: DemoMaintenanceChange[],
    first = false,
  ) => {
    const last = outcome.shoot.status!.lastMaintenance!;
    const failed = outcome.rejected || last.state === "Failed";
    if (failed && at < horizon && !first) return;
    runs.push({
      namespace: state.metadata.namespace!,
      name: state.metadata.name,
      trigger,
      state: failed ? "Failed" : "Succeeded",
      startedAt: at,
      finishedAt: at + Math.min(duration(), Math.floor((now - at) / 2)),
      changes: outcome.rejected ? [] : changes,
      description: last.description,
      ...(failed && last.failureReason ? { failureReason: last.failureReason } : {}),
    });
  };
  const withTriggered = (outcome: MaintenanceOutcome, at: number): Shoot => ({
    ...outcome.shoot,
    metadata: state.metadata,
    status: { lastMaintenance: { ...outcome.shoot.status!.lastMaintenance!, triggeredTime: iso(at) } },
  });

  let lastRun = draft.createdAt;
  let at = nextWindow(draft.createdAt + 1);
  while (at < now) {
    const blocked = blockedSince !== undefined && at >= blockedSince;
    const moment = canonicalMoment(instants, at);
    const outcome = maintain(
      state,
      profileAt(profile, now, moment),
      moment,
      blocked ? { dryRun: () => rejection } : {},
    );
    if (!outcome.requirePatch) {
      // Nothing to do (Gardener then only clears an old failure): the same until the next expiry
      // of a version it runs, or a release of a newer one.
      const last = outcome.shoot.status?.lastMaintenance;
      if (last) state = { ...state, status: { lastMaintenance: last } };
      at = afterNextExpiry(at, true);
      continue;
    }
    const changes = outcome.rejected ? [] : demoChanges(outcome);
    // Version clean-ups (operations) only happen with a version change.
    const specChanged = !outcome.rejected && (changes.length > 0 || outcome.operations.length > 0);
    const failed = outcome.rejected || outcome.shoot.status?.lastMaintenance?.state === "Failed";
    // Now and then someone asked for the maintenance by hand before the window; it does the same.
    const earlier = !failed && specChanged ? byHand(at) : undefined;
    if (
      earlier !== undefined &&
      earlier > lastRun &&
      canonicalMoment(instants, earlier) === canonicalMoment(instants, at)
    ) {
      lastRun = earlier;
      record(earlier, "maintain-now", outcome, changes);
      state = withTriggered(outcome, earlier);
      at = nextWindow(earlier + 1);
      continue;
    }
    lastRun = at;
    record(at, "window", outcome, changes, true);
    state = withTriggered(outcome, at);
    if (specChanged) {
      at = nextWindow(at + 1);
      continue;
    }
    // A failure that changed nothing fails again every night with the same cause, until an
    // expiry changes what maintenance would do.
    const until = Math.min(afterNextExpiry(at), now);
    for (let night = nextWindow(Math.max(at + 1, horizon)); night < until; night = nextWindow(night + 1)) {
      record(night, "window", outcome, changes);
      state = withTriggered(outcome, night);
    }
    if (until > at) {
      // Nights before the horizon were not written, but the last one is the shoot's record.
      const lastNight = nextWindow(until - DAY);
      if (lastNight < until && lastNight > at) state = withTriggered(outcome, lastNight);
    }
    at = afterNextExpiry(at);
  }
  return {
    spec: state.spec,
    ...(state.status?.lastMaintenance ? { lastMaintenance: state.status.lastMaintenance } : {}),
    runs,
  };
}

/**
 * The shoot's maintenance from its creation until now. A shoot drawn on a version that has
 * expired by now is one whose maintenance a webhook blocks: from before that version expired (or
 * from its creation when it updates Kubernetes automatically, which would have moved it the first
 * night), every maintenance that has something to do is rejected.
 */
export function buildHistory(draft: ShootDraft, now: number, seed: number, index: number): ReplayedShoot {
  const { shoot, catalogue, createdAt } = draft;
  const rng = createRng(seed, 0x4d41, index);
  const cpEntry = catalogue.kubernetes.find((v) => v.entry.version === shoot.spec.kubernetes.version)!;
  let blockedSince: number | undefined;
  if (cpEntry.bucket === "expired") {
    const autoKubernetes = shoot.spec.maintenance?.autoUpdate?.kubernetesVersion === true;
    const expires = expiryTime(cpEntry.entry)!;
    blockedSince = autoKubernetes ? createdAt : Math.max(createdAt, expires - rng.int(5, 60) * DAY);
  }
  const webhook = shoot.spec.purpose === "production" ? PRODUCTION_FREEZE : WEBHOOK_TIMEOUT;
  const rejection = admissionMessage(webhook);
  // Every eighth shoot's first change, and a few others, were asked for by hand during the day.
  let firstChange = true;
  const byHand = (at: number): number | undefined => {
    const wanted = (firstChange && index % 8 === 5) || rng.chance(0.05);
    firstChange = false;
    return wanted ? at - rng.int(3, 12) * HOUR - rng.int(0, 59) * MINUTE : undefined;
  };
  const replayed = replay(draft, now, blockedSince, rejection, byHand, () => rng.int(2, 25) * MINUTE);
  return blockedSince !== undefined && blockedSince < now ? { ...replayed, blockedBy: webhook } : replayed;
}
