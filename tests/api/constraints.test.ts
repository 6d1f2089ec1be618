// Constraints from what runs in each shoot, as Gardener's care controller writes them when the
// landscape is written (pkg/gardenlet/controller/shoot/care/constraints.go), and hibernation
// refused unless HibernationPossible is True, as gardener-apiserver's shoot validator does
// (plugin/pkg/shoot/validator/admission.go validateShootHibernation): through the PATCH use case.
import { shootPatchSchema } from "../../lib/api/shoot-patch.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { crc32 } from "../../lib/engine/crc32.ts";
import { findInventory } from "../../lib/store/inventories.ts";
import type { Shoot } from "../../lib/gardener/types.ts";
import { seedLandscape } from "../../lib/server/seed-landscape.ts";
import { updateShootFromPatch } from "../../lib/server/update-shoot.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { smallLandscape } from "../support/small-landscape.ts";
import { embeddedShootWrites } from "../../lib/garden/embedded/embedded-shoot-writes.ts";

/** A uid whose demo inventory draws webhook pattern `kind` (0: a Fail pod injector, 3: well behaved). */
function uidWithInventory(kind: number, from = 0): string {
  for (let i = from; ; i++) {
    const uid = `10000000-0000-4000-8000-${String(i).padStart(12, "0")}`;
    if (crc32(`inventory|${uid}`) % 8 === kind) return uid;
  }
}

const PROBLEM =
  'MutatingWebhookConfiguration "istio-sidecar-injector" is problematic: webhook "sidecar-injector.istio.io" with failurePolicy "Fail" and 10s timeout might prevent worker nodes from properly joining the shoot cluster';
const HOUR = 3_600_000;

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
  const now = Date.now();
  const landscape = smallLandscape(now, 5);
  const [bad, good, asleep, creating, lost] = landscape.shoots;
  bad.metadata.uid = uidWithInventory(0);
  good.metadata.uid = uidWithInventory(3);
  // Hibernated, with the same bad webhooks: not checked.
  asleep.metadata.uid = uidWithInventory(0, 1000);
  asleep.spec.hibernation = { enabled: true };
  asleep.status = { ...asleep.status, hibernated: true };
  // Being created: no API server yet.
  creating.metadata.uid = uidWithInventory(3, 1000);
  creating.status = { ...creating.status, lastOperation: { type: "Create", state: "Processing", progress: 30 } };
  // On a seed whose gardenlet stopped sending heartbeats an hour ago.
  lost.metadata.uid = uidWithInventory(3, 2000);
  lost.spec.seedName = "seed-lost";
  lost.status = { ...lost.status, seedName: "seed-lost" };
  landscape.seeds.push({
    metadata: { name: "seed-lost" },
    spec: { provider: { type: "aws", region: "eu-west-1" } },
    status: {
      conditions: [
        { type: "GardenletReady", status: "Unknown", lastTransitionTime: new Date(now - HOUR).toISOString() },
      ],
    },
  });
  await seedLandscape(database.db, landscape, { actor: "test", now });
});
afterAll(async () => database?.drop());

const constraintsOf = async (name: string) =>
  (
    (await database.db.shoot.findUniqueOrThrow({ where: { namespace_name: { namespace: "garden-dev", name } } }))
      .status as Shoot["status"]
  )?.constraints ?? [];
const summary = async (name: string) => (await constraintsOf(name)).map((c) => [c.type, c.status, c.reason]);
const patch = (name: string, body: unknown) =>
  updateShootFromPatch(
    embeddedShootWrites(database.db, () => undefined),
    {
      namespace: "garden-dev",
      name,
      body: shootPatchSchema.parse(body),
      ifMatch: null,
      actor: "alice",
      requestId: "h",
      identity: { kind: "almanac" as const },
      now: Date.now(),
    },
  );
const hibernate = (name: string) => patch(name, { spec: { hibernation: { enabled: true } } });

describe("constraints, as the care controller writes them (Gardener care/constraints.go)", () => {
  it("are computed from the shoot's webhooks: the first problematic one, in Gardener's words", async () => {
    const bad = await constraintsOf("cluster-0");
    for (const type of ["HibernationPossible", "MaintenancePreconditionsSatisfied"])
      expect(bad.find((c) => c.type === type)).toMatchObject({
        status: "False",
        reason: "ProblematicWebhooks",
        message: PROBLEM,
        codes: ["ERR_PROBLEMATIC_WEBHOOK"],
      });
    expect(await summary("cluster-1")).toEqual([
      ["HibernationPossible", "True", "NoProblematicWebhooks"],
      ["MaintenancePreconditionsSatisfied", "True", "NoProblematicWebhooks"],
    ]);
    const inventory = await findInventory(database.db, "garden-dev", "cluster-0");
    expect(inventory?.webhookConfigurations.map((w) => w.metadata.name)).toContain("istio-sidecar-injector");
  });

  it("are not checked for a hibernated shoot (shootHibernatedConstraints)", async () => {
    expect(await summary("cluster-2")).toEqual([
      ["HibernationPossible", "True", "ConstraintNotChecked"],
      ["MaintenancePreconditionsSatisfied", "True", "ConstraintNotChecked"],
      ["CACertificateValiditiesAcceptable", "True", "ConstraintNotChecked"],
      ["CRDsWithProblematicConversionWebhooks", "True", "ConstraintNotChecked"],
    ]);
  });

  it("are not checked while the API server does not run, and pardoned during the creation", async () => {
    expect(await summary("cluster-3")).toEqual([
      ["HibernationPossible", "Progressing", "ConstraintNotChecked"],
      ["MaintenancePreconditionsSatisfied", "Progressing", "ConstraintNotChecked"],
    ]);
  });

  it("are Unknown once the seed's gardenlet stopped sending heartbeats (gardenletlifecycle setShootStatusToUnknown)", async () => {
    const constraints = await constraintsOf("cluster-4");
    expect(constraints.map((c) => [c.type, c.status, c.reason, c.message])).toEqual([
      ["HibernationPossible", "Unknown", "StatusUnknown", "Gardenlet stopped sending heartbeats."],
      ["MaintenancePreconditionsSatisfied", "Unknown", "StatusUnknown", "Gardenlet stopped sending heartbeats."],
    ]);
  });
});

describe("hibernating through PATCH (Gardener shoot validator, validateShootHibernation)", () => {
  it("is refused (422) while HibernationPossible is False, with the constraint's message", async () => {
    const refused = hibernate("cluster-0");
    await expect(refused).rejects.toMatchObject({
      code: "unprocessable",
      message:
        "Shoot garden-dev/cluster-0 cannot be hibernated now: its HibernationPossible constraint is False " +
        `(${PROBLEM}). Gardener hibernates a shoot only while that constraint is True.`,
      errors: [
        {
          field: "spec.hibernation.enabled",
          type: "Forbidden",
          detail: `'HibernationPossible' constraint is 'False': ${PROBLEM}`,
        },
      ],
    });
    expect((await constraintsOf("cluster-0")).length).toBeGreaterThan(0);
  });

  it("is refused while HibernationPossible is Progressing or Unknown too", async () => {
    await expect(hibernate("cluster-3")).rejects.toMatchObject({
      code: "unprocessable",
      errors: [
        expect.objectContaining({
          detail:
            "'HibernationPossible' constraint is 'Progressing': Shoot control plane is not running at the moment.",
        }),
      ],
    });
    await expect(hibernate("cluster-4")).rejects.toMatchObject({
      code: "unprocessable",
      errors: [
        expect.objectContaining({
          detail: "'HibernationPossible' constraint is 'Unknown': Gardenlet stopped sending heartbeats.",
        }),
      ],
    });
  });

  it("is accepted while HibernationPossible is True, and waking up is never refused", async () => {
    const asleep = await hibernate("cluster-1");
    expect(asleep.spec.hibernation?.enabled).toBe(true);
    const awake = await patch("cluster-1", { spec: { hibernation: { enabled: false } } });
    expect(awake.spec.hibernation?.enabled).toBe(false);
  });

  it("other changes to a shoot that may not hibernate go through", async () => {
    const changed = await patch("cluster-0", { spec: { maintenance: { autoUpdate: { kubernetesVersion: false } } } });
    expect(changed.spec.maintenance?.autoUpdate?.kubernetesVersion).toBe(false);
  });
});
