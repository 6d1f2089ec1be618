// Machine image version maintenance of worker pools (Gardener:
// pkg/controllermanager/controller/shoot/maintenance/reconciler.go, maintainMachineImages and
// shouldMachineImageVersionBeUpdated; the filters and strategies are FilterMachineImageVersions and
// DetermineMachineImageVersion in
// pkg/controllermanager/controller/shoot/maintenance/helper/helper.go).
import semver from "semver";
import type {
  CapabilityDefinition,
  Capabilities,
  MachineImageVersion,
  MachineType,
  Worker,
} from "../gardener/types.ts";
import type { PreparedImage, PreparedProfile } from "./prepared-profile.ts";
import {
  type Candidate,
  CandidateList,
  determineVersionForStrategy,
  messageOf,
  minorAuto,
  nextHigherMajorForce,
  nextHigherMinorForce,
  overallAuto,
  patchAuto,
  type SelectFn,
} from "./selection.ts";
import type { UpdateResult } from "./update-result.ts";
import { compareVersions, parseNormalized } from "./version.ts";

export const DEFAULT_ARCHITECTURE = "amd64";
const DEFAULT_CRI = "containerd";
export const IN_PLACE_STRATEGIES: ReadonlySet<string> = new Set(["AutoInPlaceUpdate", "ManualInPlaceUpdate"]);

/** A failure that aborts the whole image step for all worker pools, as in Gardener. */
class ImageStepAbort extends Error {}

export function architecturesOf(
  v: MachineImageVersion,
  definitions: readonly CapabilityDefinition[],
): readonly string[] {
  const flavors = v.capabilityFlavors;
  if (flavors && flavors.length > 0) return flavors.flatMap((f) => f.capabilities?.architecture ?? []);
  const defined = definitions.find((d) => d.name === "architecture")?.values ?? [];
  if (defined.length > 0) return defined;
  const own = v.architectures;
  return own && own.length > 0 ? own : [DEFAULT_ARCHITECTURE];
}

function withDefaults(caps: Capabilities | undefined, definitions: readonly CapabilityDefinition[]): Capabilities {
  const out: Capabilities = {};
  for (const d of definitions) {
    const values = caps?.[d.name];
    out[d.name] = values && values.length > 0 ? values : d.values;
  }
  return out;
}

function capabilitiesCompatible(
  flavor: Capabilities | undefined,
  machine: Capabilities | undefined,
  definitions: readonly CapabilityDefinition[],
): boolean {
  const a = withDefaults(flavor, definitions);
  const b = withDefaults(machine, definitions);
  return definitions.every((d) => a[d.name].some((value) => b[d.name].includes(value)));
}

const constraintCache = new Map<string, boolean>();

/** One Masterminds comparator, e.g. ">= 1.26", "=< 1.28", "!=1.26.0", "~1.27". */
function satisfiesComparator(version: string, comparator: string): boolean {
  const m = /^(!=|=>|=<|>=|<=|>|<|=|~>|~|\^)?\s*(.*)$/.exec(comparator.trim());
  if (!m || m[2] === "") return false;
  const operator = { "=>": ">=", "=<": "<=", "~>": "~" }[m[1] ?? ""] ?? m[1] ?? "";
  if (operator === "!=") {
    const other = semver.coerce(m[2]);
    return other !== null && !semver.eq(version, other);
  }
  const range = `${operator}${m[2]}`;
  return semver.validRange(range, { loose: true }) !== null && semver.satisfies(version, range, { loose: true });
}

/**
 * Whether `version` satisfies a Masterminds constraint: "||" separates alternatives, commas
 * separate comparators that must all hold (node-semver reads the spaces inside one comparator).
 */
export function satisfiesConstraint(version: string, constraint: string): boolean {
  const key = `${version}|${constraint}`;
  let ok = constraintCache.get(key);
  if (ok === undefined) {
    const coerced = semver.coerce(version, { includePrerelease: true })?.version ?? version;
    ok = constraint
      .split("||")
      .some((group) => group.split(",").every((comparator) => satisfiesComparator(coerced, comparator)));
    if (constraintCache.size > 10_000) constraintCache.clear();
    constraintCache.set(key, ok);
  }
  return ok;
}

/**
 * Why a version of one of the profile's machine images cannot run a worker pool (its
 * architecture, its machine type's capabilities, its container runtime interface and runtimes,
 * its kubelet version), or undefined when it can: Gardener's filters for maintenance, and what
 * its admission asks of a pool's image.
 */
export function imageVersionUnfitReason(
  v: MachineImageVersion,
  worker: Worker,
  kubeletVersion: string,
  machineType: MachineType | undefined,
  definitions: readonly CapabilityDefinition[],
): string | undefined {
  const architecture = worker.machine.architecture ?? DEFAULT_ARCHITECTURE;
  const criName = worker.cri?.name ?? DEFAULT_CRI;
  const runtimes = (worker.cri?.containerRuntimes ?? []).map((r) => r.type);
  const architectures = architecturesOf(v, definitions);
  if (!architectures.includes(architecture))
    return `it is not built for the pool's architecture "${architecture}" (only ${architectures.join(", ") || "none"})`;
  if (machineType && definitions.length > 0 && v.capabilityFlavors && v.capabilityFlavors.length > 0) {
    const compatible = v.capabilityFlavors.some((f) =>
      capabilitiesCompatible(f.capabilities, machineType.capabilities, definitions),
    );
    if (!compatible) return `it does not support the capabilities of machine type "${machineType.name}"`;
  }
  const cris = v.cri && v.cri.length > 0 ? v.cri : [{ name: DEFAULT_CRI }];
  const cri = cris.find((x) => x.name === criName);
  if (!cri) return `it does not support the pool's container runtime interface "${criName}"`;
  const offered = new Set((cri.containerRuntimes ?? []).map((r) => r.type));
  const missing = runtimes.find((t) => !offered.has(t));
  if (missing !== undefined) return `it does not offer the pool's container runtime "${missing}"`;
  if (v.kubeletVersionConstraint && !satisfiesConstraint(kubeletVersion, v.kubeletVersionConstraint))
    return `it requires a kubelet version "${v.kubeletVersionConstraint}" and the pool's is "${kubeletVersion}"`;
  return undefined;
}

function filterVersions(
  image: PreparedImage,
  worker: Worker,
  kubeletVersion: string,
  machineType: MachineType,
  definitions: readonly CapabilityDefinition[],
): Candidate[] {
  const inPlace = IN_PLACE_STRATEGIES.has(worker.updateStrategy ?? "");
  const current = worker.machine.image?.version;
  return image.candidates.filter((c) => {
    const v = c.source as MachineImageVersion;
    if (imageVersionUnfitReason(v, worker, kubeletVersion, machineType, definitions) !== undefined) return false;
    if (inPlace) {
      if (!v.inPlaceUpdates?.supported) return false;
      if (current === undefined) return false;
      try {
        const cur = parseNormalized(current);
        const same = compareVersions(parseNormalized(c.text), cur) === 0;
        const min = v.inPlaceUpdates.minVersionForUpdate;
        if (!same && !(min !== undefined && compareVersions(parseNormalized(min), cur) <= 0)) return false;
      } catch {
        return false;
      }
    }
    return true;
  });
}

function filterKey(image: PreparedImage, worker: Worker, kubeletVersion: string, current: string): string {
  const cri = worker.cri;
  const runtimes = (cri?.containerRuntimes ?? []).map((r) => r.type).join(",");
  const inPlace = IN_PLACE_STRATEGIES.has(worker.updateStrategy ?? "") ? current : "";
  return [
    image.image.name,
    worker.machine.architecture ?? "",
    worker.machine.type,
    cri?.name ?? "",
    runtimes,
    kubeletVersion,
    inPlace,
  ].join("|");
}

const STRATEGY_FUNCTIONS: Record<string, { auto: SelectFn; force: SelectFn } | undefined> = {
  patch: { auto: patchAuto, force: nextHigherMinorForce },
  minor: { auto: minorAuto, force: nextHigherMajorForce },
};

function strategyFunctions(strategy: string, imageName: string): { auto: SelectFn; force: SelectFn } {
  const known = STRATEGY_FUNCTIONS[strategy];
  if (known) return known;
  if (strategy === "major") {
    return {
      auto: overallAuto,
      force: (_list, cur) => {
        throw new Error(
          `either the machine image "${imageName}" is reaching end of life and migration to another machine image is required or there is a misconfiguration in the CloudProfile. If it is the latter, make sure the machine image in the CloudProfile has at least one version that is not expired, not in preview and greater or equal to the current Shoot image version "${cur}"`,
        );
      },
    };
  }
  return {
    auto: () => {
      throw new Error(`unknown machine image update strategy "${strategy}"`);
    },
    force: () => undefined,
  };
}

function imageUpdateReason(kind: "expired" | "auto", strategy: string): string {
  return kind === "expired"
    ? `Machine image version expired - force update required (image update strategy: ${strategy})`
    : `Automatic update of the machine image version is configured (image update strategy: ${strategy})`;
}

/**
 * Maintains the machine image of every worker pool in place (workers are mutated, as the
 * controller mutates its copy). Returns results by worker name. Throws ImageStepAbort when a
 * machine type or image is missing; pools handled before the abort keep their new versions.
 */
export function maintainMachineImages(
  profile: PreparedProfile,
  workers: Worker[],
  controlPlaneVersion: string,
  autoUpdate: boolean,
): Map<string, UpdateResult> {
  const results = new Map<string, UpdateResult>();
  const definitions = profile.profile.spec.machineCapabilities ?? [];
  for (const worker of workers) {
    const machineType = profile.machineType(worker.machine.type);
    if (!machineType) {
      throw new ImageStepAbort(
        `machine type "${worker.machine.type}" of worker "${worker.name}" does not exist in cloudprofile`,
      );
    }
    const shootImage = worker.machine.image;
    if (!shootImage || shootImage.version === undefined) continue; // defaulted by the API server in a real garden
    const image = profile.machineImage(shootImage.name);
    if (!image) {
      throw new ImageStepAbort(
        `failure while determining the default machine image in the CloudProfile: no machineImage with name "${shootImage.name}" (specified in shoot) could be found in the cloudProfile "${profile.profile.metadata.name}"`,
      );
    }
    const current = shootImage.version;
    const kubeletVersion = worker.kubernetes?.version ?? controlPlaneVersion;
    const key = filterKey(image, worker, kubeletVersion, current);
    let filtered = profile.filteredImageLists.get(key);
    if (!filtered) {
      filtered = new CandidateList(filterVersions(image, worker, kubeletVersion, machineType, definitions));
      profile.filteredImageLists.set(key, filtered);
    }
    const strategy = image.strategy;
    const exists = image.image.name === shootImage.name && filtered.find(current);
    let reason: string;
    let isExpired: boolean;
    if (!exists) {
      reason = "Version does not exist in CloudProfile";
      isExpired = true;
    } else if (exists.classification === "expired") {
      reason = imageUpdateReason("expired", strategy);
      isExpired = true;
    } else if (autoUpdate) {
      reason = imageUpdateReason("auto", strategy);
      isExpired = false;
    } else {
      continue;
    }
    let target: string;
    try {
      const fns = strategyFunctions(strategy, shootImage.name);
      target = filtered.remember(`image|${shootImage.name}|${current}|${isExpired}`, () => {
        try {
          return determineVersionForStrategy(filtered, current, fns.auto, fns.force, isExpired);
        } catch (e) {
          throw new Error(
            `failed to determine the target version for maintenance of machine image "${shootImage.name}" with strategy "${strategy}": ${messageOf(e)}`,
            { cause: e },
          );
        }
      });
    } catch (e) {
      results.set(worker.name, {
        description: `failed to update machine image "${shootImage.name}": ${messageOf(e)}`,
        reason,
        isSuccessful: false,
        from: current,
      });
      continue;
    }
    if (target === "") continue;
    results.set(worker.name, {
      description: `Updated machine image "${shootImage.name}" from "${current}" to "${target}"`,
      reason,
      isSuccessful: true,
      from: current,
      to: target,
    });
    shootImage.version = target;
  }
  return results;
}
