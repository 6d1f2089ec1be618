// Validation of a shoot and of a user's change to it: the maintenance window, and manual
// version changes (no downgrade, no skipped Kubernetes minor, no expired or unknown version), and
// a worker pool's change to another machine image of the profile (one that can run the pool).
import { validateTolerations } from "./toleration-validation.ts";
import type { CloudProfile, Shoot } from "../gardener/types.ts";
import { classificationAt, expiryTime } from "./classification.ts";
import { canonicalJson } from "./canonical-json.ts";
import type { FieldError } from "./field-error.ts";
import { validateHibernationSchedules } from "./hibernation-schedule.ts";
import { IN_PLACE_STRATEGIES, imageVersionUnfitReason } from "./machine-image-maintenance.ts";
import { prepareProfile } from "./prepared-profile.ts";
import { validateTimeWindow } from "./time-window.ts";
import { formatTime } from "./time-format.ts";
import { compareVersions, tryParseVersion } from "./version.ts";

/**
 * Checks a shoot on its own: required fields, the maintenance window and the tolerations. With
 * `previous` (a user's change), tolerations the shoot already had are not re-judged
 * (validateTolerations).
 */
export function validateShoot(shoot: Shoot, previous?: Shoot): FieldError[] {
  const errors: FieldError[] = [];
  if (!shoot.metadata?.name)
    errors.push({ type: "Required", field: "metadata.name", detail: "name or generateName is required" });
  if (!shoot.spec?.kubernetes?.version) {
    errors.push({ type: "Required", field: "spec.kubernetes.version", detail: "kubernetes version must not be empty" });
  }
  const tw = shoot.spec?.maintenance?.timeWindow;
  if (tw) errors.push(...validateTimeWindow(tw));
  const admitted = previous && (previous.spec?.tolerations ?? []);
  errors.push(...validateTolerations(shoot.spec?.tolerations ?? [], "spec.tolerations", admitted));
  // Gardener validates the schedules on every write; Almanac only when they are new or changed, so
  // that a live shoot whose schedules Almanac reads more strictly (robfig's @every) stays editable.
  const schedules = shoot.spec?.hibernation?.schedules;
  if (!previous || canonicalJson(schedules) !== canonicalJson(previous.spec?.hibernation?.schedules))
    errors.push(...validateHibernationSchedules(schedules));
  return errors;
}

function checkKubernetesTarget(
  profile: CloudProfile,
  now: number,
  field: string,
  from: string | undefined,
  to: string,
): FieldError[] {
  const prepared = prepareProfile(profile, now);
  const target = tryParseVersion(to);
  if (!target) return [{ type: "Invalid", field, value: to, detail: "must be a semantic version like 1.31.4" }];
  let entry;
  try {
    entry = prepared.kubernetesVersion(to);
  } catch {
    entry = undefined;
  }
  if (!entry) {
    return [
      {
        type: "NotSupported",
        field,
        value: to,
        detail: `version "${to}" is not offered by cloud profile "${profile.metadata.name}"`,
      },
    ];
  }
  if (entry.classification === "expired") {
    const at = expiryTime(entry.source);
    const since = at !== undefined && Number.isFinite(at) ? ` since ${formatTime(at)}` : "";
    return [
      { type: "Forbidden", field, value: to, detail: `version "${to}" is expired${since}; choose a supported version` },
    ];
  }
  const current = from === undefined ? undefined : tryParseVersion(from);
  if (!current) return [];
  if (compareVersions(target, current) < 0) {
    return [
      {
        type: "Forbidden",
        field,
        value: to,
        detail: `kubernetes version downgrade is not supported (from "${from}" to "${to}")`,
      },
    ];
  }
  if (target.major !== current.major || target.minor > current.minor + 1) {
    return [
      {
        type: "Forbidden",
        field,
        value: to,
        detail: `kubernetes version upgrade cannot skip a minor version (from "${from}" to "${to}"; update to ${current.major}.${current.minor + 1} first)`,
      },
    ];
  }
  return [];
}

/**
 * Validates `next` as an update of `previous` made by a user: the window, and every version that
 * changed. Unchanged versions are never flagged (a cluster may run an expired version until its
 * maintenance moves it).
 */
export function validateShootChange(previous: Shoot, next: Shoot, profile: CloudProfile, now: number): FieldError[] {
  const errors = validateShoot(next, previous);
  const fromVersion = previous.spec.kubernetes.version;
  const toVersion = next.spec.kubernetes.version;
  if (toVersion && toVersion !== fromVersion) {
    errors.push(...checkKubernetesTarget(profile, now, "spec.kubernetes.version", fromVersion, toVersion));
  }
  const previousWorkers = new Map((previous.spec.provider?.workers ?? []).map((w) => [w.name, w]));
  const controlPlane = tryParseVersion(toVersion);
  (next.spec.provider?.workers ?? []).forEach((worker, i) => {
    const path = `spec.provider.workers[${i}]`;
    const before = previousWorkers.get(worker.name);
    const poolVersion = worker.kubernetes?.version;
    if (poolVersion !== undefined && poolVersion !== before?.kubernetes?.version) {
      const poolErrors = checkKubernetesTarget(
        profile,
        now,
        `${path}.kubernetes.version`,
        before?.kubernetes?.version ?? fromVersion,
        poolVersion,
      );
      errors.push(...poolErrors);
      const pool = tryParseVersion(poolVersion);
      if (poolErrors.length === 0 && pool && controlPlane && compareVersions(pool, controlPlane) > 0) {
        errors.push({
          type: "Forbidden",
          field: `${path}.kubernetes.version`,
          value: poolVersion,
          detail: `worker pool kubernetes version must not be higher than the control plane version "${toVersion}"`,
        });
      }
    }
    const image = worker.machine?.image;
    const imageBefore = before?.machine?.image;
    if (!image?.version || (image.version === imageBefore?.version && image.name === imageBefore?.name)) return;
    const field = `${path}.machine.image.version`;
    const offered = (profile.spec.machineImages ?? []).find((m) => m.name === image.name);
    const entry = offered?.versions.find((v) => v.version === image.version);
    const otherImage = imageBefore !== undefined && image.name !== imageBefore.name;
    if (otherImage && !offered) {
      errors.push({
        type: "NotSupported",
        field: `${path}.machine.image.name`,
        value: image.name,
        detail: `machine image "${image.name}" is not offered by cloud profile "${profile.metadata.name}"; images: ${(profile.spec.machineImages ?? []).map((m) => m.name).join(", ") || "none"}`,
      });
      return;
    }
    if (!offered || !entry) {
      errors.push({
        type: "NotSupported",
        field,
        value: image.version,
        detail: `machine image "${image.name}" in version "${image.version}" is not offered by cloud profile "${profile.metadata.name}"`,
      });
      return;
    }
    if (classificationAt(entry, now) === "expired") {
      errors.push({
        type: "Forbidden",
        field,
        value: image.version,
        detail: `machine image "${image.name}" version "${image.version}" is expired; choose a supported version`,
      });
      return;
    }
    if (otherImage && IN_PLACE_STRATEGIES.has(worker.updateStrategy ?? "")) {
      errors.push({
        type: "Forbidden",
        field: `${path}.machine.image.name`,
        value: image.name,
        detail: `the machine image cannot be changed for a pool updated in place (update strategy "${worker.updateStrategy}")`,
      });
      return;
    }
    // Another version of the same image must fit the pool as much as another image does.
    const machineType = (profile.spec.machineTypes ?? []).find((t) => t.name === worker.machine.type);
    const unfit = imageVersionUnfitReason(
      entry,
      worker,
      poolVersion ?? toVersion,
      machineType,
      profile.spec.machineCapabilities ?? [],
    );
    if (unfit !== undefined) {
      errors.push({
        type: "Forbidden",
        field,
        value: image.version,
        detail: `machine image "${image.name}" version "${image.version}" cannot run worker pool "${worker.name}": ${unfit}`,
      });
      return;
    }
    if (otherImage) return;
    const current = tryParseVersion(imageBefore?.name === image.name ? imageBefore?.version : undefined);
    const target = tryParseVersion(image.version);
    if (current && target && compareVersions(target, current) < 0) {
      errors.push({
        type: "Forbidden",
        field,
        value: image.version,
        detail: `machine image version downgrade is not supported (from "${imageBefore?.version}" to "${image.version}")`,
      });
    }
  });
  return errors;
}
