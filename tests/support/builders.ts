// Small builders for CloudProfiles and Shoots in tests: only the fields a test cares about.
import type { CloudProfile, ExpirableVersion, MachineImage, Seed, Shoot, Worker } from "../../lib/gardener/types.ts";

export const at = (iso: string): number => Date.parse(iso);

export function profile(
  kubernetes: ExpirableVersion[],
  machineImages: MachineImage[] = [],
  extra: Partial<CloudProfile["spec"]> = {},
): CloudProfile {
  return {
    apiVersion: "core.gardener.cloud/v1beta1",
    kind: "CloudProfile",
    metadata: { name: "test-profile" },
    spec: {
      kubernetes: { versions: kubernetes },
      machineImages,
      machineTypes: [{ name: "m5.large" }, { name: "m6g.large", architecture: "arm64" }],
      ...extra,
    },
  };
}

export function worker(name: string, image: string, version: string, extra: Partial<Worker> = {}): Worker {
  return { name, machine: { type: "m5.large", image: { name: image, version } }, ...extra };
}

export function shoot(
  version: string,
  options: {
    workers?: Worker[];
    autoUpdate?: { kubernetesVersion?: boolean; machineImageVersion?: boolean };
    annotations?: Record<string, string>;
    status?: Shoot["status"];
  } = {},
): Shoot {
  return {
    apiVersion: "core.gardener.cloud/v1beta1",
    kind: "Shoot",
    metadata: {
      name: "my-shoot",
      namespace: "garden-dev",
      ...(options.annotations ? { annotations: options.annotations } : {}),
    },
    spec: {
      cloudProfileName: "test-profile",
      kubernetes: { version },
      provider: { type: "aws", workers: options.workers ?? [] },
      maintenance: {
        timeWindow: { begin: "220000+0000", end: "230000+0000" },
        autoUpdate: { kubernetesVersion: false, machineImageVersion: false, ...options.autoUpdate },
      },
    },
    status: options.status ?? { lastOperation: { type: "Reconcile", state: "Succeeded", progress: 100 } },
  };
}

/**
 * A seed Gardener would migrate to and from: backup configured, the Gardener version and generation
 * observed, GardenletReady and SeedSystemComponentsHealthy True (health.CheckSeedForMigration).
 * `ready: false` makes its gardenlet silent (GardenletReady Unknown).
 */
export function seed(name: string, options: { ready?: boolean; taints?: Seed["spec"]["taints"] } = {}): Seed {
  return {
    metadata: { name, generation: 1 },
    spec: {
      provider: { type: "aws", region: "eu-west-1" },
      backup: { provider: "aws", region: "eu-west-1" },
      ...(options.taints ? { taints: options.taints } : {}),
    },
    status: {
      gardener: { version: "v1.121.2" },
      observedGeneration: 1,
      conditions: [
        options.ready === false
          ? {
              type: "GardenletReady",
              status: "Unknown",
              reason: "StatusUnknown",
              message: "Gardenlet stopped posting seed status.",
            }
          : { type: "GardenletReady", status: "True" },
        { type: "SeedSystemComponentsHealthy", status: "True" },
      ],
    },
  };
}
