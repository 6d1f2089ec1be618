// A shoot's worker pools: machine types, images and versions from its cloud profile, so that
// pools show every image update strategy and some lag behind the control plane, as real ones do.
import { parseVersion } from "../engine/version.ts";
import type { Worker } from "../gardener/types.ts";
import type { Catalogue, CatalogueImage } from "./catalogue.ts";
import type { Rng } from "./random.ts";
import type { MachineKind } from "./tables.ts";

// The order of the first pools' images, so every update strategy shows up among few shoots.
const FIRST_POOL_IMAGES = ["gardenlinux", "suse-chost", "gardenlinux", "ubuntu", "gardenlinux"];

interface PoolTemplate {
  name: string;
  kind: MachineKind;
}

const FIRST_POOL_NAMES = ["worker", "system", "default"];
const EXTRA_POOLS: readonly PoolTemplate[] = [
  { name: "compute", kind: "general" },
  { name: "highmem", kind: "memory" },
  { name: "gpu", kind: "gpu" },
  { name: "arm", kind: "arm" },
  { name: "batch", kind: "general" },
];

function chooseImageVersion(image: CatalogueImage, architecture: string, fresh: boolean, rng: Rng): string | undefined {
  const choices = (fresh ? image.freshChoices : image.choices).get(architecture) ?? [];
  return choices.length === 0 ? undefined : rng.weighted(choices);
}

export function buildWorkers(
  catalogue: Catalogue,
  index: number,
  controlPlane: string,
  zones: readonly string[],
  rng: Rng,
  /** A shoot being created now: no expired image (the API server would refuse it). */
  fresh = false,
): Worker[] {
  const count = rng.weighted([
    [1, 50],
    [2, 35],
    [3, 15],
  ] as const);
  const templates: PoolTemplate[] = [{ name: rng.pick(FIRST_POOL_NAMES), kind: rng.chance(0.15) ? "arm" : "general" }];
  const extras = [...EXTRA_POOLS];
  while (templates.length < count) templates.push(extras.splice(rng.int(0, extras.length - 1), 1)[0]);

  const cp = parseVersion(controlPlane);
  const shootImage = FIRST_POOL_IMAGES[index % FIRST_POOL_IMAGES.length];
  return templates.map((template, i) => {
    const type = rng.pick(catalogue.machineTypes.get(template.kind)!);
    const architecture = template.kind === "arm" ? "arm64" : "amd64";
    // Pools mostly share the first pool's image; the fallback covers profiles without it
    // (gcp has no suse-chost) and images without a version for the pool's architecture.
    let imageName = i === 0 || rng.chance(0.7) ? shootImage : rng.pick(catalogue.def.images);
    let image = catalogue.images.get(imageName);
    let version = image && chooseImageVersion(image, architecture, fresh, rng);
    if (!image || !version) {
      imageName = "gardenlinux";
      image = catalogue.images.get(imageName)!;
      version = chooseImageVersion(image, architecture, fresh, rng)!;
    }
    const minimum = template.kind === "gpu" ? rng.int(0, 1) : rng.int(1, 3);
    const worker: Worker = {
      name: template.name,
      machine: { type: type.name, image: { name: imageName, version }, architecture },
      minimum,
      maximum: minimum + rng.int(2, 10),
      maxSurge: 1,
      maxUnavailable: 0,
      cri: { name: "containerd" },
      zones: zones.slice(0, rng.int(1, zones.length)),
      volume: {
        type: catalogue.def.type === "aws" ? "gp3" : catalogue.def.type === "gcp" ? "pd-balanced" : "StandardSSD_LRS",
        size: `${rng.pick([50, 80, 100, 200])}Gi`,
      },
    };
    // Every ninth shoot's first pool updates in place, with Gardener's defaults for that strategy;
    // decided by the shoot's index, not drawn, so the random streams (and every shoot) stay as they were.
    if (i === 0 && index % 9 === 4 && imageName === "gardenlinux")
      Object.assign(worker, { updateStrategy: "AutoInPlaceUpdate", maxSurge: 0, maxUnavailable: 1 });
    // Some extra pools lag one minor behind the control plane, as teams roll node upgrades
    // separately; never above the control plane.
    if (i > 0 && rng.chance(0.3)) {
      const lower = catalogue.kubernetes.filter(
        (v) => v.major === cp.major && v.minor === cp.minor - 1 && v.bucket !== "preview",
      );
      if (lower.length > 0) worker.kubernetes = { version: lower[lower.length - 1].entry.version };
    }
    return worker;
  });
}
