import { describe, expect, it } from "vitest";
import type { Condition, LastOperation, Seed, Shoot } from "../gardener/types.ts";
import {
  checkIfCACertificateValiditiesAcceptable,
  checkShootConstraints,
  gardenletLostConstraints,
  gardenletLostAt,
  getOrInitCondition,
  pardonConditions,
  updatedCondition,
  type CACertificate,
  type ShootObservation,
} from "./shoot-constraints.ts";
import type { WebhookConfiguration } from "./webhook-constraints.ts";

const NOW = Date.parse("2022-02-22T22:22:22Z");
const LATER = NOW + 3_600_000;
const DAY = 86_400_000;
const YEAR = 365 * DAY;

const problematic: WebhookConfiguration = {
  kind: "MutatingWebhookConfiguration",
  metadata: { name: "istio-sidecar-injector" },
  webhooks: [
    {
      name: "sidecar-injector.istio.io",
      failurePolicy: "Fail",
      timeoutSeconds: 10,
      rules: [{ operations: ["CREATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["pods"] }],
    },
  ],
};
const PROBLEM =
  'MutatingWebhookConfiguration "istio-sidecar-injector" is problematic: webhook "sidecar-injector.istio.io" with failurePolicy "Fail" and 10s timeout might prevent worker nodes from properly joining the shoot cluster';

const reconciled: LastOperation = { type: "Reconcile", state: "Succeeded", progress: 100 };

function shoot(status: Shoot["status"] = { lastOperation: reconciled }, hibernation?: boolean): Shoot {
  return {
    metadata: { name: "s", namespace: "garden-dev" },
    spec: { ...(hibernation !== undefined ? { hibernation: { enabled: hibernation } } : {}) } as Shoot["spec"],
    status,
  };
}
const running = (over: Partial<ShootObservation> = {}): ShootObservation => ({
  apiServerRunning: true,
  webhookConfigurations: [],
  caCertificates: [{ name: "ca", notAfter: NOW + 9 * YEAR }],
  ...over,
});
const byType = (constraints: Condition[], type: string) => constraints.find((c) => c.type === type);
const summary = (constraints: Condition[]) => constraints.map((c) => [c.type, c.status, c.reason]);

describe("Gardener's condition builder (UpdatedConditionWithClock, GetOrInitConditionWithClock)", () => {
  it("initialises a missing constraint as Unknown (NewShootConstraints: 'should initialize all constraints')", () => {
    expect(getOrInitCondition([], "HibernationPossible", NOW)).toEqual({
      type: "HibernationPossible",
      status: "Unknown",
      reason: "ConditionInitialized",
      message: "The condition has been initialized but its semantic check has not been performed yet.",
      lastTransitionTime: "2022-02-22T22:22:22Z",
      lastUpdateTime: "2022-02-22T22:22:22Z",
    });
    const present: Condition = { type: "HibernationPossible", status: "True" };
    expect(getOrInitCondition([present], "HibernationPossible", NOW)).toBe(present);
  });

  it("moves lastTransitionTime only when the status changes, lastUpdateTime when reason, message or codes do", () => {
    const old: Condition = {
      type: "X",
      status: "True",
      reason: "R",
      message: "M",
      lastTransitionTime: "2020-01-01T00:00:00Z",
      lastUpdateTime: "2020-01-02T00:00:00Z",
    };
    expect(updatedCondition(old, "True", "R", "M", undefined, NOW)).toEqual(old);
    expect(updatedCondition(old, "True", "R", "other", undefined, NOW)).toMatchObject({
      lastTransitionTime: "2020-01-01T00:00:00Z",
      lastUpdateTime: "2022-02-22T22:22:22Z",
    });
    expect(updatedCondition(old, "False", "R", "M", undefined, NOW)).toMatchObject({
      lastTransitionTime: "2022-02-22T22:22:22Z",
      lastUpdateTime: "2020-01-02T00:00:00Z",
    });
    const coded = updatedCondition(old, "True", "R", "M", ["ERR_PROBLEMATIC_WEBHOOK"], NOW);
    expect(coded).toMatchObject({ codes: ["ERR_PROBLEMATIC_WEBHOOK"], lastUpdateTime: "2022-02-22T22:22:22Z" });
    expect(updatedCondition(coded, "True", "R", "M", undefined, LATER).codes).toBeUndefined();
  });
});

describe("CheckIfCACertificateValiditiesAcceptable (Gardener care/constraints.go and its tests)", () => {
  const ca = (name: string, validFor: number): CACertificate => ({ name, notAfter: NOW + validFor });

  it("'true' when there are no CA secrets, or only CAs valid long enough", () => {
    const ok = {
      status: "True",
      reason: "NoExpiringCACertificates",
      message: "All CA certificates are still valid for at least 8760h0m0s.",
    };
    expect(checkIfCACertificateValiditiesAcceptable([], NOW)).toEqual(ok);
    expect(
      checkIfCACertificateValiditiesAcceptable([ca("a", 4 * YEAR), ca("b", 3 * YEAR), ca("c", 2 * YEAR)], NOW),
    ).toEqual(ok);
  });

  it("'false' naming the CAs valid for less than a year (exactly a year is enough), in Go's time format", () => {
    const verdict = checkIfCACertificateValiditiesAcceptable(
      [ca("ca", 4 * YEAR), ca("ca-etcd", YEAR), ca("ca-kubelet", 0), ca("ca-client", 30 * DAY + 500)],
      NOW,
    );
    expect(verdict).toEqual({
      status: "False",
      reason: "ExpiringCACertificates",
      message:
        'Some CA certificates are expiring in less than 8760h0m0s, you should rotate them: "ca-client" (expiring at 2022-03-24 22:22:22 +0000 UTC), "ca-kubelet" (expiring at 2022-02-22 22:22:22 +0000 UTC)',
    });
  });
});

describe("Constraint.Check (Gardener care/constraints.go), written as the care reconciler does", () => {
  it("a healthy awake shoot has only the two required constraints, True (CA validity True is left out)", () => {
    const constraints = checkShootConstraints(shoot(), running(), NOW);
    expect(summary(constraints)).toEqual([
      ["HibernationPossible", "True", "NoProblematicWebhooks"],
      ["MaintenancePreconditionsSatisfied", "True", "NoProblematicWebhooks"],
    ]);
    expect(constraints[0].message).toBe("All webhooks are properly configured.");
  });

  it("a problematic webhook makes both False with Gardener's message and ERR_PROBLEMATIC_WEBHOOK", () => {
    for (const c of checkShootConstraints(shoot(), running({ webhookConfigurations: [problematic] }), NOW))
      expect(c).toMatchObject({
        status: "False",
        reason: "ProblematicWebhooks",
        message: PROBLEM,
        codes: ["ERR_PROBLEMATIC_WEBHOOK"],
      });
  });

  it("keeps CACertificateValiditiesAcceptable while False, and it shows Progressing before the shoot was reconciled ('before pardoned')", () => {
    const expiring = running({ caCertificates: [{ name: "ca", notAfter: NOW }] });
    expect(byType(checkShootConstraints(shoot(), expiring, NOW), "CACertificateValiditiesAcceptable")).toMatchObject({
      status: "False",
      reason: "ExpiringCACertificates",
    });
    expect(byType(checkShootConstraints(shoot({}), expiring, NOW), "CACertificateValiditiesAcceptable")).toMatchObject({
      status: "Progressing",
      reason: "ExpiringCACertificates",
    });
  });

  describe("a hibernated shoot (shootHibernatedConstraints): fixed states, not the webhooks or CAs", () => {
    const everything = running({
      webhookConfigurations: [problematic],
      caCertificates: [{ name: "ca", notAfter: NOW }],
    });
    const notChecked = [
      ["HibernationPossible", "True", "ConstraintNotChecked"],
      ["MaintenancePreconditionsSatisfied", "True", "ConstraintNotChecked"],
      ["CACertificateValiditiesAcceptable", "True", "ConstraintNotChecked"],
      ["CRDsWithProblematicConversionWebhooks", "True", "ConstraintNotChecked"],
    ];

    it("spec.hibernation.enabled (going to sleep)", () => {
      const constraints = checkShootConstraints(shoot({ lastOperation: reconciled }, true), everything, NOW);
      expect(summary(constraints)).toEqual(notChecked);
      for (const c of constraints) {
        expect(c.message).toBe("Shoot cluster has been hibernated.");
        expect(c.codes).toBeUndefined();
      }
    });

    it("status.hibernated (still asleep while waking up)", () => {
      const constraints = checkShootConstraints(
        shoot({ lastOperation: reconciled, hibernated: true }, false),
        { ...everything, apiServerRunning: false },
        NOW,
      );
      expect(summary(constraints)).toEqual(notChecked);
    });
  });

  describe("the API server does not run (shootControlPlaneNotRunningConstraints)", () => {
    const down = running({ apiServerRunning: false, webhookConfigurations: [problematic] });

    it("both required constraints False, ConstraintNotChecked, whatever the webhooks", () => {
      const constraints = checkShootConstraints(shoot(), down, NOW);
      expect(summary(constraints)).toEqual([
        ["HibernationPossible", "False", "ConstraintNotChecked"],
        ["MaintenancePreconditionsSatisfied", "False", "ConstraintNotChecked"],
      ]);
      expect(constraints[0].message).toBe("Shoot control plane is not running at the moment.");
    });

    it("during a creation they are pardoned to Progressing", () => {
      const creating = shoot({ lastOperation: { type: "Create", state: "Processing", progress: 10 } });
      expect(checkShootConstraints(creating, down, NOW).map((c) => c.status)).toEqual(["Progressing", "Progressing"]);
    });

    it("an expiring CA still shows; a CRD constraint from before is dropped", () => {
      const before = shoot({
        lastOperation: reconciled,
        constraints: [{ type: "CRDsWithProblematicConversionWebhooks", status: "False" }],
      });
      const constraints = checkShootConstraints(
        before,
        { ...down, caCertificates: [{ name: "ca", notAfter: NOW }] },
        NOW,
      );
      expect(constraints.map((c) => c.type)).toEqual([
        "HibernationPossible",
        "MaintenancePreconditionsSatisfied",
        "CACertificateValiditiesAcceptable",
      ]);
    });
  });

  it("keeps constraints of types it does not own, replaces its own", () => {
    const before = shoot({
      lastOperation: reconciled,
      constraints: [
        { type: "SomethingElse", status: "False" },
        { type: "ManualInPlaceWorkersUpdated", status: "False" },
        { type: "HibernationPossible", status: "False" },
      ],
    });
    expect(checkShootConstraints(before, running(), NOW).map((c) => c.type)).toEqual([
      "SomethingElse",
      "HibernationPossible",
      "MaintenancePreconditionsSatisfied",
    ]);
  });

  it("keeps transition times while nothing changes, and moves them when the webhooks are fixed", () => {
    const first = checkShootConstraints(shoot(), running({ webhookConfigurations: [problematic] }), NOW);
    const again = checkShootConstraints(
      shoot({ lastOperation: reconciled, constraints: first }),
      running({ webhookConfigurations: [problematic] }),
      LATER,
    );
    expect(again).toEqual(first);
    const fixed = checkShootConstraints(shoot({ lastOperation: reconciled, constraints: first }), running(), LATER);
    expect(fixed[0]).toMatchObject({
      status: "True",
      lastTransitionTime: "2022-02-22T23:22:22Z",
      lastUpdateTime: "2022-02-22T23:22:22Z",
    });
    expect(fixed[0].codes).toBeUndefined();
  });
});

describe("PardonConditions and isUnstableLastOperation (Gardener care/health.go)", () => {
  const falseOne: Condition = {
    type: "HibernationPossible",
    status: "False",
    reason: "ProblematicWebhooks",
    message: PROBLEM,
    codes: ["ERR_PROBLEMATIC_WEBHOOK"],
    lastTransitionTime: "2022-01-01T00:00:00Z",
    lastUpdateTime: "2022-01-01T00:00:00Z",
  };
  const pardoned = (op: LastOperation | undefined, errors?: { description: string }[]) =>
    pardonConditions([falseOne], op, errors, NOW)[0].status;

  it("False shows as Progressing without an operation, while a Create or Delete has not succeeded, and while Processing without errors", () => {
    expect(pardoned(undefined)).toBe("Progressing");
    expect(pardoned({ type: "Create", state: "Processing" })).toBe("Progressing");
    expect(pardoned({ type: "Create", state: "Failed" })).toBe("Progressing");
    expect(pardoned({ type: "Delete", state: "Error" })).toBe("Progressing");
    expect(pardoned({ type: "Reconcile", state: "Processing" })).toBe("Progressing");
  });

  it("stays False after a successful creation, for a failed reconcile, and while Processing with errors", () => {
    expect(pardoned({ type: "Create", state: "Succeeded" })).toBe("False");
    expect(pardoned({ type: "Reconcile", state: "Error" })).toBe("False");
    expect(pardoned({ type: "Reconcile", state: "Failed" })).toBe("False");
    expect(pardoned({ type: "Reconcile", state: "Processing" }, [{ description: "x" }])).toBe("False");
  });

  it("keeps reason, message and codes; only the status (and its transition time) changes", () => {
    expect(pardonConditions([falseOne], undefined, undefined, NOW)[0]).toEqual({
      ...falseOne,
      status: "Progressing",
      lastTransitionTime: "2022-02-22T22:22:22Z",
    });
  });

  it("other statuses are left alone", () => {
    const unknown = { ...falseOne, status: "Unknown" };
    expect(pardonConditions([unknown], undefined, undefined, NOW)[0]).toBe(unknown);
  });
});

describe("a shoot whose gardenlet went silent (Gardener gardenletlifecycle/reconciler.go setShootStatusToUnknown)", () => {
  it("HibernationPossible and MaintenancePreconditionsSatisfied turn Unknown; the others stay as they were", () => {
    const ca: Condition = {
      type: "CACertificateValiditiesAcceptable",
      status: "False",
      reason: "ExpiringCACertificates",
    };
    const before = shoot({
      lastOperation: reconciled,
      constraints: [
        {
          type: "HibernationPossible",
          status: "True",
          reason: "NoProblematicWebhooks",
          lastTransitionTime: "2022-01-01T00:00:00Z",
        },
        ca,
      ],
    });
    const constraints = gardenletLostConstraints(before, NOW);
    expect(summary(constraints)).toEqual([
      ["HibernationPossible", "Unknown", "StatusUnknown"],
      ["CACertificateValiditiesAcceptable", "False", "ExpiringCACertificates"],
      ["MaintenancePreconditionsSatisfied", "Unknown", "StatusUnknown"],
    ]);
    expect(constraints[0]).toMatchObject({
      message: "Gardenlet stopped sending heartbeats.",
      lastTransitionTime: "2022-02-22T22:22:22Z",
    });
    expect(constraints[1]).toBe(ca);
  });

  it("repeating it changes nothing (the controller-manager runs every sync period)", () => {
    const once = gardenletLostConstraints(shoot(), NOW);
    expect(gardenletLostConstraints(shoot({ constraints: once }), LATER)).toEqual(once);
  });

  it("takes over once GardenletReady has been Unknown for the shoot monitor period (200 s)", () => {
    const seed = (status: string, since: number): Seed => ({
      metadata: { name: "seed" },
      spec: { provider: { type: "gcp", region: "x" } },
      status: {
        conditions: [{ type: "GardenletReady", status, lastTransitionTime: new Date(since).toISOString() }],
      },
    });
    expect(gardenletLostAt(seed("Unknown", NOW - 3_600_000), NOW)).toBe(NOW - 3_400_000);
    expect(gardenletLostAt(seed("Unknown", NOW - 200_000), NOW)).toBe(NOW);
    expect(gardenletLostAt(seed("Unknown", NOW - 199_000), NOW)).toBeUndefined();
    expect(gardenletLostAt(seed("True", NOW - DAY), NOW)).toBeUndefined();
    expect(gardenletLostAt(undefined, NOW)).toBeUndefined();
  });
});
