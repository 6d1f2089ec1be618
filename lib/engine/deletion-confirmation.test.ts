// Gardener's deletion confirmation plugin as the rules use it: who confirmed, and when a project's
// dualApprovalForDeletion asks someone else to delete (admission.go, Admit, check and
// checkIfDeletionMustBeDualApproved).
import { describe, expect, it } from "vitest";
import type { Project, Shoot } from "../gardener/types.ts";
import { shoot as buildShoot } from "../../tests/support/builders.ts";
import {
  ANNOTATION_CONFIRMED_BY,
  deletionConfirmed,
  dualApprovalRequired,
  sameSubjectConfirmed,
  withConfirmer,
} from "./deletion-confirmation.ts";

const CONFIRM = "confirmation.gardener.cloud/deletion";
const annotated = (annotations: Record<string, string>, labels?: Record<string, string>): Shoot => {
  const s = buildShoot("1.31.2", { annotations });
  return labels ? { ...s, metadata: { ...s.metadata, labels } } : s;
};
const project = (dual?: NonNullable<Project["spec"]["dualApprovalForDeletion"]>): Project => ({
  metadata: { name: "dev" },
  spec: { namespace: "garden-dev", ...(dual ? { dualApprovalForDeletion: dual } : {}) },
});
const prod = project([{ resource: "shoots", selector: { matchLabels: { env: "prod" } } }]);

describe("deletionConfirmed (CheckIfDeletionIsConfirmed: strconv.ParseBool)", () => {
  it.each(["1", "t", "T", "TRUE", "true", "True"])("confirmed by %s", (value) =>
    expect(deletionConfirmed(annotated({ [CONFIRM]: value }))).toBe(true),
  );
  it.each(["", "yes", "false", "0"])("not by %s", (value) =>
    expect(deletionConfirmed(annotated({ [CONFIRM]: value }))).toBe(false),
  );
});

describe("withConfirmer (Admit on update)", () => {
  it("records who turns the confirmation on, keeps it while confirmed, and drops it with the confirmation", () => {
    const none = annotated({});
    const confirmedByAlice = withConfirmer(none, annotated({ [CONFIRM]: "true" }), "alice");
    expect(confirmedByAlice.metadata.annotations).toEqual({ [CONFIRM]: "true", [ANNOTATION_CONFIRMED_BY]: "alice" });
    // Bob changes something else: Alice stays the confirmer (whatever Bob's request says).
    const bobEdits = withConfirmer(
      confirmedByAlice,
      annotated({ [CONFIRM]: "True", [ANNOTATION_CONFIRMED_BY]: "bob" }),
      "bob",
    );
    expect(bobEdits.metadata.annotations?.[ANNOTATION_CONFIRMED_BY]).toBe("alice");
    const withdrawn = withConfirmer(confirmedByAlice, annotated({ [ANNOTATION_CONFIRMED_BY]: "alice" }), "bob");
    expect(withdrawn.metadata.annotations).toEqual({});
  });
});

describe("dual approval for deletion", () => {
  const labelled = annotated({ [CONFIRM]: "true", [ANNOTATION_CONFIRMED_BY]: "alice" }, { env: "prod" });

  it("applies to the project's shoots its selector matches; service accounts too unless excluded", () => {
    expect(dualApprovalRequired(labelled, prod, "alice")).toBe(true);
    expect(dualApprovalRequired({ ...labelled, metadata: { ...labelled.metadata, labels: {} } }, prod, "alice")).toBe(
      false,
    );
    expect(dualApprovalRequired(labelled, project(), "alice")).toBe(false);
    expect(dualApprovalRequired(labelled, undefined, "alice")).toBe(false);
    expect(dualApprovalRequired(labelled, project([{ resource: "projects", selector: {} }]), "alice")).toBe(false);
    const robot = "system:serviceaccount:garden-dev:robot";
    expect(dualApprovalRequired(labelled, prod, robot)).toBe(true);
    const withoutRobots = project([
      { resource: "shoots", selector: { matchLabels: { env: "prod" } }, includeServiceAccounts: false },
    ]);
    expect(dualApprovalRequired(labelled, withoutRobots, robot)).toBe(false);
  });

  it("refuses only the subject who confirmed, and names them", () => {
    expect(sameSubjectConfirmed(labelled, prod, "alice")).toBe("alice");
    expect(sameSubjectConfirmed(labelled, prod, "bob")).toBeUndefined();
    expect(sameSubjectConfirmed(labelled, project(), "alice")).toBeUndefined();
  });
});
