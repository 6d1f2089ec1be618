import { describe, expect, it } from "vitest";
import type { Condition, Shoot } from "../gardener/types.ts";
import { blockingHibernationConstraint, validateShootHibernation } from "./hibernation-admission.ts";

function shoot(enabled: boolean | undefined, constraints?: Condition[]): Shoot {
  return {
    metadata: { name: "s", namespace: "garden-dev" },
    spec: { ...(enabled !== undefined ? { hibernation: { enabled } } : {}) } as Shoot["spec"],
    ...(constraints ? { status: { constraints } } : {}),
  };
}
/** Gardener's case: old shoot with hibernation disabled, new one enabled, these constraints. */
const hibernate = (constraints: Condition[]) => validateShootHibernation(shoot(false), shoot(true, constraints));

describe("validateShootHibernation (Gardener plugin/pkg/shoot/validator/admission.go and admission_test.go 'hibernation checks')", () => {
  it("should allow if set to True", () => {
    expect(hibernate([{ type: "HibernationPossible", status: "True" }])).toBeUndefined();
  });

  it("should deny if set to False", () => {
    expect(hibernate([{ type: "HibernationPossible", status: "False", message: "foo" }])).toEqual({
      status: "False",
      message: "foo",
      detail: "'HibernationPossible' constraint is 'False': foo",
    });
  });

  it("should deny if set to Unknown", () => {
    expect(hibernate([{ type: "HibernationPossible", status: "Unknown", message: "foo" }])?.detail).toBe(
      "'HibernationPossible' constraint is 'Unknown': foo",
    );
  });

  it("should allow if unset", () => {
    expect(hibernate([])).toBeUndefined();
    expect(validateShootHibernation(shoot(false), shoot(true))).toBeUndefined();
  });

  it("denies while Progressing too (anything but True)", () => {
    expect(
      hibernate([
        {
          type: "HibernationPossible",
          status: "Progressing",
          message: "Shoot control plane is not running at the moment.",
        },
      ])?.detail,
    ).toBe("'HibernationPossible' constraint is 'Progressing': Shoot control plane is not running at the moment.");
  });

  it("only the change from awake to hibernated is checked: waking up, staying asleep, or no change pass", () => {
    const blocked = [{ type: "HibernationPossible", status: "False", message: "foo" }];
    expect(validateShootHibernation(shoot(true, blocked), shoot(false, blocked))).toBeUndefined();
    expect(validateShootHibernation(shoot(true, blocked), shoot(true, blocked))).toBeUndefined();
    expect(validateShootHibernation(shoot(false, blocked), shoot(false, blocked))).toBeUndefined();
    expect(validateShootHibernation(shoot(undefined, blocked), shoot(true, blocked))?.status).toBe("False");
  });

  it("other constraints do not matter", () => {
    expect(
      hibernate([
        { type: "HibernationPossible", status: "True" },
        { type: "MaintenancePreconditionsSatisfied", status: "False", message: "x" },
        { type: "CACertificateValiditiesAcceptable", status: "False", message: "y" },
      ]),
    ).toBeUndefined();
  });

  it("a False constraint without a message still refuses, in Gardener's words", () => {
    expect(hibernate([{ type: "HibernationPossible", status: "False" }])?.detail).toBe(
      "'HibernationPossible' constraint is 'False': ",
    );
  });
});

describe("blockingHibernationConstraint", () => {
  it("answers the HibernationPossible constraint unless it is True or absent", () => {
    const unknown = { type: "HibernationPossible", status: "Unknown" };
    expect(blockingHibernationConstraint([unknown])).toBe(unknown);
    expect(blockingHibernationConstraint([{ type: "HibernationPossible", status: "True" }])).toBeUndefined();
    expect(blockingHibernationConstraint(undefined)).toBeUndefined();
  });
});
