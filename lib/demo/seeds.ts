// The Seed objects, with conditions that match each seed's health in the tables: a seed whose
// gardenlet went silent and one with unhealthy system components, so the seed pages and the
// shoots on those seeds have something to explain.
import { GARDENER_API_VERSION, type Condition, type Seed } from "../gardener/types.ts";
import { uuid, type Rng } from "./random.ts";
import type { SeedDef, SeedHealth } from "./tables.ts";
import { DAY, HOUR, MINUTE, iso } from "./time.ts";

/** When the gcp-ap1 gardenlet went silent; its shoots turned Unknown a little later. */
export const GARDENLET_LOST_AGO = 3 * HOUR + 12 * MINUTE;

function seedConditions(health: SeedHealth, now: number, rng: Rng): Condition[] {
  const healthySince = iso(now - rng.int(5, 60) * DAY);
  const updated = iso(now - rng.int(5, 50) * 1000);
  const ok = (type: string, reason: string, message: string): Condition => ({
    type,
    status: "True",
    lastTransitionTime: healthySince,
    lastUpdateTime: updated,
    reason,
    message,
  });
  const conditions = [
    ok("GardenletReady", "GardenletReady", "Gardenlet is posting ready status."),
    ok("BackupBucketsReady", "BackupBucketsAvailable", "Backup Buckets are available."),
    ok(
      "ExtensionsReady",
      "AllExtensionsReady",
      "All extensions installed into the seed cluster are ready and healthy.",
    ),
    ok("SeedSystemComponentsHealthy", "SystemComponentsRunning", "All system components are healthy."),
  ];
  if (health === "gardenletUnknown") {
    // Nobody updates the seed any more, so every condition is Unknown since the same moment.
    const lost = iso(now - GARDENLET_LOST_AGO);
    return conditions.map((c) => ({
      ...c,
      status: "Unknown",
      lastTransitionTime: lost,
      lastUpdateTime: lost,
      reason: "StatusUnknown",
      message:
        c.type === "GardenletReady"
          ? "Gardenlet stopped posting seed status."
          : "Gardenlet stopped updating seed conditions.",
    }));
  }
  if (health === "systemComponentsUnhealthy") {
    const since = iso(now - rng.int(40, 170) * MINUTE);
    conditions[3] = {
      type: "SeedSystemComponentsHealthy",
      status: "False",
      lastTransitionTime: since,
      lastUpdateTime: updated,
      reason: "DeploymentUnhealthy",
      message:
        'Deployment "istio-ingress/istio-ingressgateway" is unhealthy: condition "Available" has invalid status False (expected True) due to MinimumReplicasUnavailable: Deployment does not have minimum availability.',
    };
  }
  return conditions;
}

/** Three zones per seed, named as each provider names them. */
function zonesOf(def: SeedDef): string[] {
  if (def.profile === "azure") return ["1", "2", "3"];
  if (def.profile === "gcp") return ["b", "c", "d"].map((z) => `${def.region}-${z}`);
  return ["a", "b", "c"].map((z) => `${def.region}${z}`);
}

export function buildSeed(def: SeedDef, now: number, rng: Rng): Seed {
  const generation = rng.int(3, 40);
  return {
    apiVersion: GARDENER_API_VERSION,
    kind: "Seed",
    metadata: {
      name: def.name,
      uid: uuid(rng),
      generation,
      creationTimestamp: iso(now - rng.int(400, 900) * DAY),
      labels: { "seed.gardener.cloud/region": def.region },
    },
    spec: {
      provider: { type: def.profile, region: def.region, zones: zonesOf(def) },
      ...(def.taints.length > 0 ? { taints: def.taints.map((t) => ({ ...t })) } : {}),
      settings: { scheduling: { visible: def.schedulable } },
      ingress: { domain: `ingress.${def.name}.demo.gardener.example.com`, controller: { kind: "nginx" } },
      backup: { provider: def.profile, region: def.region },
      // The seed's own networks (Gardener's usual ones), apart from the demo shoots' networks.
      networks: { nodes: "10.240.0.0/16", pods: "10.241.128.0/17", services: "10.241.0.0/17" },
    },
    status: {
      conditions: seedConditions(def.health, now, rng),
      kubernetesVersion: def.profile === "gcp" ? "1.32.9" : "1.33.6",
      gardener: { version: "v1.121.2" },
      observedGeneration: generation,
      // The gardenlet's default capacity (resources.capacity.shoots).
      allocatable: { shoots: "250" },
    },
  };
}
