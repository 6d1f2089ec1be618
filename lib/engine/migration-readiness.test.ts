// The ShootReadyForMigration constraint: pkg/controllermanager/controller/shoot/migration
// (Reconciler.Reconcile) on top of health.CheckSeedForMigration (pkg/utils/kubernetes/health/seed.go).
import { describe, expect, it } from "vitest";
import type { Seed } from "../gardener/types.ts";
import { checkSeedForMigration, shootReadyForMigration, waitingForDestination } from "./migration-readiness.ts";

function seed(change: (s: Seed) => void = () => {}): Seed {
  const s: Seed = {
    metadata: { name: "destination", generation: 2 },
    spec: { provider: { type: "aws", region: "eu-west-1" } },
    status: {
      gardener: { version: "v1.121.2" },
      observedGeneration: 2,
      conditions: [
        { type: "GardenletReady", status: "True" },
        { type: "SeedSystemComponentsHealthy", status: "True" },
      ],
    },
  };
  change(s);
  return s;
}
const source = { version: "v1.121.2" };

describe("health.CheckSeedForMigration", () => {
  it("accepts an up-to-date seed with both required conditions True (others do not count)", () => {
    expect(checkSeedForMigration(seed(), source)).toBeUndefined();
    expect(
      checkSeedForMigration(
        seed((s) => s.status!.conditions!.push({ type: "BackupBucketsReady", status: "False" })),
        source,
      ),
    ).toBeUndefined();
  });

  it("refuses missing version information, another Gardener version, an outdated observed generation", () => {
    expect(
      checkSeedForMigration(
        seed((s) => delete s.status!.gardener),
        source,
      ),
    ).toBe("missing Gardener version information on source or destination seed");
    expect(checkSeedForMigration(seed(), undefined)).toBe(
      "missing Gardener version information on source or destination seed",
    );
    expect(checkSeedForMigration(seed(), { version: "v1.122.0" })).toBe(
      "observing Gardener version not up to date (v1.121.2/v1.122.0)",
    );
    expect(
      checkSeedForMigration(
        seed((s) => (s.status!.observedGeneration = 1)),
        source,
      ),
    ).toBe("observed generation outdated (1/2)");
  });

  it("names a missing condition before a False one, and a False one with its reason and message", () => {
    expect(
      checkSeedForMigration(
        seed((s) => (s.status!.conditions = [{ type: "GardenletReady", status: "False", reason: "R", message: "M" }])),
        source,
      ),
    ).toBe('condition "SeedSystemComponentsHealthy" is missing');
    expect(
      checkSeedForMigration(
        seed(
          (s) =>
            (s.status!.conditions![1] = {
              type: "SeedSystemComponentsHealthy",
              status: "False",
              reason: "DeploymentUnhealthy",
              message: "istio-ingressgateway is unhealthy",
            }),
        ),
        source,
      ),
    ).toBe(
      'condition "SeedSystemComponentsHealthy" has invalid status False (expected True) due to DeploymentUnhealthy: istio-ingressgateway is unhealthy',
    );
  });
});

describe("the shoot migration controller's ShootReadyForMigration constraint", () => {
  const from = seed((s) => (s.metadata.name = "source"));

  it("is True with DestinationSeedReady for a fit destination", () => {
    expect(shootReadyForMigration(from, seed())).toEqual({
      status: "True",
      reason: "DestinationSeedReady",
      message: "Destination seed cluster is ready for the shoot migration",
    });
  });

  it("is False with DestinationSeedInDeletion or DestinationSeedUnready, and unknown when a seed cannot be read", () => {
    expect(
      shootReadyForMigration(
        from,
        seed((s) => (s.metadata.deletionTimestamp = "2026-01-01T00:00:00Z")),
      ),
    ).toEqual({
      status: "False",
      reason: "DestinationSeedInDeletion",
      message: "Seed is being deleted",
    });
    expect(
      shootReadyForMigration(
        from,
        seed((s) => (s.status!.observedGeneration = 0)),
      ),
    ).toMatchObject({
      status: "False",
      reason: "DestinationSeedUnready",
      message: "observed generation outdated (0/2)",
    });
    expect(shootReadyForMigration(undefined, seed())).toBeUndefined();
  });

  it("the gardenlet's words while it waits (reconciler.go, migrateShoot)", () => {
    expect(waitingForDestination("my-shoot", undefined)).toBe(
      "waiting for confirmation that destination Seed is available to host the control plane of Shoot my-shoot",
    );
    expect(
      waitingForDestination("my-shoot", {
        status: "False",
        reason: "DestinationSeedInDeletion",
        message: "Seed is being deleted",
      }),
    ).toBe("destination Seed is not available to host the control plane of Shoot my-shoot: Seed is being deleted");
  });
});
