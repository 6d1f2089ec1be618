// The live mirror checks each cloud profile it reads against the lifecycle rules of Gardener's CloudProfile
// validation and names the fields that break them; the profile is mirrored as it is.
import { KubeConfig } from "@kubernetes/client-node";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { startGardenMirror, type RunningMirror } from "../../lib/garden/kubernetes/garden-mirror.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { eventually, putLandscape } from "../support/garden-landscape.ts";
import { smallLandscape } from "../support/small-landscape.ts";
import { type StandInGarden, startStandInGarden } from "../support/stand-in-garden.ts";

let garden: StandInGarden;
let database: TestDatabase;
const mirrors: RunningMirror[] = [];
const logs: string[] = [];

const mirror = () => {
  const kc = new KubeConfig();
  kc.loadFromFile(garden.writeKubeconfig());
  const running = startGardenMirror(database.db, kc, {
    holder: "profile-validation",
    leaseMs: 1_500,
    log: (line) => logs.push(line),
    backoff: { initialMs: 50, maxMs: 500 },
  });
  mirrors.push(running);
  return running;
};

const badProfile = {
  apiVersion: "core.gardener.cloud/v1beta1",
  kind: "CloudProfile",
  metadata: { name: "odd-lifecycles" },
  spec: {
    type: "aws",
    kubernetes: {
      versions: [
        { version: "1.32.1" },
        {
          version: "1.31.4",
          expirationDate: "2027-06-01T00:00:00Z",
          lifecycle: [{ classification: "supported" }],
        },
        {
          version: "1.31.3",
          lifecycle: [
            { classification: "unavailable" },
            { classification: "deprecated", startTime: "2026-06-01T00:00:00Z" },
            { classification: "supported", startTime: "2026-01-01T00:00:00Z" },
          ],
        },
      ],
    },
  },
};

beforeAll(async () => {
  garden = await startStandInGarden({ bookmarkIntervalMs: 200 });
  database = await createTestDatabase();
  putLandscape(garden, smallLandscape(Date.now(), 2));
});

afterEach(async () => {
  await Promise.all(mirrors.splice(0).map((m) => m.stop()));
  logs.length = 0;
});

afterAll(async () => {
  await database?.drop();
  await garden?.close();
});

describe("cloud profiles read by the live mirror", () => {
  test("a profile breaking the lifecycle rules is mirrored, with each failing field named in the log", async () => {
    garden.put("CloudProfile", badProfile);
    const running = mirror();
    await running.synced();
    const line = await eventually(
      () => logs.find((l) => l.startsWith("CloudProfile odd-lifecycles ")),
      (l) => l !== undefined,
    );
    const path = "spec.kubernetes.versions";
    expect(line).toContain(
      `${path}[1]: Forbidden (classification and expirationDate cannot be combined with a lifecycle)`,
    );
    expect(line).toContain(`${path}[2].lifecycle[0].classification: NotSupported`);
    expect(line).toContain(`${path}[2].lifecycle[2].classification: Invalid`);
    expect(line).toContain(`${path}[2].lifecycle[2]: Invalid (lifecycle start times must not decrease)`);
    expect(await database.db.cloudProfile.findUnique({ where: { name: "odd-lifecycles" } })).not.toBeNull();
    // The valid profiles of the landscape are read without a word.
    expect(logs.filter((l) => l.includes("does not pass"))).toHaveLength(1);
  });
});
