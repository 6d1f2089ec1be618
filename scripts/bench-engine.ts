// Benchmark: maintain 10,000 shoots (3 worker pools each) against a cloud profile with 200
// Kubernetes versions and 5 machine images of 100 versions each. Prints shoots/second and peak
// memory. Run with `npm run bench:engine`.
import type { CloudProfile, ExpirableVersion, MachineImageVersion, Shoot } from "../lib/gardener/types.ts";
import { maintain } from "../lib/engine/maintain.ts";

const SHOOTS = Number(process.env.BENCH_SHOOTS ?? 10_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const now = Date.parse("2026-11-22T22:00:00Z");
const past = "2026-01-01T00:00:00Z";
const future = "2027-06-01T00:00:00Z";

// 200 Kubernetes versions: 1.20 to 1.29 with patches 0..19; old minors expired, some deprecated.
const kubernetesVersions: ExpirableVersion[] = [];
for (let minor = 29; minor >= 20; minor--) {
  for (let patch = 19; patch >= 0; patch--) {
    const v: ExpirableVersion = { version: `1.${minor}.${patch}` };
    if (minor < 23) v.expirationDate = past;
    else if (minor < 26) {
      v.classification = "deprecated";
      v.expirationDate = future;
    } else if (minor === 29 && patch > 15) v.classification = "preview";
    kubernetesVersions.push(v);
  }
}

const strategies = ["patch", "minor", "major", "minor", "patch"];
const images = strategies.map((updateStrategy, i) => {
  const versions: MachineImageVersion[] = [];
  for (let k = 0; k < 100; k++) {
    const major = 100 + Math.floor(k / 20);
    const v: MachineImageVersion = { version: `${major}.${k % 20}.0`, architectures: ["amd64", "arm64"] };
    if (k < 30) v.expirationDate = past;
    versions.push(v);
  }
  return { name: `image-${i}`, updateStrategy, versions };
});

const profile: CloudProfile = {
  apiVersion: "core.gardener.cloud/v1beta1",
  kind: "CloudProfile",
  metadata: { name: "bench" },
  spec: {
    kubernetes: { versions: kubernetesVersions },
    machineImages: images,
    machineTypes: [{ name: "m5.large" }, { name: "m6g.large", architecture: "arm64" }],
  },
};

function makeShoot(i: number): Shoot {
  const minor = 21 + (i % 9);
  return {
    apiVersion: "core.gardener.cloud/v1beta1",
    kind: "Shoot",
    metadata: { name: `shoot-${i}`, namespace: `garden-p${i % 50}`, uid: `uid-${i}` },
    spec: {
      cloudProfileName: "bench",
      kubernetes: { version: `1.${minor}.${i % 20}` },
      provider: {
        type: "aws",
        workers: [0, 1, 2].map((w) => ({
          name: `pool-${w}`,
          machine: {
            type: w === 2 ? "m6g.large" : "m5.large",
            architecture: w === 2 ? "arm64" : "amd64",
            image: { name: `image-${(i + w) % 5}`, version: `${100 + ((i + w) % 5)}.${(i * 7 + w) % 20}.0` },
          },
          ...(w === 1 ? { kubernetes: { version: `1.${minor}.0` } } : {}),
        })),
      },
      maintenance: { autoUpdate: { kubernetesVersion: i % 2 === 0, machineImageVersion: i % 3 !== 0 } },
    },
    status: { lastOperation: { type: "Reconcile", state: "Succeeded", progress: 100 } },
  };
}

const shoots = Array.from({ length: SHOOTS }, (_, i) => makeShoot(i));
let peakRss = process.memoryUsage().rss;
let changed = 0;
const rates: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  // A fresh profile object per round, so every round pays for preparing it once.
  const roundProfile = structuredClone(profile);
  const start = performance.now();
  for (const shoot of shoots) {
    const outcome = maintain(shoot, roundProfile, now);
    if (outcome.requirePatch) changed++;
  }
  const seconds = (performance.now() - start) / 1000;
  rates.push(SHOOTS / seconds);
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}
rates.sort((a, b) => a - b);
const median = rates[Math.floor(rates.length / 2)];
console.log(
  `engine: maintained ${SHOOTS} shoots x ${ROUNDS} rounds (3 pools each; 200 Kubernetes versions; 5 images x 100 versions)`,
);
console.log(
  `engine: ${Math.round(median).toLocaleString("en")} shoots/s (median round; best ${Math.round(rates.at(-1)!).toLocaleString("en")}, worst ${Math.round(rates[0]).toLocaleString("en")})`,
);
console.log(`engine: ${changed / ROUNDS} of ${SHOOTS} shoots changed per round`);
console.log(`engine: peak RSS ${(peakRss / 1024 / 1024).toFixed(1)} MiB on Node ${process.versions.node}`);
