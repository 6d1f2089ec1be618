import { describe, expect, it } from "vitest";
import type { Shoot } from "../gardener/types.ts";
import {
  admissionDryRun,
  admissionMessage,
  admissionRejection,
  type GardenAdmissionRule,
  judgedByAdmission,
  ruleMatches,
} from "./garden-admission.ts";

function shoot(namespace: string, name: string, labels?: Record<string, string>): Shoot {
  return {
    metadata: { name, namespace, ...(labels ? { labels } : {}) },
    spec: { kubernetes: { version: "1.31.1" } } as Shoot["spec"],
  };
}

const freeze: GardenAdmissionRule = {
  webhook: "shoot-policy.platform.example.com",
  match: { shoots: ["garden-prod/checkout", "garden-prod/billing"] },
  action: { type: "Deny", message: "changes to production shoots are frozen until the quarter closes" },
};
const kyverno: GardenAdmissionRule = {
  webhook: "validate.kyverno.svc-fail",
  match: { namespaces: ["garden-dev"], labelSelector: { matchLabels: { team: "data" } } },
  action: { type: "Timeout" },
};

describe("admissionMessage", () => {
  it("words a denial and a timeout as the Kubernetes API server does", () => {
    expect(admissionMessage(freeze)).toBe(
      'admission webhook "shoot-policy.platform.example.com" denied the request: changes to production shoots are frozen until the quarter closes',
    );
    expect(admissionMessage(kyverno)).toBe(
      'Internal error occurred: failed calling webhook "validate.kyverno.svc-fail": failed to call webhook: context deadline exceeded',
    );
  });
});

describe("ruleMatches", () => {
  it("matches listed shoots by namespace and name", () => {
    expect(ruleMatches(freeze, shoot("garden-prod", "checkout"))).toBe(true);
    expect(ruleMatches(freeze, shoot("garden-dev", "checkout"))).toBe(false);
    expect(ruleMatches(freeze, shoot("garden-prod", "search"))).toBe(false);
  });

  it("needs every condition it has: namespace and labels", () => {
    expect(ruleMatches(kyverno, shoot("garden-dev", "a", { team: "data" }))).toBe(true);
    expect(ruleMatches(kyverno, shoot("garden-dev", "a", { team: "web" }))).toBe(false);
    expect(ruleMatches(kyverno, shoot("garden-dev", "a"))).toBe(false);
    expect(ruleMatches(kyverno, shoot("garden-prod", "a", { team: "data" }))).toBe(false);
  });

  it("matches every shoot without conditions, none with an empty list, and fails closed on an unreadable selector", () => {
    const all: GardenAdmissionRule = { webhook: "w", match: {}, action: { type: "Timeout" } };
    expect(ruleMatches(all, shoot("garden-x", "y"))).toBe(true);
    expect(ruleMatches({ ...all, match: { shoots: [] } }, shoot("garden-x", "y"))).toBe(false);
    const broken: GardenAdmissionRule = {
      ...all,
      match: { labelSelector: { matchExpressions: [{ key: "team", operator: "In", values: [] }] } },
    };
    expect(ruleMatches(broken, shoot("garden-x", "y"))).toBe(true);
  });
});

describe("admissionRejection", () => {
  it("answers the first matching rule's webhook and words, or nothing", () => {
    const everything: GardenAdmissionRule = { webhook: "last", match: {}, action: { type: "Deny", message: "no" } };
    expect(admissionRejection(shoot("garden-prod", "checkout"), [freeze, kyverno, everything])).toEqual({
      webhook: freeze.webhook,
      message: admissionMessage(freeze),
    });
    expect(admissionRejection(shoot("garden-prod", "search"), [freeze, kyverno, everything])?.webhook).toBe("last");
    expect(admissionRejection(shoot("garden-prod", "search"), [freeze, kyverno])).toBeUndefined();
    expect(admissionRejection(shoot("garden-prod", "checkout"), [])).toBeUndefined();
  });

  it("is the maintenance controller's dry run", () => {
    const dryRun = admissionDryRun([freeze]);
    expect(dryRun(shoot("garden-prod", "billing"))).toBe(admissionMessage(freeze));
    expect(dryRun(shoot("garden-prod", "search"))).toBeUndefined();
  });
});

describe("judgedByAdmission", () => {
  const before = shoot("garden-prod", "checkout");
  it("judges spec, label and annotation changes", () => {
    expect(judgedByAdmission(before, { ...before, spec: { ...before.spec, kubernetes: { version: "1.32.0" } } })).toBe(
      true,
    );
    expect(judgedByAdmission(before, { ...before, metadata: { ...before.metadata, labels: { a: "b" } } })).toBe(true);
    expect(judgedByAdmission(before, { ...before, metadata: { ...before.metadata, annotations: { a: "b" } } })).toBe(
      true,
    );
  });

  it("lets an operation annotation alone through (maintain now, reconcile, retry)", () => {
    for (const operation of ["maintain", "reconcile", "retry"])
      expect(
        judgedByAdmission(before, {
          ...before,
          metadata: { ...before.metadata, annotations: { "gardener.cloud/operation": operation } },
        }),
      ).toBe(false);
    expect(judgedByAdmission(before, structuredClone(before))).toBe(false);
  });
});
