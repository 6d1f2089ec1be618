// Constraints from what runs in each shoot: computed when the landscape is written, shown in
// status.constraints, and hibernation refused while HibernationPossible is False.
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
function uidWithInventory(kind: number): string {
  for (let i = 0; ; i++) {
    const uid = `10000000-0000-4000-8000-${String(i).padStart(12, "0")}`;
    if (crc32(`inventory|${uid}`) % 8 === kind) return uid;
  }
}

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
  const landscape = smallLandscape(Date.now(), 2);
  landscape.shoots[0].metadata.uid = uidWithInventory(0);
  landscape.shoots[1].metadata.uid = uidWithInventory(3);
  await seedLandscape(database.db, landscape, { actor: "test", now: Date.now() });
});
afterAll(async () => database?.drop());

const statusOf = async (name: string) =>
  (await database.db.shoot.findUniqueOrThrow({ where: { namespace_name: { namespace: "garden-dev", name } } }))
    .status as Shoot["status"];
const hibernate = (name: string) =>
  updateShootFromPatch(
    embeddedShootWrites(database.db, () => undefined),
    {
      namespace: "garden-dev",
      name,
      body: { spec: { hibernation: { enabled: true } } },
      ifMatch: null,
      actor: "alice",
      requestId: "h",
      now: Date.now(),
    },
  );

describe("constraints", () => {
  it("are computed from the shoot's webhooks and shown in status.constraints", async () => {
    const bad = await statusOf("cluster-0");
    expect(bad?.constraints?.find((c) => c.type === "HibernationPossible")).toMatchObject({
      status: "False",
      reason: "ProblematicWebhooks",
      codes: ["ERR_PROBLEMATIC_WEBHOOK"],
    });
    expect(bad?.constraints?.find((c) => c.type === "HibernationPossible")?.message).toMatch(
      /MutatingWebhookConfiguration "istio-sidecar-injector"/,
    );
    expect(bad?.constraints?.find((c) => c.type === "MaintenancePreconditionsSatisfied")?.status).toBe("False");
    const good = await statusOf("cluster-1");
    expect(good?.constraints?.find((c) => c.type === "HibernationPossible")?.status).toBe("True");
    const inventory = await findInventory(database.db, "garden-dev", "cluster-0");
    expect(inventory?.webhookConfigurations.map((w) => w.metadata.name)).toContain("istio-sidecar-injector");
  });

  it("keep a shoot with problematic webhooks from hibernating (422), but not the others", async () => {
    await expect(hibernate("cluster-0")).rejects.toMatchObject({
      status: 422,
      errors: [
        expect.objectContaining({
          field: "spec.hibernation.enabled",
          type: "Forbidden",
          detail: expect.stringMatching(/HibernationPossible is False/),
        }),
      ],
    });
    const ok = await hibernate("cluster-1");
    expect(ok.spec.hibernation?.enabled).toBe(true);
  });
});
