// The shoot.gardener.cloud/status label (Gardener: pkg/utils/gardener/shoot_status.go,
// ComputeShootStatus).
import { describe, expect, it } from "vitest";
import type { Shoot, ShootStatus } from "../gardener/types.ts";
import {
  conditionsLabel,
  labelOfConditionStatus,
  orWorse,
  shootStatusLabel,
  type ShootStatusLabel,
} from "./status-label.ts";

const LABELS: ShootStatusLabel[] = ["healthy", "progressing", "unknown", "unhealthy"];

function shoot(status?: ShootStatus): Pick<Shoot, "status"> {
  return status === undefined ? {} : { status };
}

const cond = (...statuses: string[]) => statuses.map((status, i) => ({ type: `C${i}`, status }));
const ERRORS = [{ description: "something broke" }];

describe("orWorse", () => {
  it("ranks healthy > progressing > unknown > unhealthy", () => {
    expect(orWorse("healthy", "progressing")).toBe("progressing");
    expect(orWorse("progressing", "unknown")).toBe("unknown");
    expect(orWorse("unknown", "unhealthy")).toBe("unhealthy");
    expect(orWorse("healthy", "unhealthy")).toBe("unhealthy");
    expect(orWorse("healthy", "healthy")).toBe("healthy");
  });

  it("is symmetric for every pair", () => {
    for (const a of LABELS) {
      for (const b of LABELS) {
        expect(orWorse(a, b)).toBe(orWorse(b, a));
        expect(LABELS.indexOf(orWorse(a, b))).toBe(Math.max(LABELS.indexOf(a), LABELS.indexOf(b)));
      }
    }
  });
});

describe("labelOfConditionStatus", () => {
  it.each([
    ["True", "healthy"],
    ["Progressing", "progressing"],
    ["Unknown", "unknown"],
    ["False", "unhealthy"],
    ["", "unhealthy"],
    ["true", "unhealthy"],
    ["Whatever", "unhealthy"],
  ])("%j -> %s", (status, label) => {
    expect(labelOfConditionStatus(status)).toBe(label);
  });
});

describe("conditionsLabel", () => {
  it("is healthy with no conditions", () => {
    expect(conditionsLabel(shoot())).toBe("healthy");
    expect(conditionsLabel(shoot({}))).toBe("healthy");
    expect(conditionsLabel(shoot({ conditions: [] }))).toBe("healthy");
  });

  it("is the worst over all conditions, regardless of order", () => {
    expect(conditionsLabel(shoot({ conditions: cond("True", "True") }))).toBe("healthy");
    expect(conditionsLabel(shoot({ conditions: cond("True", "Progressing", "True") }))).toBe("progressing");
    expect(conditionsLabel(shoot({ conditions: cond("Unknown", "Progressing") }))).toBe("unknown");
    expect(conditionsLabel(shoot({ conditions: cond("Progressing", "Unknown") }))).toBe("unknown");
    expect(conditionsLabel(shoot({ conditions: cond("False", "Unknown", "True") }))).toBe("unhealthy");
    expect(conditionsLabel(shoot({ conditions: cond("True", "") }))).toBe("unhealthy");
  });

  it("ignores constraints", () => {
    expect(conditionsLabel(shoot({ conditions: cond("True"), constraints: cond("False") }))).toBe("healthy");
  });
});

describe("shootStatusLabel (ComputeShootStatus)", () => {
  it("is healthy without lastOperation, whatever the conditions and errors say", () => {
    expect(shootStatusLabel(shoot())).toBe("healthy");
    expect(shootStatusLabel(shoot({ conditions: cond("False"), lastErrors: ERRORS }))).toBe("healthy");
  });

  describe("Create not Succeeded, or Delete: lastErrors decide, conditions are ignored", () => {
    it.each(["Processing", "Error", "Failed", "Pending", "Aborted", ""])("Create/%s", (state) => {
      const op = { type: "Create", state };
      expect(shootStatusLabel(shoot({ lastOperation: op, conditions: cond("False", "Unknown") }))).toBe("healthy");
      expect(shootStatusLabel(shoot({ lastOperation: op, conditions: cond("True"), lastErrors: ERRORS }))).toBe(
        "unhealthy",
      );
      expect(shootStatusLabel(shoot({ lastOperation: op, lastErrors: [] }))).toBe("healthy");
    });

    it.each(["Processing", "Succeeded", "Error", "Failed", "Pending", "Aborted"])("Delete/%s", (state) => {
      const op = { type: "Delete", state };
      expect(shootStatusLabel(shoot({ lastOperation: op, conditions: cond("False", "Progressing") }))).toBe("healthy");
      expect(shootStatusLabel(shoot({ lastOperation: op, conditions: cond("True"), lastErrors: ERRORS }))).toBe(
        "unhealthy",
      );
    });
  });

  it("Create Succeeded falls through to the conditions", () => {
    const op = { type: "Create", state: "Succeeded" };
    expect(shootStatusLabel(shoot({ lastOperation: op }))).toBe("healthy");
    expect(shootStatusLabel(shoot({ lastOperation: op, conditions: cond("True", "Progressing") }))).toBe("progressing");
    expect(shootStatusLabel(shoot({ lastOperation: op, conditions: cond("False") }))).toBe("unhealthy");
    // lastErrors are ignored for a non-Processing state.
    expect(shootStatusLabel(shoot({ lastOperation: op, conditions: cond("True"), lastErrors: ERRORS }))).toBe(
      "healthy",
    );
  });

  describe("Processing: conditions OrWorse errors", () => {
    for (const type of ["Reconcile", "Migrate", "Restore"]) {
      it(type, () => {
        const op = { type, state: "Processing" };
        expect(shootStatusLabel(shoot({ lastOperation: op }))).toBe("healthy");
        expect(shootStatusLabel(shoot({ lastOperation: op, conditions: cond("True", "Unknown") }))).toBe("unknown");
        expect(shootStatusLabel(shoot({ lastOperation: op, conditions: cond("Progressing") }))).toBe("progressing");
        expect(shootStatusLabel(shoot({ lastOperation: op, conditions: cond("True"), lastErrors: ERRORS }))).toBe(
          "unhealthy",
        );
        expect(shootStatusLabel(shoot({ lastOperation: op, conditions: cond("Progressing"), lastErrors: [] }))).toBe(
          "progressing",
        );
      });
    }
  });

  describe("other states: conditions OrWorse (state == Succeeded), lastErrors ignored", () => {
    it("Succeeded uses the conditions", () => {
      const op = { type: "Reconcile", state: "Succeeded" };
      expect(shootStatusLabel(shoot({ lastOperation: op }))).toBe("healthy");
      expect(shootStatusLabel(shoot({ lastOperation: op, conditions: cond("True", "True") }))).toBe("healthy");
      expect(shootStatusLabel(shoot({ lastOperation: op, conditions: cond("Unknown") }))).toBe("unknown");
      expect(shootStatusLabel(shoot({ lastOperation: op, conditions: cond("Progressing", "True") }))).toBe(
        "progressing",
      );
      expect(shootStatusLabel(shoot({ lastOperation: op, conditions: cond("False") }))).toBe("unhealthy");
      expect(shootStatusLabel(shoot({ lastOperation: op, conditions: cond("") }))).toBe("unhealthy");
      expect(shootStatusLabel(shoot({ lastOperation: op, conditions: cond("True"), lastErrors: ERRORS }))).toBe(
        "healthy",
      );
    });

    it.each(["Error", "Failed", "Pending", "Aborted", ""])(
      "%j is unhealthy even with healthy conditions and no errors",
      (state) => {
        const op = { type: "Reconcile", state };
        expect(shootStatusLabel(shoot({ lastOperation: op }))).toBe("unhealthy");
        expect(shootStatusLabel(shoot({ lastOperation: op, conditions: cond("True") }))).toBe("unhealthy");
      },
    );
  });

  it("constraints are not used", () => {
    const op = { type: "Reconcile", state: "Succeeded" };
    expect(shootStatusLabel(shoot({ lastOperation: op, conditions: cond("True"), constraints: cond("False") }))).toBe(
      "healthy",
    );
  });

  it("an empty type is handled like any other non-Create/Delete type", () => {
    expect(shootStatusLabel(shoot({ lastOperation: { type: "", state: "Processing" }, lastErrors: ERRORS }))).toBe(
      "unhealthy",
    );
    expect(
      shootStatusLabel(shoot({ lastOperation: { type: "", state: "Processing" }, conditions: cond("Unknown") })),
    ).toBe("unknown");
    expect(
      shootStatusLabel(shoot({ lastOperation: { type: "", state: "Succeeded" }, conditions: cond("False") })),
    ).toBe("unhealthy");
    // Type matching is exact: "create" is not Create.
    expect(
      shootStatusLabel(shoot({ lastOperation: { type: "create", state: "Processing" }, conditions: cond("False") })),
    ).toBe("unhealthy");
  });
});
