// Whether a promised update is at risk: each reason on its own, their order, and the words.
import { describe, expect, it } from "vitest";
import type { Shoot } from "../gardener/types.ts";
import { explainMaintenanceFailure, updateRisk } from "./update-risk.ts";

const DENIED =
  'Updates to the Shoot failed to be applied: admission webhook "policy.example.com" denied the request: changes to production shoots are frozen';

function shoot(status: Shoot["status"] = {}, extra: { deleting?: boolean; hibernate?: boolean } = {}): Shoot {
  return {
    metadata: {
      name: "monitoring-prod",
      namespace: "garden-platform",
      ...(extra.deleting ? { deletionTimestamp: "2026-11-20T10:00:00Z" } : {}),
    },
    spec: {
      cloudProfileName: "aws",
      kubernetes: { version: "1.30.11" },
      ...(extra.hibernate ? { hibernation: { enabled: true } } : {}),
    },
    status: { lastOperation: { type: "Reconcile", state: "Succeeded" }, ...status },
  };
}

const failedMaintenance = (failureReason = DENIED) => ({
  lastMaintenance: {
    description: "Maintenance failed",
    triggeredTime: "2026-11-23T22:39:00Z",
    state: "Failed",
    failureReason,
  },
});

const run = (state: string, day: number, failureReason?: string) => ({
  state,
  startedAt: `2026-11-${String(day).padStart(2, "0")}T22:39:00Z`,
  ...(failureReason ? { failureReason } : {}),
});

describe("updateRisk", () => {
  it("finds nothing on a healthy shoot whose last maintenance succeeded", () => {
    expect(updateRisk(shoot())).toBeUndefined();
    expect(
      updateRisk(
        shoot({ lastMaintenance: { description: "ok", triggeredTime: "2026-11-23T22:39:00Z", state: "Succeeded" } }),
        [run("Succeeded", 23), run("Failed", 22, DENIED)],
      ),
    ).toBeUndefined();
  });

  it("counts the failed runs in a row, quotes the error and names who must act", () => {
    const risk = updateRisk(shoot(failedMaintenance()), [
      run("Failed", 21, DENIED),
      run("Succeeded", 20),
      run("Failed", 23, DENIED),
      run("Failed", 22, DENIED),
    ])!;
    expect(risk.reasons).toHaveLength(1);
    expect(risk.reasons[0]).toMatchObject({ cause: "maintenanceFailed", actor: "landscapeOperators", error: DENIED });
    expect(risk.short).toBe("webhook denied (3×)");
    expect(risk.summary).toBe(
      'At risk: every maintenance since 21 Nov 2026 failed (3 runs on record) — admission webhook "policy.example.com" denied the request: changes to production shoots are frozen. ' +
        "Gardener tries again in every window and fails the same way while this lasts. " +
        'The garden\'s admission webhook "policy.example.com" rejects every maintenance update of this shoot; whoever runs it in the garden (ask the landscape operators) must let the update through.',
    );
  });

  it("says 'the last maintenance failed' from the shoot's status alone", () => {
    const risk = updateRisk(shoot(failedMaintenance()))!;
    expect(risk.short).toBe("webhook denied");
    expect(risk.summary).toMatch(/^At risk: the last maintenance failed — admission webhook "policy\.example\.com"/);
  });

  it("tells the causes of a failed maintenance apart", () => {
    expect(
      explainMaintenanceFailure(
        'Updates to the Shoot failed to be applied: Internal error occurred: failed calling webhook "validate.kyverno.svc-fail": failed to call webhook: context deadline exceeded',
      ),
    ).toMatchObject({ short: "webhook down", actor: "landscapeOperators" });
    expect(
      explainMaintenanceFailure(
        'Control Plane: Kubernetes maintenance failure due to: could not determine higher suitable version than "1.24.12": cannot perform forceful update of expired version "1.24.12". No suitable version found in CloudProfile - this is most likely a misconfiguration of the CloudProfile',
      ),
    ).toMatchObject({ short: "no version", actor: "landscapeOperators" });
    expect(
      explainMaintenanceFailure(
        'Worker pool "worker": failed to update machine image "coreos": failed to determine the target version for maintenance of machine image "coreos" with strategy "major": either the machine image "coreos" is reaching end of life and migration to another machine image is required or there is a misconfiguration in the CloudProfile.',
      ),
    ).toMatchObject({ short: "image end of life", actor: "shootOwner" });
    expect(
      explainMaintenanceFailure('machine type "m5.huge" of worker "worker" does not exist in cloudprofile'),
    ).toMatchObject({ short: "pool not in profile", actor: "shootOwner" });
    expect(
      explainMaintenanceFailure("Updates to the Shoot failed to be applied: spec.networking.nodes: Invalid value"),
    ).toMatchObject({ short: "update refused", actor: "shootOwner" });
    expect(explainMaintenanceFailure("something else")).toMatchObject({ actor: "landscapeOperators" });
  });

  it("quotes a False MaintenancePreconditionsSatisfied and says Gardener still maintains", () => {
    const message =
      'ValidatingWebhookConfiguration "kyverno" is problematic: webhook "validate.kyverno.svc-fail" with failurePolicy "Ignore" and 30s timeout might prevent worker nodes from properly joining the shoot cluster';
    const risk = updateRisk(
      shoot({
        constraints: [
          { type: "HibernationPossible", status: "False", message: "other" },
          { type: "MaintenancePreconditionsSatisfied", status: "False", reason: "ProblematicWebhooks", message },
        ],
      }),
    )!;
    expect(risk.reasons[0]).toMatchObject({ cause: "preconditionsFalse", actor: "shootOwner", error: message });
    expect(risk.summary).toContain(`MaintenancePreconditionsSatisfied is False — ${message}.`);
    expect(risk.summary).toContain("Gardener still runs the maintenance");
    expect(
      updateRisk(shoot({ constraints: [{ type: "MaintenancePreconditionsSatisfied", status: "True" }] })),
    ).toBeUndefined();
  });

  it("says who acts on a failed operation by its error codes", () => {
    const failed = (codes: string[]) =>
      updateRisk(
        shoot({
          lastOperation: { type: "Reconcile", state: "Failed", description: "Flow failed" },
          lastErrors: [{ description: "task failed: quota.", codes }],
        }),
      )!.reasons[0];
    expect(failed(["ERR_INFRA_QUOTA_EXCEEDED"])).toMatchObject({ cause: "operationFailed", actor: "shootOwner" });
    expect(failed(["ERR_INFRA_QUOTA_EXCEEDED"]).text).toContain(
      "will likely fail the same way until the cause is fixed",
    );
    expect(failed(["ERR_INFRA_RATE_LIMITS_EXCEEDED"]).actor).toBe("gardener");
    expect(failed([]).actor).toBe("landscapeOperators");
    expect(failed([]).text).toMatch(/^the last reconcile failed — task failed: quota\. /);
    // An operation that will be retried (Error) is no risk yet.
    expect(updateRisk(shoot({ lastOperation: { type: "Reconcile", state: "Error" } }))).toBeUndefined();
  });

  it("names hibernation and deletion", () => {
    expect(updateRisk(shoot({}, { hibernate: true }))!.reasons[0]).toMatchObject({ cause: "hibernated" });
    expect(updateRisk(shoot({ hibernated: true }))!.short).toBe("hibernated");
    expect(updateRisk(shoot({}, { deleting: true }))!.summary).toContain("Gardener's maintenance skips it");
  });

  it("puts the most serious reason first and adds the others", () => {
    const risk = updateRisk(
      shoot(
        {
          ...failedMaintenance(),
          lastOperation: { type: "Reconcile", state: "Failed" },
          constraints: [{ type: "MaintenancePreconditionsSatisfied", status: "False", message: "m" }],
        },
        { hibernate: true, deleting: true },
      ),
    )!;
    expect(risk.reasons.map((r) => r.cause)).toEqual([
      "deleting",
      "maintenanceFailed",
      "operationFailed",
      "preconditionsFalse",
      "hibernated",
    ]);
    expect(risk.summary.match(/ Also /g)).toHaveLength(4);
    expect(risk.lead).toMatch(
      /^At risk: the cluster is being deleted\. .* Also: webhook denied; reconcile failed; precondition False; hibernated\.$/,
    );
  });
});
