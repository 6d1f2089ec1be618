// CloudProfile validation as the Gardener API server does it (Gardener:
// pkg/api/core/validation/cloudprofile.go, ValidateCloudProfile and ValidateCloudProfileSpecUpdate;
// what creation drops is PrepareForCreate in pkg/apiserver/registry/core/cloudprofile/strategy.go).
import { CLASSIFICATIONS, type CloudProfile, type ExpirableVersion } from "../gardener/types.ts";
import { classificationAt, stageStart } from "./classification.ts";
import type { FieldError } from "./field-error.ts";
import { compareVersions, parseVersion, tryParseVersion, type Version } from "./version.ts";

export interface CloudProfileValidationOptions {
  /** The VersionClassificationLifecycle feature gate (alpha in Gardener; on by default here). */
  readonly lifecycleGate?: boolean;
}

const CLASSIFICATION_NAMES: readonly string[] = CLASSIFICATIONS;
const K8S_VERSION = /^([0-9]+\.){2}[0-9]+$/;
const UPDATE_STRATEGIES = ["patch", "minor", "major"];

function validateExpirableVersion(v: ExpirableVersion, path: string, gate: boolean): FieldError[] {
  const errors: FieldError[] = [];
  const lifecycle = v.lifecycle ?? [];
  if (lifecycle.length > 0 && !gate) {
    return [
      {
        type: "Forbidden",
        field: `${path}.lifecycle`,
        detail: "lifecycle definitions are only allowed with the VersionClassificationLifecycle feature gate enabled",
      },
    ];
  }
  if (v.classification != null && !CLASSIFICATION_NAMES.includes(v.classification)) {
    errors.push({
      type: "NotSupported",
      field: `${path}.classification`,
      value: v.classification,
      detail: `supported values: ${CLASSIFICATION_NAMES.map((c) => `"${c}"`).join(", ")}`,
    });
  }
  if (v.classification === "expired" && lifecycle.length === 0) {
    errors.push({
      type: "Forbidden",
      field: `${path}.classification`,
      detail: 'the classification "expired" cannot be set directly; set an expirationDate instead',
    });
  }
  if (lifecycle.length > 0 && (v.classification != null || v.expirationDate != null)) {
    errors.push({
      type: "Forbidden",
      field: path,
      detail: "classification and expirationDate cannot be combined with a lifecycle",
    });
  }
  // Like Gardener, each rule looks at the lifecycle on its own: duplicates against all earlier
  // stages, the order and the start times against the stage just before.
  const seen = new Set<string>();
  lifecycle.forEach((stage, i) => {
    const stagePath = `${path}.lifecycle[${i}]`;
    if (!CLASSIFICATION_NAMES.includes(stage.classification)) {
      errors.push({
        type: "NotSupported",
        field: `${stagePath}.classification`,
        value: stage.classification,
        detail: `supported values: ${CLASSIFICATION_NAMES.map((c) => `"${c}"`).join(", ")}`,
      });
    }
    if (seen.has(stage.classification)) {
      errors.push({ type: "Duplicate", field: `${stagePath}.classification`, value: stage.classification, detail: "" });
    }
    seen.add(stage.classification);
    if (i > 0) {
      const previous = lifecycle[i - 1].classification;
      const previousRank = CLASSIFICATION_NAMES.indexOf(previous);
      const rank = CLASSIFICATION_NAMES.indexOf(stage.classification);
      if (rank !== -1 && previousRank > rank) {
        errors.push({
          type: "Invalid",
          field: `${stagePath}.classification`,
          value: stage.classification,
          detail: `lifecycle classifications not in expected order (preview, supported, deprecated, expired): ${stage.classification} must be before ${previous}`,
        });
      }
    }
  });
  let previousStart = Number.NEGATIVE_INFINITY;
  lifecycle.forEach((stage, i) => {
    const stagePath = `${path}.lifecycle[${i}]`;
    const start = stageStart(stage);
    if (start === Number.NEGATIVE_INFINITY) {
      // Absent, null, or empty (an empty `startTime:` in YAML): allowed on the leading stage only.
      if (i > 0)
        errors.push({
          type: "Required",
          field: stagePath,
          detail: "only the leading lifecycle stage may omit the startTime",
        });
      return;
    }
    if (Number.isNaN(start)) {
      errors.push({
        type: "Invalid",
        field: `${stagePath}.startTime`,
        value: stage.startTime,
        detail: "must be an RFC 3339 timestamp",
      });
      return;
    }
    if (start < previousStart) {
      errors.push({
        type: "Invalid",
        field: stagePath,
        value: stage.startTime,
        detail: "lifecycle start times must not decrease",
      });
    }
    previousStart = start;
  });
  return errors;
}

function declaresSupported(v: ExpirableVersion): boolean {
  return v.classification === "supported" || (v.lifecycle ?? []).some((s) => s.classification === "supported");
}

/** Only one version per minor may be "supported" (checked for legacy-classified versions only). */
function validateOneSupportedPerMinor(versions: readonly ExpirableVersion[], path: string, now: number): FieldError[] {
  const errors: FieldError[] = [];
  const parsed = versions.map((v) => tryParseVersion(String(v.version)));
  versions.forEach((v, i) => {
    const pv = parsed[i];
    if (!pv || v.classification === undefined || classificationAt(v, now) !== "supported") return;
    versions.forEach((other, j) => {
      const po = parsed[j];
      if (j === i || !po || po.major !== pv.major || po.minor !== pv.minor || !declaresSupported(other)) return;
      errors.push({
        type: "Forbidden",
        field: `${path}[${i}]`,
        detail: `unable to add version "${v.version}" with classification "supported": only one "supported" version is allowed per minor version, and "${other.version}" is supported too`,
      });
    });
  });
  return errors;
}

function latestVersion(versions: readonly ExpirableVersion[]): { entry: ExpirableVersion; index: number } | undefined {
  let best: { entry: ExpirableVersion; index: number; v: Version } | undefined;
  for (const [index, entry] of versions.entries()) {
    const v = tryParseVersion(String(entry.version));
    if (!v) return undefined;
    if (!best || compareVersions(v, best.v) > 0) best = { entry, index, v };
  }
  return best;
}

export function validateCloudProfile(
  profile: CloudProfile,
  now: number,
  options: CloudProfileValidationOptions = {},
): FieldError[] {
  const gate = options.lifecycleGate ?? true;
  const errors: FieldError[] = [];
  if (!profile.metadata?.name)
    errors.push({ type: "Required", field: "metadata.name", detail: "name or generateName is required" });
  const versions = profile.spec?.kubernetes?.versions ?? [];
  const base = "spec.kubernetes.versions";
  if (versions.length === 0)
    errors.push({ type: "Required", field: base, detail: "must provide at least one Kubernetes version" });
  const latest = latestVersion(versions);
  if (!latest) {
    errors.push({
      type: "Invalid",
      field: base,
      value: versions.map((v) => v.version),
      detail: "failed to determine the latest kubernetes version from the cloud profile",
    });
  } else {
    if (latest.entry.expirationDate != null) {
      errors.push({
        type: "Invalid",
        field: `${base}[].expirationDate`,
        value: latest.entry.expirationDate,
        detail: `expiration date of latest kubernetes version ('${latest.entry.version}') must not be set`,
      });
    }
    const stages = latest.entry.lifecycle ?? [];
    if (stages.length > 0 && stages[stages.length - 1].classification === "expired") {
      errors.push({
        type: "Invalid",
        field: `${base}[].lifecycle`,
        value: latest.entry.version,
        detail: `lifecycle of latest kubernetes version ('${latest.entry.version}') must not end with an expired stage`,
      });
    }
  }
  const seen = new Set<string>();
  versions.forEach((v, i) => {
    const text = String(v.version);
    // As in Gardener, a version that fails the regex is not tracked for duplicates.
    if (!K8S_VERSION.test(text)) {
      errors.push({
        type: "Invalid",
        field: `${base}[${i}]`,
        value: text,
        detail: `all Kubernetes versions must match the regex ${K8S_VERSION.source}`,
      });
    } else if (seen.has(text)) {
      errors.push({ type: "Duplicate", field: `${base}[${i}].version`, value: text, detail: "" });
    } else {
      seen.add(text);
    }
    errors.push(...validateExpirableVersion(v, `${base}[${i}]`, gate));
  });
  errors.push(...validateOneSupportedPerMinor(versions, base, now));

  // "<name>-<version>" must be unique over all images (Gardener keeps one set for the list).
  const names = new Set<string>();
  (profile.spec?.machineImages ?? []).forEach((image, j) => {
    const path = `spec.machineImages[${j}]`;
    const imageVersions = image.versions ?? [];
    if (imageVersions.length === 0) {
      errors.push({
        type: "Required",
        field: `${path}.versions`,
        detail: `must provide at least one version for the machine image '${image.name}'`,
      });
    }
    imageVersions.forEach((v, k) => {
      const vPath = `${path}.versions[${k}]`;
      const text = String(v.version);
      try {
        parseVersion(text);
      } catch (e) {
        errors.push({
          type: "Invalid",
          field: `${vPath}.version`,
          value: text,
          detail: `could not parse version: ${(e as Error).message}`,
        });
      }
      const key = `${image.name}-${text}`;
      if (names.has(key)) errors.push({ type: "Duplicate", field: vPath, value: key, detail: "" });
      names.add(key);
      errors.push(...validateExpirableVersion(v, vPath, gate));
    });
    errors.push(...validateOneSupportedPerMinor(imageVersions, `${path}.versions`, now));
    // The API server defaults a missing strategy to "major" before validating.
    if (image.updateStrategy !== undefined && !UPDATE_STRATEGIES.includes(image.updateStrategy)) {
      errors.push({
        type: "NotSupported",
        field: `${path}.updateStrategy`,
        value: image.updateStrategy,
        detail: `supported values: "patch", "minor", "major"`,
      });
    }
  });
  return errors;
}

/**
 * Update rule: an active version must not become unavailable again. Like
 * prepareCloudProfileForCreate below, unused by the app (CloudProfiles are read-only there) but
 * kept as the Gardener rules docs/architecture.md lists for this file.
 */
export function validateCloudProfileUpdate(
  oldProfile: CloudProfile,
  newProfile: CloudProfile,
  now: number,
): FieldError[] {
  const errors: FieldError[] = [];
  const check = (oldVersions: readonly ExpirableVersion[], newVersions: readonly ExpirableVersion[], path: string) => {
    const before = new Map(oldVersions.map((v) => [String(v.version), v]));
    newVersions.forEach((v, i) => {
      const old = before.get(String(v.version));
      if (!old) return;
      if (classificationAt(old, now) !== "unavailable" && classificationAt(v, now) === "unavailable") {
        errors.push({
          type: "Forbidden",
          field: `${path}[${i}]`,
          detail: "a version cannot be turned unavailable if it was already moved into a later lifecycle stage",
        });
      }
    });
  };
  check(
    oldProfile.spec.kubernetes?.versions ?? [],
    newProfile.spec.kubernetes?.versions ?? [],
    "spec.kubernetes.versions",
  );
  for (const [j, image] of (newProfile.spec.machineImages ?? []).entries()) {
    const old = (oldProfile.spec.machineImages ?? []).find((m) => m.name === image.name);
    if (old) check(old.versions ?? [], image.versions ?? [], `spec.machineImages[${j}].versions`);
  }
  return errors;
}

/**
 * What the API server silently drops when a CloudProfile is created: expired or unavailable
 * Kubernetes versions and expired machine image versions.
 */
export function prepareCloudProfileForCreate(profile: CloudProfile, now: number): CloudProfile {
  const keepK8s = (v: ExpirableVersion) => !["expired", "unavailable"].includes(classificationAt(v, now));
  return {
    ...profile,
    spec: {
      ...profile.spec,
      kubernetes: { ...profile.spec.kubernetes, versions: (profile.spec.kubernetes?.versions ?? []).filter(keepK8s) },
      machineImages: profile.spec.machineImages?.map((image) => ({
        ...image,
        versions: image.versions.filter((v) => classificationAt(v, now) !== "expired"),
      })),
    },
  };
}
