// NamespacedCloudProfiles on a live garden (the stand-in Kubernetes API server): mirrored like the
// other objects, and a shoot that names one (spec.cloudProfile {kind: NamespacedCloudProfile}) is
// read against its status.cloudProfileSpec, never against a CloudProfile of the same name.
import { randomUUID } from "node:crypto";
import { KubeConfig } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startGardenMirror, type RunningMirror } from "../../lib/garden/kubernetes/garden-mirror.ts";
import type { Shoot } from "../../lib/gardener/types.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { eventually, putLandscape } from "../support/garden-landscape.ts";
import { namespacedProfile } from "../support/namespaced-profile.ts";
import { smallLandscape } from "../support/small-landscape.ts";
import { type StandInGarden, startStandInGarden } from "../support/stand-in-garden.ts";

const DAY = 86_400_000;
const now = Date.now();
const iso = (ms: number) => new Date(ms).toISOString();
// The parent's 1.30.5 expires in 20 days; the project's profile (named like its parent, so that a
// read by name alone would find the parent) extends it to 200.
const EXTENDED = iso(now + 200 * DAY);

let garden: StandInGarden;
let database: TestDatabase;
let running: RunningMirror | undefined;
const landscape = smallLandscape(now, 2);
const parent = landscape.cloudProfiles[0];

const ofNamespacedProfile = (name: string, version: string, older = false): Shoot => {
  const s = structuredClone(landscape.shoots[0]);
  s.metadata = { ...s.metadata, name, uid: randomUUID() };
  s.spec.kubernetes.version = version;
  s.spec.provider = { ...s.spec.provider, workers: [] };
  delete s.spec.cloudProfileName;
  s.spec.cloudProfile = { kind: "NamespacedCloudProfile", name: parent.metadata.name };
  if (older) s.spec.cloudProfileName = parent.metadata.name; // Gardener keeps both for a while
  return s;
};

const row = (name: string) =>
  database.db.shoot.findUnique({
    where: { namespace_name: { namespace: "garden-dev", name } },
    select: { cloudProfile: true, namespacedCloudProfile: true, earliestExpiry: true, earliestExpiryVersion: true },
  });

beforeAll(async () => {
  garden = await startStandInGarden({ bookmarkIntervalMs: 200 });
  database = await createTestDatabase();
  putLandscape(garden, landscape);
  garden.put(
    "NamespacedCloudProfile",
    namespacedProfile(parent, "garden-dev", parent.metadata.name, [{ version: "1.30.5", expirationDate: EXTENDED }]),
  );
  garden.put("Shoot", ofNamespacedProfile("extended", "1.30.5"));
  const kc = new KubeConfig();
  kc.loadFromFile(garden.writeKubeconfig());
  running = startGardenMirror(database.db, kc, {
    holder: "ncp",
    leaseMs: 1_500,
    log: () => {},
    backoff: { initialMs: 50, maxMs: 500 },
  });
  await running.synced();
});

afterAll(async () => {
  await running?.stop();
  await database?.drop();
  await garden?.close();
});

describe("NamespacedCloudProfiles in the mirror", () => {
  test("are mirrored with their parent, and their shoots' expiry is the namespaced profile's", async () => {
    const stored = await database.db.namespacedCloudProfile.findMany();
    expect(stored.map((p) => [p.namespace, p.name, p.parent])).toEqual([
      ["garden-dev", "test-profile", "test-profile"],
    ]);
    expect(await row("extended")).toEqual({
      cloudProfile: "test-profile",
      namespacedCloudProfile: "test-profile",
      earliestExpiry: new Date(EXTENDED),
      earliestExpiryVersion: "Kubernetes 1.30.5",
    });
    // A shoot of the CloudProfile beside it keeps the parent's date.
    expect((await row("cluster-0"))?.earliestExpiry.getTime()).toBeLessThan(now + 21 * DAY);
    expect((await row("cluster-0"))?.namespacedCloudProfile).toBeNull();
  });

  test("a change of the namespaced profile's status rewrites its shoots' columns, and only theirs", async () => {
    const later = iso(now + 300 * DAY);
    const before = await row("cluster-0");
    garden.update("NamespacedCloudProfile", "garden-dev", "test-profile", (p) => {
      p.status.cloudProfileSpec.kubernetes.versions.find(
        (v: { version: string }) => v.version === "1.30.5",
      )!.expirationDate = later;
    });
    const after = await eventually(
      () => row("extended"),
      (r) => r?.earliestExpiry.toISOString() === later,
    );
    expect(after?.earliestExpiry.toISOString()).toBe(later);
    expect(await row("cluster-0")).toEqual(before);

    // A change of the parent reaches its own shoots; the namespaced profile's keep Gardener's merge.
    const sooner = iso(now + 5 * DAY);
    garden.update("CloudProfile", undefined, "test-profile", (p) => {
      p.spec.kubernetes.versions.find((v: { version: string }) => v.version === "1.30.5")!.expirationDate = sooner;
    });
    await eventually(
      () => row("cluster-0"),
      (r) => r?.earliestExpiry.toISOString() === sooner,
    );
    expect((await row("extended"))?.earliestExpiry.toISOString()).toBe(later);
  });

  test("a shoot with both fields follows spec.cloudProfile; one of a profile Gardener has not resolved waits for it", async () => {
    garden.put("Shoot", ofNamespacedProfile("both-fields", "1.30.5", true));
    await eventually(
      () => row("both-fields"),
      (r) => r?.namespacedCloudProfile === "test-profile" && r.earliestExpiry.getTime() > now + 250 * DAY,
    );

    garden.put("NamespacedCloudProfile", namespacedProfile(parent, "garden-dev", "fresh", [], { resolved: false }));
    const waiting = ofNamespacedProfile("waiting", "1.30.5");
    waiting.spec.cloudProfile = { kind: "NamespacedCloudProfile", name: "fresh" };
    garden.put("Shoot", waiting);
    // No merged spec yet: Gardener has none either. The shoot is listed under no profile, with no expiry.
    const unresolved = await eventually(
      () => row("waiting"),
      (r) => r !== null,
    );
    expect(unresolved).toMatchObject({
      cloudProfile: "",
      namespacedCloudProfile: "fresh",
      earliestExpiryVersion: null,
    });

    garden.update("NamespacedCloudProfile", "garden-dev", "fresh", (p) => {
      p.status = namespacedProfile(parent, "garden-dev", "fresh", []).status;
    });
    const resolved = await eventually(
      () => row("waiting"),
      (r) => r?.cloudProfile === "test-profile",
    );
    expect(resolved?.earliestExpiry.getTime()).toBe(Date.parse(parent.spec.kubernetes.versions[1].expirationDate!));
  });

  test("a deleted namespaced profile leaves its shoots without a profile, and its row goes", async () => {
    garden.remove("NamespacedCloudProfile", "garden-dev", "fresh");
    await eventually(
      () => row("waiting"),
      (r) => r?.cloudProfile === "" && r.earliestExpiryVersion === null,
    );
    expect((await database.db.namespacedCloudProfile.findMany({ select: { name: true } })).map((p) => p.name)).toEqual([
      "test-profile",
    ]);
  });
});
