import { describe, expect, it } from "vitest";
import type { Shoot } from "../gardener/types";
import {
  deletionProgress,
  deletionUnavailable,
  hibernationWarning,
  migrationConfirmation,
  nameConfirmed,
  operationOffers,
  operationPatch,
  operationProgress,
  type DeletionView,
} from "./shoot-operations";

const shoot = (change: (s: Shoot) => void = () => {}): Shoot => {
  const s: Shoot = {
    metadata: { name: "api-prod", namespace: "garden-core", generation: 4 },
    spec: { kubernetes: { version: "1.33.6" }, seedName: "aws-eu1" },
    status: {
      observedGeneration: 4,
      seedName: "aws-eu1",
      lastOperation: {
        type: "Reconcile",
        state: "Succeeded",
        progress: 100,
        description: "Shoot cluster has been successfully reconciled.",
        lastUpdateTime: "2026-03-01T08:00:00Z",
      },
    },
  } as Shoot;
  change(s);
  return s;
};

describe("operationOffers", () => {
  it("offers reconcile and hibernate to a healthy awake shoot", () => {
    expect(operationOffers(shoot())).toEqual([
      { operation: "reconcile", unavailable: undefined },
      { operation: "hibernate", unavailable: undefined },
    ]);
  });

  it("offers retry instead of reconcile when the last operation failed, and wake up when hibernated", () => {
    const failed = shoot((s) => {
      s.status!.lastOperation!.state = "Failed";
      s.spec.hibernation = { enabled: true };
    });
    expect(operationOffers(failed).map((o) => o.operation)).toEqual(["retry", "wake"]);
  });

  it("says why nothing is possible while the shoot is being deleted", () => {
    const deleting = shoot((s) => (s.metadata.deletionTimestamp = "2026-03-01T09:00:00Z"));
    for (const offer of operationOffers(deleting)) expect(offer.unavailable).toMatch(/being deleted/);
    expect(deletionUnavailable(deleting)).toBe("The cluster is already being deleted.");
    expect(deletionUnavailable(shoot())).toBeUndefined();
  });

  it("does not offer to retry a failed migration here (the migration panel does)", () => {
    const migrating = shoot((s) => {
      s.status!.lastOperation = { type: "Migrate", state: "Failed", progress: 40, description: "x" } as never;
    });
    const [first] = operationOffers(migrating);
    expect(first.operation).toBe("reconcile");
    expect(first.unavailable).toMatch(/migration failed/);
  });

  it("cannot reconcile a shoot Gardener never created", () => {
    const fresh = shoot((s) => delete s.status!.lastOperation);
    expect(operationOffers(fresh)[0].unavailable).toMatch(/not created this cluster yet/);
  });
});

describe("operationPatch", () => {
  it("asks by annotation, and hibernates by spec", () => {
    expect(operationPatch("retry")).toEqual({ metadata: { annotations: { "gardener.cloud/operation": "retry" } } });
    expect(operationPatch("wake")).toEqual({ spec: { hibernation: { enabled: false } } });
  });
});

describe("operationProgress", () => {
  const watch = { operation: "reconcile" as const, generation: 5, started: true };
  it("is queued until the gardenlet observes the new generation", () => {
    expect(operationProgress(shoot(), watch).step).toBe("queued");
  });
  it("follows the last operation afterwards", () => {
    const running = shoot((s) => {
      s.status!.observedGeneration = 5;
      s.status!.lastOperation = {
        type: "Reconcile",
        state: "Processing",
        progress: 45,
        description: "Deploying",
      } as never;
    });
    expect(operationProgress(running, watch)).toMatchObject({ step: "running", progress: 45 });
    running.status!.lastOperation!.state = "Error";
    expect(operationProgress(running, watch).step).toBe("retrying");
    running.status!.lastOperation!.state = "Failed";
    expect(operationProgress(running, watch).message).toBe("The reconcile failed. Deploying");
    running.status!.lastOperation!.state = "Succeeded";
    expect(operationProgress(running, watch)).toMatchObject({ step: "done", message: "The reconcile succeeded." });
  });
  it("says when Gardener started nothing", () => {
    expect(operationProgress(shoot(), { ...watch, started: false }).step).toBe("nothing");
  });
});

describe("hibernationWarning", () => {
  it("names the constraint that keeps an awake shoot from hibernating", () => {
    const s = shoot((x) => {
      x.status!.constraints = [{ type: "HibernationPossible", status: "False", message: "webhook blocks it" } as never];
    });
    expect(hibernationWarning(s)?.message).toBe("webhook blocks it");
    s.spec.hibernation = { enabled: true };
    expect(hibernationWarning(s)).toBeUndefined();
  });
});

describe("deletionProgress", () => {
  const step = (name: string, startedAt: string | null, endedAt: string | null, skipped = false) => ({
    name,
    startedAt,
    endedAt,
    message: null,
    deletes: [],
    keeps: [],
    forced: false,
    skipped,
    errors: [],
  });
  const view = (state: DeletionView["state"], steps: DeletionView["steps"]): DeletionView => ({
    id: "1",
    actor: "admin",
    state,
    startedAt: "2026-03-01T08:00:00Z",
    finishedAt: null,
    steps,
  });
  it("counts the steps done and names the one running", () => {
    const p = deletionProgress(
      view("Processing", [
        step("CleanWebhooks", "a", "b"),
        step("CleanExtendedAPIs", null, null, true),
        step("CleanKubernetesResources", "c", null),
        step("DeleteShoot", null, null),
      ]),
    );
    expect(p.steps.map((s) => s.state)).toEqual(["done", "skipped", "running", "waiting"]);
    expect(p).toMatchObject({ done: 2, total: 4, percent: 50, finished: false });
  });
  it("is finished when the deletion succeeded", () => {
    const p = deletionProgress(view("Succeeded", [step("CleanWebhooks", "a", "b"), step("DeleteShoot", null, null)]));
    expect(p).toMatchObject({ done: 2, finished: true });
  });
});

describe("confirmations", () => {
  it("wants the exact name", () => {
    expect(nameConfirmed(" api-prod ", "api-prod")).toBe(true);
    expect(nameConfirmed("API-PROD", "api-prod")).toBe(false);
  });
  it("asks a production cluster's name and spells out a region change", () => {
    const prod = shoot((s) => (s.spec.purpose = "production"));
    expect(migrationConfirmation(prod, "eu-west-1", "eu-central-1")).toEqual({
      typeName: true,
      regionChange: { from: "eu-west-1", to: "eu-central-1" },
    });
    expect(migrationConfirmation(shoot(), "eu-west-1", "eu-west-1")).toEqual({
      typeName: false,
      regionChange: undefined,
    });
  });
});
