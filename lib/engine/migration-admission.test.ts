// Gardener's admission of a migration, case by case. The cases follow Gardener's own tests in
// plugin/pkg/shoot/validator/admission_test.go where there are some (named after them), and the
// functions in plugin/pkg/shoot/validator/admission.go and pkg/apis/core/v1beta1/helper where not.
import { describe, expect, it } from "vitest";
import type { CloudProfile, Seed, Shoot } from "../gardener/types.ts";
import { shoot as buildShoot, worker } from "../../tests/support/builders.ts";
import {
  accessRestrictionsAreSupported,
  blockingOperation,
  describeBlockingOperation,
  calculateSeedUsage,
  deletionRefusal,
  isShootInMigrationOrRestorePhase,
  migrationRefusals,
  type MigrationRequest,
  seedCandidates,
  shootOnSeedRefusals,
  specChangeRefusal,
  taintsAreTolerated,
  wasShootRescheduledToNewSeed,
} from "./migration-admission.ts";

// Gardener's test fixture (admission_test.go): the seed "seed" with backup and its networks, a
// shoot "shoot" on it with disjoint networks, and the destination "new-seed" alike.
function seed(name: string, change: (s: Seed) => void = () => {}): Seed {
  const s: Seed = {
    metadata: { name, generation: 1 },
    spec: {
      provider: { type: "aws", region: "eu-west-1" },
      backup: { provider: "aws" },
      networks: { pods: "10.241.128.0/17", services: "10.241.0.0/17", nodes: "10.240.0.0/16" },
    },
    status: {
      gardener: { version: "v1.121.2" },
      observedGeneration: 1,
      conditions: [
        { type: "GardenletReady", status: "True" },
        { type: "SeedSystemComponentsHealthy", status: "True" },
      ],
    },
  };
  change(s);
  return s;
}

function onSeed(change: (s: Shoot) => void = () => {}): Shoot {
  const s = buildShoot("1.31.2", { workers: [worker("pool-a", "gardenlinux", "1592.4.0")] });
  s.metadata = { ...s.metadata, name: "shoot", namespace: "garden-my-project" };
  s.spec = {
    ...s.spec,
    seedName: "seed",
    networking: { nodes: "10.250.0.0/16", pods: "100.96.0.0/11", services: "100.64.0.0/13" },
  };
  s.status = { ...s.status, seedName: "seed", lastOperation: { type: "Reconcile", state: "Succeeded", progress: 100 } };
  change(s);
  return s;
}

const seeds = (...list: Seed[]) => new Map(list.map((s) => [s.metadata.name, s]));
const request = (over: Partial<MigrationRequest> = {}): MigrationRequest => ({
  shoot: onSeed(),
  destination: "new-seed",
  seeds: seeds(seed("seed"), seed("new-seed")),
  ...over,
});
const details = (over: Partial<MigrationRequest> = {}) => migrationRefusals(request(over)).map((r) => r.detail);

describe("admission.go isShootInMigrationOrRestorePhase and wasShootRescheduledToNewSeed", () => {
  const withOp = (type: string, state: string, spec = "seed", status = "seed") =>
    onSeed((s) => {
      s.spec.seedName = spec;
      s.status = { ...s.status, seedName: status, lastOperation: { type, state } };
    });

  it("isShootInMigrationOrRestorePhase: Migrate in every state, Failed included, and Restore until Succeeded", () => {
    for (const state of ["Processing", "Error", "Failed", "Succeeded", "Aborted"])
      expect(isShootInMigrationOrRestorePhase(withOp("Migrate", state)), `Migrate ${state}`).toBe(true);
    for (const state of ["Processing", "Error", "Failed"])
      expect(isShootInMigrationOrRestorePhase(withOp("Restore", state)), `Restore ${state}`).toBe(true);
    expect(isShootInMigrationOrRestorePhase(withOp("Restore", "Succeeded"))).toBe(false);
    expect(isShootInMigrationOrRestorePhase(withOp("Reconcile", "Failed"))).toBe(false);
    expect(isShootInMigrationOrRestorePhase(onSeed((s) => delete s.status!.lastOperation))).toBe(false);
  });

  it("wasShootRescheduledToNewSeed: spec.seedName changed, the Migrate operation not begun", () => {
    expect(wasShootRescheduledToNewSeed(withOp("Reconcile", "Succeeded", "new-seed", "seed"))).toBe(true);
    expect(wasShootRescheduledToNewSeed(withOp("Migrate", "Processing", "new-seed", "seed"))).toBe(false);
    expect(wasShootRescheduledToNewSeed(withOp("Reconcile", "Succeeded"))).toBe(false);
    expect(wasShootRescheduledToNewSeed(onSeed((s) => delete s.status!.lastOperation))).toBe(false);
  });

  it("validateScheduling refuses spec changes in both states, with Gardener's messages", () => {
    expect(specChangeRefusal(withOp("Migrate", "Failed", "new-seed"))).toBe(
      "cannot change shoot spec during Migrate operation that is in state Failed",
    );
    expect(specChangeRefusal(withOp("Restore", "Processing", "new-seed", "new-seed"))).toBe(
      "cannot change shoot spec during Restore operation that is in state Processing",
    );
    expect(specChangeRefusal(withOp("Reconcile", "Succeeded", "new-seed"))).toBe(
      "shoot spec cannot be changed because shoot has been rescheduled to a new seed",
    );
    expect(specChangeRefusal(withOp("Restore", "Succeeded", "new-seed", "new-seed"))).toBeUndefined();
  });

  it("validateDeletion refuses a deletion during Migrate or an unfinished Restore, not while only rescheduled", () => {
    expect(deletionRefusal(withOp("Migrate", "Failed", "new-seed"))).toBe(
      "cannot mark shoot for deletion during Migrate operation that is in state Failed",
    );
    expect(deletionRefusal(withOp("Restore", "Error", "new-seed", "new-seed"))).toBe(
      "cannot mark shoot for deletion during Restore operation that is in state Error",
    );
    expect(deletionRefusal(withOp("Reconcile", "Succeeded", "new-seed"))).toBeUndefined();
    expect(deletionRefusal(withOp("Restore", "Succeeded", "new-seed", "new-seed"))).toBeUndefined();
  });

  it("blockingOperation counts a Failed migration as under way (it was treated as finished before)", () => {
    expect(blockingOperation(withOp("Migrate", "Failed", "new-seed"))).toMatchObject({
      code: "Migrating",
      type: "Migrate",
      state: "Failed",
    });
    expect(blockingOperation(withOp("Reconcile", "Succeeded", "new-seed"))).toMatchObject({
      code: "Migrating",
      destination: "new-seed",
    });
    expect(blockingOperation(withOp("Restore", "Succeeded", "new-seed", "new-seed"))).toBeUndefined();
    expect(describeBlockingOperation(blockingOperation(withOp("Migrate", "Failed", "new-seed"))!)).toBe(
      "the control plane migration failed (Migrate Failed) and waits for a retry",
    );
  });

  it("blockingOperation reads a live control-plane migration (LiveMigrate) as a migration under way, by name", () => {
    // Gardener's LiveMigrate ends with status.seedName on the destination: until then it is a migration.
    const live = withOp("LiveMigrate", "Processing", "new-seed", "new-seed");
    expect(blockingOperation(live)).toMatchObject({ code: "Migrating", type: "LiveMigrate", state: "Processing" });
    expect(describeBlockingOperation(blockingOperation(live)!)).toBe(
      "a live control plane migration is under way (LiveMigrate Processing)",
    );
    expect(blockingOperation(withOp("LiveMigrate", "Succeeded", "new-seed", "new-seed"))).toBeUndefined();
  });
});

describe("admission.go validateScheduling for a new spec.seedName (shoots/binding)", () => {
  it("admits a move to a seed with backup, as Gardener's 'should not forbid changing the seedName ... if the subresource is binding'", () => {
    expect(migrationRefusals(request())).toEqual([]);
  });

  it("'should reject update of binding when ... the binding has the same seedName'", () => {
    expect(details({ destination: "seed" })).toEqual([
      "update of binding rejected, shoot is already assigned to the same seed",
    ]);
  });

  it("admits a destination of another provider type: Gardener removed that rule (docs/operations/control_plane_migration.md)", () => {
    const gcp = seed("new-seed", (s) => (s.spec.provider = { type: "gcp", region: "europe-west1" }));
    expect(details({ seeds: seeds(seed("seed"), gcp) })).toEqual([]);
  });

  it("refuses a seed that does not exist, as the seed lister's error", () => {
    expect(migrationRefusals(request({ destination: "nowhere" }))).toEqual([
      expect.objectContaining({
        type: "NotFound",
        detail: 'could not find referenced seed "nowhere": seed.core.gardener.cloud "nowhere" not found',
      }),
    ]);
  });

  it("'should reject update of binding, because new Seed doesn't have configuration for backup' / old Seed", () => {
    const noBackup = (name: string) => seed(name, (s) => delete s.spec.backup);
    expect(details({ seeds: seeds(seed("seed"), noBackup("new-seed")) })).toEqual([
      'cannot change seed name because backup is not configured for seed "new-seed"',
    ]);
    expect(details({ seeds: seeds(noBackup("seed"), seed("new-seed")) })).toEqual([
      'cannot change seed name because backup is not configured for old seed "seed"',
    ]);
  });

  it("'should reject creating a shoot on a seed which is marked for deletion', for the destination", () => {
    const deleting = seed("new-seed", (s) => (s.metadata.deletionTimestamp = "2026-11-22T00:00:00Z"));
    expect(details({ seeds: seeds(seed("seed"), deleting) })).toEqual([
      "cannot schedule shoot 'shoot' on seed 'new-seed' that is already marked for deletion",
    ]);
  });

  it("taints and tolerations: 'should fail because the Seed ... has non-tolerated taints' and pass when tolerated", () => {
    const protectedSeed = seed("new-seed", (s) => (s.spec.taints = [{ key: "seed.gardener.cloud/protected" }]));
    const all = seeds(seed("seed"), protectedSeed);
    expect(details({ seeds: all })).toEqual(["forbidden to use a seed whose taints are not tolerated by the shoot"]);
    const tolerating = onSeed((s) => (s.spec.tolerations = [{ key: "seed.gardener.cloud/protected" }]));
    expect(details({ seeds: all, shoot: tolerating })).toEqual([]);
  });

  it("the shoot's own tolerations count, not the project's defaults (Gardener copies those into the spec at creation)", () => {
    const payments = seed("new-seed", (s) => (s.spec.taints = [{ key: "dedicated", value: "payments" }]));
    expect(details({ seeds: seeds(seed("seed"), payments) })).toHaveLength(1);
    const tolerating = onSeed((s) => (s.spec.tolerations = [{ key: "dedicated", value: "payments" }]));
    expect(details({ seeds: seeds(seed("seed"), payments), shoot: tolerating })).toEqual([]);
  });

  it("v1beta1 helper TaintsAreTolerated: key, value, and never more taints than tolerations", () => {
    expect(taintsAreTolerated([], [])).toBe(true);
    expect(taintsAreTolerated([{ key: "foo" }], [])).toBe(false);
    expect(taintsAreTolerated([{ key: "foo" }], [{ key: "foo", value: "bar" }])).toBe(true);
    expect(taintsAreTolerated([{ key: "foo", value: "bar" }], [{ key: "foo" }])).toBe(false);
    expect(taintsAreTolerated([{ key: "foo", value: "bar" }], [{ key: "foo", value: "bar" }])).toBe(true);
    // helper_test.go "tolerations > taints"
    expect(
      taintsAreTolerated(
        [{ key: "foo" }, { key: "bar", value: "baz" }],
        [
          { key: "foo", value: "bar" },
          { key: "bar", value: "baz" },
          { key: "baz", value: "foo" },
        ],
      ),
    ).toBe(true);
    expect(taintsAreTolerated([{ key: "foo" }, { key: "bar" }], [{ key: "foo" }])).toBe(false);
  });

  it("'should reject seed migration because shoot access restrictions are not supported by the new seed'", () => {
    const shoot = onSeed((s) => (s.spec.accessRestrictions = [{ name: "foo" }]));
    const all = seeds(
      seed("seed", (s) => (s.spec.accessRestrictions = [{ name: "foo" }])),
      seed("new-seed", (s) => (s.spec.accessRestrictions = [{ name: "bar" }])),
    );
    expect(details({ shoot, seeds: all })).toEqual([
      "forbidden to use a seed which doesn't support the access restrictions of the shoot",
    ]);
    expect(accessRestrictionsAreSupported([{ name: "foo" }], [{ name: "foo" }])).toBe(true);
    expect(accessRestrictionsAreSupported([], [])).toBe(true);
  });

  describe("seed capacity (allocatable shoots: 1)", () => {
    const full = seed("new-seed", (s) => (s.status!.allocatable = { shoots: "1" }));
    const other = (spec?: string) =>
      onSeed((s) => {
        s.metadata.name = "other";
        s.spec.seedName = spec;
        s.status = { ...s.status, seedName: spec };
      });

    it("'should pass because seed allocatable capacity is not set'", () => {
      expect(details({ seedUsage: calculateSeedUsage([other("new-seed"), other("new-seed")]) })).toEqual([]);
    });

    it("'should pass because seed allocatable capacity is not exhausted' (other shoots on another seed or none)", () => {
      const usage = calculateSeedUsage([other("other-seed"), other(undefined)]);
      expect(details({ seeds: seeds(seed("seed"), full), seedUsage: usage })).toEqual([]);
    });

    it("'should reject because seed allocatable capacity is exhausted' and '... over-exhausted'", () => {
      const message =
        "cannot schedule shoot 'shoot' on seed 'new-seed' that already has the maximum number of shoots scheduled on it (1)";
      for (const usage of [
        calculateSeedUsage([other("new-seed")]),
        calculateSeedUsage([other("new-seed"), other("new-seed")]),
      ])
        expect(details({ seeds: seeds(seed("seed"), full), seedUsage: usage })).toEqual([message]);
    });

    it("v1beta1 helper CalculateSeedUsage counts spec.seedName, and status.seedName when it differs", () => {
      const moving = onSeed((s) => (s.spec.seedName = "new-seed"));
      expect(calculateSeedUsage([onSeed(), moving])).toEqual(
        new Map([
          ["seed", 2],
          ["new-seed", 1],
        ]),
      );
    });
  });

  describe("multi-zonal shoot scheduling checks on seed", () => {
    const ha = (type: "node" | "zone") =>
      onSeed((s) => (s.spec.controlPlane = { highAvailability: { failureTolerance: { type } } }));
    const zones = (n: number) =>
      seeds(
        seed("seed"),
        seed("new-seed", (s) => (s.spec.provider.zones = ["1", "2", "3"].slice(0, n))),
      );

    it("seed has less than 3 zones: allows non-HA and 'node', rejects 'zone'", () => {
      expect(details({ seeds: zones(2) })).toEqual([]);
      expect(details({ seeds: zones(2), shoot: ha("node") })).toEqual([]);
      expect(details({ seeds: zones(2), shoot: ha("zone") })).toEqual([
        "cannot schedule shoot 'shoot' with failure tolerance of zone on seed 'new-seed' with only 2 zones, at least 3 zones are required",
      ]);
    });

    it("seed has at least 3 zones: allows every shoot", () => {
      for (const shoot of [onSeed(), ha("node"), ha("zone")]) expect(details({ seeds: zones(3), shoot })).toEqual([]);
    });
  });

  describe("cloud profile's seed selector", () => {
    const profile = (seedSelector: NonNullable<CloudProfile["spec"]["seedSelector"]>): CloudProfile => ({
      metadata: { name: "profile" },
      spec: { kubernetes: { versions: [] }, seedSelector },
    });
    const labelled = (labels?: Record<string, string>, type = "aws") =>
      seeds(
        seed("seed"),
        seed("new-seed", (s) => {
          s.metadata.labels = labels;
          s.spec.provider.type = type;
        }),
      );

    it("'should reject ... when the cloud profile's seed selector is invalid'", () => {
      const refusals = migrationRefusals(
        request({
          seeds: labelled({ domain: "foo" }),
          cloudProfile: profile({
            matchExpressions: [{ key: "domain", operator: "invalid-operator", values: ["foo"] }],
          }),
        }),
      );
      expect(refusals).toEqual([
        {
          field: "spec.seedName",
          type: "InternalError",
          detail:
            'label selector conversion failed: {map[] [{domain invalid-operator [foo]}]} for seedSelector: "invalid-operator" is not a valid label selector operator',
        },
      ]);
    });

    it("'should allow updating the seedName to seed that matches the cloud profile's seed selector (w/ shoots/binding subresource)'", () => {
      const cloudProfile = profile({ matchLabels: { domain: "foo" } });
      expect(details({ seeds: labelled({ domain: "foo" }), cloudProfile })).toEqual([]);
    });

    it("'should reject updating the seedName to seed that does not match the cloud profile's seed selector'", () => {
      const cloudProfile = profile({ matchLabels: { domain: "foo" } });
      expect(details({ seeds: labelled(undefined), cloudProfile })).toEqual([
        "cannot schedule shoot 'shoot' on seed 'new-seed' because the cloud profile seed selector is not matching the labels of the seed",
      ]);
    });

    it("provider types: matching one of them (or '*') is allowed, none is refused", () => {
      expect(
        details({ seeds: labelled({}, "baz"), cloudProfile: profile({ providerTypes: ["foo", "bar", "baz"] }) }),
      ).toEqual([]);
      expect(details({ seeds: labelled({}, "baz"), cloudProfile: profile({ providerTypes: ["*"] }) })).toEqual([]);
      expect(details({ seeds: labelled({}, "baz"), cloudProfile: profile({ providerTypes: ["foo", "bar"] }) })).toEqual(
        [
          "cannot schedule shoot 'shoot' on seed 'new-seed' because none of the provider types in the cloud profile seed selector is matching the provider type of the seed",
        ],
      );
    });
  });

  describe("validateShootNetworks: a rescheduled shoot's networks against the new seed's (cidrvalidation.ValidateNetworkDisjointedness)", () => {
    it("admits disjoint networks (Gardener's fixture) and refuses overlaps, network by network", () => {
      expect(details()).toEqual([]);
      const overlapping = onSeed((s) => (s.spec.networking = { ...s.spec.networking, nodes: "10.241.0.0/16" }));
      expect(migrationRefusals(request({ shoot: overlapping }))).toEqual([
        {
          field: "spec.networking.nodes",
          type: "Invalid",
          detail: 'Invalid value: "10.241.0.0/16": shoot node network intersects with seed service network',
        },
        {
          field: "spec.networking.nodes",
          type: "Invalid",
          detail: 'Invalid value: "10.241.0.0/16": shoot node network intersects with seed pod network',
        },
      ]);
      const vpn = onSeed((s) => (s.spec.networking = { ...s.spec.networking, services: "192.168.0.0/16" }));
      expect(details({ shoot: vpn })).toEqual([
        'Invalid value: "192.168.0.0/16": shoot service network intersects with default vpn network (192.168.123.0/24)',
      ]);
    });

    it("requires service and (with workers) pod networks, and skips IPv6-only shoots", () => {
      const none = onSeed((s) => (s.spec.networking = { nodes: "10.250.0.0/16" }));
      expect(details({ shoot: none })).toEqual([
        "Required value: services is required",
        "Required value: pods is required",
      ]);
      const v6 = onSeed((s) => (s.spec.networking = { ipFamilies: ["IPv6"], nodes: "10.241.0.0/16" }));
      expect(details({ shoot: v6 })).toEqual([]);
    });
  });

  it("Almanac's own: a shoot never created, a deletion, and a migration already under way or waiting", () => {
    const never = onSeed((s) => delete s.status!.seedName);
    expect(migrationRefusals(request({ shoot: never }))).toEqual([
      expect.objectContaining({ field: "status.seedName", type: "Forbidden" }),
    ]);
    const deleting = onSeed((s) => (s.metadata.deletionTimestamp = "2026-11-22T00:00:00Z"));
    expect(details({ shoot: deleting })).toEqual(["the shoot is being deleted"]);
    const waiting = onSeed((s) => (s.spec.seedName = "third"));
    expect(details({ shoot: waiting, seeds: seeds(seed("seed"), seed("new-seed"), seed("third")) })).toEqual([
      "shoot spec cannot be changed because shoot has been rescheduled to a new seed",
    ]);
    const failed = onSeed((s) => {
      s.spec.seedName = "third";
      s.status!.lastOperation = { type: "Migrate", state: "Failed" };
    });
    expect(details({ shoot: failed, seeds: seeds(seed("seed"), seed("new-seed"), seed("third")) })).toEqual([
      "cannot change shoot spec during Migrate operation that is in state Failed",
    ]);
  });

  it("lists every reason at once, in Gardener's order", () => {
    const bad = seed("new-seed", (s) => {
      s.metadata.deletionTimestamp = "2026-11-22T00:00:00Z";
      s.spec.taints = [{ key: "seed.gardener.cloud/protected" }];
      delete s.spec.backup;
    });
    expect(details({ seeds: seeds(seed("seed"), bad) })).toEqual([
      "cannot schedule shoot 'shoot' on seed 'new-seed' that is already marked for deletion",
      "forbidden to use a seed whose taints are not tolerated by the shoot",
      'cannot change seed name because backup is not configured for seed "new-seed"',
    ]);
  });
});

describe("admission.go validateScheduling: 'checks for shoots referencing a deleted seed'", () => {
  const deleted = seed("seed", (s) => (s.metadata.deletionTimestamp = "2026-11-22T00:00:00Z"));

  it("'should allow no-op updates' and 'should allow adding the deletion confirmation'", () => {
    expect(shootOnSeedRefusals(onSeed(), onSeed(), deleted)).toEqual([]);
    const confirmed = onSeed((s) => (s.metadata.annotations = { "confirmation.gardener.cloud/deletion": "true" }));
    expect(shootOnSeedRefusals(onSeed(), confirmed, deleted)).toEqual([]);
  });

  it("'should reject modifying the shoot spec when seed is marked for deletion'", () => {
    const changed = onSeed((s) => (s.spec.region = "other-region"));
    expect(shootOnSeedRefusals(onSeed(), changed, deleted).map((r) => r.detail)).toEqual([
      "cannot update spec of shoot 'shoot' on seed 'seed' already marked for deletion",
    ]);
  });

  it("'should reject modifying other annotations than the deletion confirmation when seed is marked for deletion'", () => {
    const annotated = onSeed((s) => (s.metadata.annotations = { foo: "bar" }));
    expect(shootOnSeedRefusals(onSeed(), annotated, deleted).map((r) => r.detail)).toEqual([
      "cannot update annotations of shoot 'shoot' on seed 'seed' already marked for deletion: only the 'confirmation.gardener.cloud/deletion' annotation can be changed",
    ]);
  });

  it("refuses any update of a zone-tolerant shoot on a seed with fewer than 3 zones (validateSeedSelectionForMultiZonalShoot)", () => {
    const ha = onSeed((s) => (s.spec.controlPlane = { highAvailability: { failureTolerance: { type: "zone" } } }));
    expect(shootOnSeedRefusals(ha, ha, seed("seed")).map((r) => r.detail)).toEqual([
      "cannot schedule shoot 'shoot' with failure tolerance of zone on seed 'seed' with only 0 zones, at least 3 zones are required",
    ]);
  });
});

describe("seedCandidates", () => {
  it("lists every seed with its readiness for the migration, the untolerated taints and why the shoot cannot move there", () => {
    const list = [
      seed("seed"),
      seed("new-seed"),
      seed(
        "unready",
        (s) =>
          (s.status!.conditions![0] = {
            type: "GardenletReady",
            status: "Unknown",
            reason: "StatusUnknown",
            message: "Gardenlet stopped posting seed status.",
          }),
      ),
      seed("payments", (s) => (s.spec.taints = [{ key: "dedicated", value: "payments" }])),
    ];
    const byName = Object.fromEntries(seedCandidates(onSeed(), list).map((c) => [c.name, c]));
    expect(byName.seed).toMatchObject({ current: true, ready: true, readyForMigration: null });
    expect(byName["new-seed"]).toMatchObject({ current: false, ready: true, reasons: [], untoleratedTaints: [] });
    // Not ready is no refusal: Gardener admits the move and waits for the seed.
    expect(byName.unready).toMatchObject({
      ready: false,
      reasons: [],
      readyForMigration: {
        status: "False",
        reason: "DestinationSeedUnready",
        message:
          'condition "GardenletReady" has invalid status Unknown (expected True) due to StatusUnknown: Gardenlet stopped posting seed status.',
      },
    });
    expect(byName.payments).toMatchObject({
      untoleratedTaints: ["dedicated=payments"],
      reasons: ["forbidden to use a seed whose taints are not tolerated by the shoot"],
    });
  });
});
