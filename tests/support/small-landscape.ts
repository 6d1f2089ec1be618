// A small, hand-made landscape for API write tests: every version's classification is known.
import { crc32 } from "../../lib/engine/crc32.ts";
import type { Landscape } from "../../lib/demo/landscape.ts";
import type { Shoot } from "../../lib/gardener/types.ts";
import { profile, seed, shoot, worker } from "./builders.ts";

const DAY = 86_400_000;

/**
 * The uid of the i-th shoot: fixed, and one whose simulated insides (lib/demo/inventory.ts draws
 * them from the uid) are well-behaved: no webhook that makes HibernationPossible False or blocks
 * pods, and no node component that never becomes ready. With random uids one shoot in eight drew
 * the slow policy webhook, and the tests that hibernate it through the gardenlet failed by chance.
 */
function quietUid(i: number): string {
  for (let k = 0; ; k++) {
    const uid = `00000000-0000-4000-8000-${(i * 1000 + k).toString(16).padStart(12, "0")}`;
    if (crc32(`inventory|${uid}`) % 8 >= 3 && crc32(`nodes|${uid}`) % 30 !== 0) return uid;
  }
}

export function smallLandscape(now: number, shootCount = 6): Landscape {
  const iso = (ms: number) => new Date(ms).toISOString();
  const testProfile = profile(
    [
      { version: "1.30.1", expirationDate: iso(now - 10 * DAY) },
      { version: "1.30.5", classification: "deprecated", expirationDate: iso(now + 20 * DAY) },
      { version: "1.31.2", classification: "supported" },
      { version: "1.31.4", classification: "supported" },
      { version: "1.32.0", classification: "preview" },
    ],
    [
      {
        name: "gardenlinux",
        updateStrategy: "minor",
        versions: [
          { version: "1592.1.0", expirationDate: iso(now - DAY), cri: [{ name: "containerd" }] },
          { version: "1592.4.0", classification: "supported", cri: [{ name: "containerd" }] },
          { version: "1877.2.0", classification: "supported", cri: [{ name: "containerd" }] },
        ],
      },
    ],
  );
  const shoots: Shoot[] = [];
  for (let i = 0; i < shootCount; i++) {
    const s = shoot(i === 0 ? "1.30.5" : "1.31.2", {
      workers: [worker("pool-a", "gardenlinux", "1592.4.0"), worker("pool-b", "gardenlinux", "1592.4.0")],
    });
    s.metadata = {
      ...s.metadata,
      name: `cluster-${i}`,
      namespace: "garden-dev",
      uid: quietUid(i),
      creationTimestamp: iso(now - 30 * DAY),
    };
    s.spec.seedName = "seed-1";
    s.status = { ...s.status, seedName: "seed-1" };
    shoots.push(s);
  }
  return {
    cloudProfiles: [testProfile],
    seeds: [seed("seed-1")],
    projects: [{ metadata: { name: "dev" }, spec: { namespace: "garden-dev" } }],
    shoots,
    maintenanceHistory: [],
    admissionRules: [],
  };
}
