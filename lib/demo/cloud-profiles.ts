// The CloudProfile objects, made from the tables relative to `now`: expiry dates are days from
// now, so the dashboard's countdown buckets stay filled whatever day the demo is generated.
import { compareVersions, parseVersion } from "../engine/version.ts";
import {
  GARDENER_API_VERSION,
  type CloudProfile,
  type ExpirableVersion,
  type MachineImage,
  type MachineImageVersion,
  type MachineType,
} from "../gardener/types.ts";
import { uuid, type Rng } from "./random.ts";
import {
  AMD64_ONLY,
  KUBERNETES_VERSIONS,
  MACHINE_IMAGES,
  type ImageDef,
  type MachineTypeDef,
  type ProfileDef,
  type VersionDef,
} from "./tables.ts";
import { DAY, HOUR, iso } from "./time.ts";

/** Expiry dates fall on the full hour: nicer to read, and far enough from bucket edges. */
function expiryDate(now: number, days: number): string {
  return iso(Math.floor(now / HOUR) * HOUR + days * DAY);
}

function expirableVersion(def: VersionDef, now: number, shiftDays: number): ExpirableVersion {
  return {
    version: def.version,
    classification: def.classification,
    ...(def.expiresInDays === undefined ? {} : { expirationDate: expiryDate(now, def.expiresInDays + shiftDays) }),
  };
}

function machineImage(def: ImageDef, now: number, shiftDays: number, omit: readonly string[]): MachineImage {
  return {
    name: def.name,
    updateStrategy: def.updateStrategy,
    versions: def.versions
      .filter((v) => !omit.includes(`${def.name}-${v.version}`))
      .map((v): MachineImageVersion => ({
        ...expirableVersion(v, now, shiftDays),
        cri: [{ name: "containerd" }],
        architectures: [...(v.architectures ?? AMD64_ONLY)],
        // Garden Linux updates in place from any of the profile's versions (the oldest is the
        // minimum): the demo's in-place pools use it.
        ...(def.name === "gardenlinux"
          ? { inPlaceUpdates: { supported: true, minVersionForUpdate: oldestVersion(def) } }
          : {}),
      })),
  };
}

function machineType(def: MachineTypeDef): MachineType {
  return {
    name: def.name,
    cpu: def.cpu,
    gpu: def.gpu ?? "0",
    memory: def.memory,
    architecture: def.kind === "arm" ? "arm64" : "amd64",
    usable: true,
  };
}

export function buildCloudProfile(def: ProfileDef, now: number, rng: Rng): CloudProfile {
  return {
    apiVersion: GARDENER_API_VERSION,
    kind: "CloudProfile",
    metadata: {
      name: def.name,
      uid: uuid(rng),
      generation: rng.int(20, 90),
      creationTimestamp: iso(now - rng.int(700, 1100) * DAY),
    },
    spec: {
      type: def.type,
      kubernetes: {
        versions: KUBERNETES_VERSIONS.filter((v) => !def.omitKubernetes.includes(v.version)).map((v) =>
          expirableVersion(v, now, def.shiftDays),
        ),
      },
      machineImages: MACHINE_IMAGES.filter((image) => def.images.includes(image.name)).map((image) =>
        machineImage(image, now, def.shiftDays, def.omitImageVersions),
      ),
      machineTypes: def.machineTypes.map(machineType),
      regions: def.regions.map((r) => ({ name: r.name, zones: r.zones.map((name) => ({ name })) })),
    },
  };
}

/** The image's lowest version, whatever order the table lists them in. */
function oldestVersion(def: ImageDef): string {
  return def.versions
    .map((v) => v.version)
    .reduce((a, b) => (compareVersions(parseVersion(a), parseVersion(b)) <= 0 ? a : b));
}
