// What an update run sends one shoot to move it to the run's target (issue 29, item 2): "maintain
// now", a Kubernetes version (an exact one, the latest patch of a minor, or the latest patch of
// the shoot's own minor), or a machine image version for the worker pools that run that image.
// Pure: the shoot, its cloud profile and the moment decide it. The patch is checked with the
// rules a user's PATCH of the shoot meets (validateShootChange: the version exists, is not
// expired, skips no minor, and so on), so a refusal here reads as the PATCH's would; the garden
// still has the last word when the run sends it (lib/garden/shoot-change-rules.ts, judgePatch).
import { describeProfileReference, profileReferenceOf } from "../gardener/profile-reference.ts";
import type { CloudProfile, ExpirableVersion, Shoot } from "../gardener/types.ts";
import { classificationAt } from "./classification.ts";
import type { FieldError } from "./field-error.ts";
import { applyShootPatch, changedFields, type FieldChange, type ShootPatch } from "./shoot-patch.ts";
import { validateShootChange } from "./validate-shoot.ts";
import { compareVersions, parseVersion, tryParseVersion, type Version } from "./version.ts";

/** "latest-patch": the newest patch of the minor each shoot runs now. */
export const LATEST_PATCH = "latest-patch";

/** Where a run moves its shoots. */
export type UpdateRunTarget =
  | { readonly action: "maintain" }
  /** "1.33" (its newest usable patch), "1.33.4" (exactly), or "latest-patch". */
  | { readonly kubernetes: string }
  | { readonly machineImage: { readonly name: string; readonly version: string } };

export type TargetChange =
  | { readonly kind: "patch"; readonly patch: ShootPatch; readonly changes: readonly FieldChange[] }
  | { readonly kind: "maintain" }
  | { readonly kind: "unchanged"; readonly reason: string }
  | { readonly kind: "refused"; readonly reason: string; readonly errors?: readonly FieldError[] };

/** A Kubernetes target's form: exact version, a minor ("1.33"), or the shoot's own minor. */
export type KubernetesTargetForm =
  | { readonly form: "exact"; readonly version: Version }
  | { readonly form: "minor"; readonly major: number; readonly minor: number }
  | { readonly form: "latest-patch" };

const MINOR = /^v?(\d{1,4})\.(\d{1,4})$/;
const EXACT = /^v?\d{1,4}\.\d{1,4}\.\d{1,6}$/;

/** The form of a Kubernetes target; undefined when it is none of them. */
export function kubernetesTargetForm(text: string): KubernetesTargetForm | undefined {
  if (text === LATEST_PATCH) return { form: "latest-patch" };
  const minor = MINOR.exec(text);
  if (minor) return { form: "minor", major: Number(minor[1]), minor: Number(minor[2]) };
  if (EXACT.test(text)) return { form: "exact", version: parseVersion(text) };
  return undefined;
}

/** A version a run may move a shoot to unasked: offered now, neither preview nor expired (nor not yet available). */
const usable = (v: ExpirableVersion, now: number) => {
  const c = classificationAt(v, now);
  return c === "supported" || c === "deprecated";
};

/** The newest usable release of `major.minor` among `versions`, if any. */
export function newestPatchOf(
  versions: readonly ExpirableVersion[],
  major: number,
  minor: number,
  now: number,
): string | undefined {
  let best: { v: Version; text: string } | undefined;
  for (const entry of versions) {
    const v = tryParseVersion(entry.version);
    if (!v || v.major !== major || v.minor !== minor || v.prerelease.length > 0 || !usable(entry, now)) continue;
    if (!best || compareVersions(v, best.v) > 0) best = { v, text: entry.version };
  }
  return best?.text;
}

/** Whether a Kubernetes target names a version some profile of `profiles` offers (for the request's 422). */
export function profilesOfferKubernetes(profiles: Iterable<CloudProfile>, text: string, now: number): boolean {
  const form = kubernetesTargetForm(text);
  if (!form) return false;
  if (form.form === "latest-patch") return true;
  for (const profile of profiles) {
    const versions = profile.spec.kubernetes.versions;
    if (form.form === "minor" && newestPatchOf(versions, form.major, form.minor, now) !== undefined) return true;
    if (form.form === "exact" && versions.some((v) => v.version === form.version.original)) return true;
  }
  return false;
}

/** Whether some profile of `profiles` offers this machine image version. */
export function profilesOfferImage(profiles: Iterable<CloudProfile>, name: string, version: string): boolean {
  for (const profile of profiles)
    if (
      (profile.spec.machineImages ?? []).some((m) => m.name === name && m.versions.some((v) => v.version === version))
    )
      return true;
  return false;
}

const profileName = (profile: CloudProfile) => profile.metadata.name;

/** The Kubernetes version the target means for this shoot, or why it means none. */
function kubernetesVersionFor(
  shoot: Shoot,
  profile: CloudProfile,
  text: string,
  now: number,
): { readonly version: string } | { readonly unchanged: string } | { readonly refused: string } {
  const form = kubernetesTargetForm(text);
  if (!form) return { refused: `"${text}" is not a Kubernetes version (1.33, 1.33.4 or "${LATEST_PATCH}").` };
  const versions = profile.spec.kubernetes.versions;
  if (form.form === "exact") {
    if (!versions.some((v) => v.version === form.version.original))
      return { refused: `The cloud profile "${profileName(profile)}" does not offer Kubernetes ${text}.` };
    return { version: form.version.original };
  }
  const current = tryParseVersion(shoot.spec.kubernetes.version);
  if (form.form === "latest-patch") {
    if (!current)
      return { refused: `The shoot's Kubernetes version "${shoot.spec.kubernetes.version}" cannot be read.` };
    const newest = newestPatchOf(versions, current.major, current.minor, now);
    if (newest === undefined)
      return {
        refused: `The cloud profile "${profileName(profile)}" offers no usable ${current.major}.${current.minor} version.`,
      };
    return { version: newest };
  }
  const newest = newestPatchOf(versions, form.major, form.minor, now);
  if (newest === undefined)
    return {
      refused: `The cloud profile "${profileName(profile)}" offers no usable ${form.major}.${form.minor} version.`,
    };
  return { version: newest };
}

/** The patch, checked as a user's PATCH of the shoot is; refused with the validation's errors. */
function checked(shoot: Shoot, patch: ShootPatch, profile: CloudProfile, now: number): TargetChange {
  const applied = applyShootPatch(shoot, patch);
  if (applied.problem)
    return {
      kind: "refused",
      reason: `${applied.problem.field}: ${applied.problem.detail}`,
      errors: [applied.problem],
    };
  const errors = validateShootChange(shoot, applied.shoot, profile, now);
  if (errors.length > 0)
    return {
      kind: "refused",
      reason: `The garden would refuse the change: ${errors.map((e) => `${e.field}: ${e.detail}`).join("; ")}`,
      errors,
    };
  return { kind: "patch", patch, changes: changedFields(shoot, applied.shoot) };
}

/**
 * What the run sends this shoot for `target` at `now`: a merge patch (with the fields it changes),
 * "maintain now", nothing (already there or newer: a run never downgrades), or a refusal in words.
 */
export function targetChangeFor(
  shoot: Shoot,
  profile: CloudProfile | undefined,
  target: UpdateRunTarget,
  now: number,
): TargetChange {
  if ("action" in target) return { kind: "maintain" };
  if (!profile)
    return {
      kind: "refused",
      reason: `The shoot's ${describeProfileReference(profileReferenceOf(shoot))} does not exist.`,
    };
  if ("kubernetes" in target) {
    const wanted = kubernetesVersionFor(shoot, profile, target.kubernetes, now);
    if ("refused" in wanted) return { kind: "refused", reason: wanted.refused };
    if ("unchanged" in wanted) return { kind: "unchanged", reason: wanted.unchanged };
    const current = shoot.spec.kubernetes.version;
    const from = tryParseVersion(current);
    const to = parseVersion(wanted.version);
    if (current === wanted.version) return { kind: "unchanged", reason: `Kubernetes is ${current} already.` };
    if (from && compareVersions(from, to) > 0)
      return {
        kind: "unchanged",
        reason: `Kubernetes is ${current}, newer than ${wanted.version}; a run never downgrades.`,
      };
    return checked(shoot, { spec: { kubernetes: { version: wanted.version } } }, profile, now);
  }
  const { name, version } = target.machineImage;
  const offered = (profile.spec.machineImages ?? []).find((m) => m.name === name);
  if (!offered?.versions.some((v) => v.version === version))
    return {
      kind: "refused",
      reason: `The cloud profile "${profileName(profile)}" does not offer ${name} ${version}.`,
    };
  const pools = (shoot.spec.provider?.workers ?? []).filter((w) => w.machine.image?.name === name);
  if (pools.length === 0) return { kind: "unchanged", reason: `No worker pool runs ${name}.` };
  const wanted = tryParseVersion(version);
  const behind = pools.filter((w) => {
    const runs = w.machine.image?.version;
    if (runs === version) return false;
    const current = tryParseVersion(runs);
    return !current || !wanted || compareVersions(current, wanted) < 0;
  });
  if (behind.length === 0)
    return { kind: "unchanged", reason: `Every worker pool on ${name} runs ${version} or newer already.` };
  const patch: ShootPatch = {
    spec: { provider: { workers: behind.map((w) => ({ name: w.name, machine: { image: { name, version } } })) } },
  };
  return checked(shoot, patch, profile, now);
}
