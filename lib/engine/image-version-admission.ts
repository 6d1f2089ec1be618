// The API server's own check of a changed machine image version (Gardener's shoot validator
// admission plugin: plugin/pkg/shoot/validator/admission.go, validateMachineImagesConstraints).
// It judges every update of a shoot, the maintenance controller's included, before any webhook:
// a pool of an existing shoot may move to a version that is active (neither expired nor
// unavailable at that moment), or to an expired one that is not lower than its current version
// (so that forced updates can go through). Target selection skips only preview versions, so a
// version that is not available yet can be chosen, and this check is what then refuses it.
// Kubernetes versions have no such rule for an existing pool: the plugin refuses an inactive one
// only on create or for a new pool, which maintenance never does.
import type { CloudProfile, Shoot, Worker } from "../gardener/types.ts";
import { classificationAt } from "./classification.ts";
import { architecturesOf, DEFAULT_ARCHITECTURE } from "./machine-image-maintenance.ts";
import { compareVersions, tryParseVersion } from "./version.ts";

function sameImage(a: Worker["machine"]["image"], b: Worker["machine"]["image"]): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

function isLower(version: string, than: string | undefined): boolean {
  const a = tryParseVersion(version);
  const b = than === undefined ? undefined : tryParseVersion(than);
  return a !== undefined && b !== undefined && compareVersions(a, b) < 0;
}

/** The error for one existing pool whose image changed, or undefined when the version is allowed. */
function poolImageError(
  profile: CloudProfile,
  now: number,
  index: number,
  worker: Worker,
  oldWorker: Worker,
): string | undefined {
  const image = worker.machine.image;
  if (image?.version === undefined || image.version === "") return undefined;
  const definitions = profile.spec.machineCapabilities ?? [];
  const architecture = worker.machine.architecture ?? DEFAULT_ARCHITECTURE;
  let inProfile = false;
  let allowed = false;
  const valid: string[] = [];
  for (const candidate of profile.spec.machineImages ?? []) {
    if (candidate.name !== image.name) continue;
    for (const v of candidate.versions ?? []) {
      const classification = classificationAt(v, now);
      const active = classification !== "expired" && classification !== "unavailable";
      const usable = active || (classification === "expired" && !isLower(v.version, oldWorker.machine.image?.version));
      if (usable && architecturesOf(v, definitions).includes(architecture))
        valid.push(`${candidate.name}:${v.version}`);
      if (v.version === image.version) {
        inProfile = true;
        allowed = usable;
      }
    }
  }
  // A version missing from the profile is refused too (NotSupported); maintenance only picks
  // versions from the profile, so that answer is left to the real API server.
  if (!inProfile || allowed) return undefined;
  const value = JSON.stringify({ name: image.name, version: image.version });
  const list = [...new Set(valid)].sort().join(" ");
  return (
    `spec.provider.workers[${index}].machine.image: Invalid value: ${value}: ` +
    `machine image version '${image.name}:${image.version}' is expired, supported machine image versions are: [${list}]`
  );
}

/**
 * The API server's refusal of the update from `before` to `after`, in its words
 * (`shoots.core.gardener.cloud "<name>" is forbidden: …`), or undefined when it admits it.
 * Only pools that already existed are judged; a new pool cannot come from maintenance.
 */
export function imageVersionAdmission(
  before: Shoot,
  after: Shoot,
  profile: CloudProfile,
  now: number,
): string | undefined {
  const oldWorkers = new Map((before.spec.provider?.workers ?? []).map((w) => [w.name, w]));
  const errors: string[] = [];
  (after.spec.provider?.workers ?? []).forEach((worker, index) => {
    const oldWorker = oldWorkers.get(worker.name);
    if (!oldWorker || sameImage(worker.machine.image, oldWorker.machine.image)) return;
    const error = poolImageError(profile, now, index, worker, oldWorker);
    if (error !== undefined) errors.push(error);
  });
  if (errors.length === 0) return undefined;
  const aggregate = errors.length === 1 ? errors[0] : `[${errors.join(", ")}]`;
  return `shoots.core.gardener.cloud "${after.metadata.name}" is forbidden: ${aggregate}`;
}
