import { describe, expect, it } from "vitest";
import type { Project, Seed, Shoot } from "../gardener/types.ts";
import { shoot as buildShoot } from "../../tests/support/builders.ts";
import { migrationRefusals, seedCandidates } from "./migration-admission.ts";

function seed(name: string, options: { ready?: boolean; taints?: Seed["spec"]["taints"] } = {}): Seed {
  return {
    metadata: { name },
    spec: { provider: { type: "aws", region: "eu-west-1" }, ...(options.taints ? { taints: options.taints } : {}) },
    status: {
      conditions: [
        { type: "GardenletReady", status: options.ready === false ? "False" : "True" },
        { type: "SeedSystemComponentsHealthy", status: "True" },
      ],
    },
  };
}

const seeds = new Map([
  ["aws-eu1", seed("aws-eu1")],
  ["aws-eu2", seed("aws-eu2")],
  ["broken", seed("broken", { ready: false })],
  ["payments-only", seed("payments-only", { taints: [{ key: "dedicated", value: "payments" }] })],
  ["protected", seed("protected", { taints: [{ key: "seed.gardener.cloud/protected" }] })],
]);

function onSeed(name = "aws-eu1", extra: Partial<Shoot["spec"]> = {}): Shoot {
  const s = buildShoot("1.31.2");
  s.spec = { ...s.spec, seedName: name, ...extra };
  s.status = { ...s.status, seedName: name, lastOperation: { type: "Reconcile", state: "Succeeded", progress: 100 } };
  return s;
}

const project = (tolerations?: Project["spec"]["tolerations"]): Project => ({
  metadata: { name: "dev" },
  spec: { namespace: "garden-dev", ...(tolerations ? { tolerations } : {}) },
});

const details = (shoot: Shoot, to: string, p?: Project) => migrationRefusals(shoot, to, seeds, p).map((r) => r.detail);

describe("migrationRefusals", () => {
  it("accepts a ready, untainted destination", () => {
    expect(migrationRefusals(onSeed(), "aws-eu2", seeds, project())).toEqual([]);
  });

  it("refuses a shoot that was never successfully created", () => {
    const s = onSeed();
    delete s.status!.seedName;
    expect(migrationRefusals(s, "aws-eu2", seeds, project())).toEqual([
      expect.objectContaining({ field: "status.seedName", type: "Forbidden" }),
    ]);
  });

  it("refuses the same seed, an unknown seed and a seed that is not ready", () => {
    expect(details(onSeed(), "aws-eu1")).toEqual(['the control plane already runs on seed "aws-eu1"']);
    expect(
      migrationRefusals(
        onSeed(),
        "gcp-eu1",
        new Map([
          ...seeds,
          ["gcp-eu1", { ...seed("gcp-eu1"), spec: { provider: { type: "gcp", region: "europe-west1" } } }],
        ]),
        project(),
      ),
    ).toEqual([
      expect.objectContaining({
        detail:
          "cannot change seed because cloud provider for new seed (gcp) is not equal to cloud provider for old seed (aws)",
      }),
    ]);
    expect(migrationRefusals(onSeed(), "nowhere", seeds, project())).toEqual([
      expect.objectContaining({ type: "NotFound", detail: 'seed "nowhere" does not exist' }),
    ]);
    expect(details(onSeed(), "broken")).toEqual(['seed "broken" is not ready (GardenletReady is False)']);
  });

  it("refuses taints the shoot does not tolerate, counting the project's defaults for keys it does not set", () => {
    expect(details(onSeed(), "payments-only", project())).toEqual([
      'seed "payments-only" has taint "dedicated=payments", which the shoot does not tolerate',
    ]);
    // The project's default toleration is every shoot's.
    expect(
      details(onSeed(), "payments-only", project({ defaults: [{ key: "dedicated", value: "payments" }] })),
    ).toEqual([]);
    // The shoot's own toleration counts (the whitelist restricts only tolerations a user adds).
    expect(
      details(
        onSeed("aws-eu1", { tolerations: [{ key: "dedicated", value: "payments" }] }),
        "payments-only",
        project(),
      ),
    ).toEqual([]);
    // A default for a key the shoot sets itself does not apply: the shoot's own wins.
    const other = onSeed("aws-eu1", { tolerations: [{ key: "dedicated", value: "analytics" }] });
    expect(
      details(other, "payments-only", project({ defaults: [{ key: "dedicated", value: "payments" }] })),
    ).toHaveLength(1);
    // A taint with a value needs a toleration with that value; one without value is not enough.
    expect(
      details(onSeed("aws-eu1", { tolerations: [{ key: "dedicated" }] }), "payments-only", project()),
    ).toHaveLength(1);
    // A taint without value is tolerated by its key.
    expect(
      details(onSeed("aws-eu1", { tolerations: [{ key: "seed.gardener.cloud/protected" }] }), "protected", project()),
    ).toEqual([]);
  });

  it("lists every reason at once", () => {
    const migrating = onSeed();
    migrating.spec.seedName = "aws-eu2";
    expect(details(migrating, "broken")).toEqual([
      'a control plane migration to "aws-eu2" is under way; wait until it has finished',
      'seed "broken" is not ready (GardenletReady is False)',
    ]);
  });

  it("does not count a Failed migration as under way", () => {
    const failed = onSeed();
    failed.spec.seedName = "aws-eu2";
    failed.status!.lastOperation = { type: "Migrate", state: "Failed", progress: 30 };
    expect(details(failed, "aws-eu2")).toEqual([]);
  });

  it("refuses while another operation runs: a migration or a deletion", () => {
    const migrating = onSeed();
    migrating.spec.seedName = "aws-eu2";
    expect(details(migrating, "payments-only")[0]).toMatch(/migration to "aws-eu2" is under way/);
    const restoring = onSeed();
    restoring.status!.lastOperation = { type: "Restore", state: "Processing", progress: 40 };
    expect(details(restoring, "aws-eu2")[0]).toMatch(/migration is under way \(Restore Processing\)/);
    const deleting = onSeed();
    deleting.metadata.deletionTimestamp = "2026-11-22T00:00:00Z";
    expect(details(deleting, "aws-eu2")[0]).toMatch(/being deleted/);
  });
});

describe("seedCandidates", () => {
  it("lists every seed with readiness and why the shoot cannot move there", () => {
    const candidates = seedCandidates(onSeed(), [...seeds.values()], project());
    const byName = Object.fromEntries(candidates.map((c) => [c.name, c]));
    expect(byName["aws-eu1"]).toMatchObject({ current: true, ready: true });
    expect(byName["aws-eu2"]).toMatchObject({ current: false, ready: true, reasons: [] });
    expect(byName.broken).toMatchObject({ ready: false });
    expect(byName["payments-only"].reasons[0]).toMatch(/does not tolerate/);
  });
});
