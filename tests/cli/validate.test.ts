// `almanac validate`: CloudProfile version rules (Gardener:
// pkg/api/core/validation/cloudprofile.go, ValidateCloudProfile) and Shoot time windows
// (pkg/api/core/validation/shoot.go, validateMaintenance), as Kubernetes field errors; exit 1 when
// any object is invalid.
import { describe, expect, it } from "vitest";
import { almanac, almanacFails, almanacJson, fixture } from "./run-almanac.ts";

interface FieldError {
  type: string;
  field: string;
  detail: string;
}
interface ValidateOutput {
  items: { kind: string; name: string; namespace?: string; errors: FieldError[] }[];
}

const TYPES = ["Required", "Invalid", "Forbidden", "Duplicate", "NotSupported"];

function errorsOf(out: ValidateOutput, name: string): FieldError[] {
  const item = out.items.find((i) => i.name === name);
  if (!item) throw new Error(`no item "${name}"`);
  return item.errors;
}

/** Type and field of every error, sorted, so that the order of checks does not matter. */
function fields(errors: FieldError[]): string[] {
  return errors.map((e) => `${e.type} ${e.field}`).sort();
}

describe("validate", () => {
  it("exits 0 and reports no errors for a valid profile and valid shoots, in input order", () => {
    const out = almanacJson<ValidateOutput>(
      ["validate", "-f", fixture("validate-valid.yaml"), "--now", "2025-03-01T00:00:00Z"],
      0,
    );
    expect(out.items.map((i) => [i.kind, i.name, i.errors])).toEqual([
      ["CloudProfile", "alicloud", []],
      ["Shoot", "night-owl", []],
      ["Shoot", "mixed-offsets", []],
    ]);
  });

  it("exits 1 and reports the CloudProfile version rules at Kubernetes field paths", () => {
    const out = almanacJson<ValidateOutput>(
      ["validate", "-f", fixture("validate-invalid.yaml"), "--now", "2025-03-01T00:00:00Z"],
      1,
    );
    expect(out.items.map((i) => `${i.kind}/${i.name}`)).toEqual([
      "CloudProfile/broken",
      "Shoot/fine",
      "Shoot/too-long",
      "Shoot/too-short",
      "Shoot/unparsable",
      "Shoot/whole-day",
      "Shoot/no-version",
    ]);
    const profile = errorsOf(out, "broken");
    expect(fields(profile)).toEqual(
      [
        "Invalid spec.kubernetes.versions[].expirationDate",
        "Invalid spec.kubernetes.versions[1]",
        "Forbidden spec.kubernetes.versions[2]",
        "Forbidden spec.kubernetes.versions[3]",
        "Duplicate spec.kubernetes.versions[4].version",
        "Forbidden spec.kubernetes.versions[5].classification",
        "NotSupported spec.kubernetes.versions[6].classification",
        "Invalid spec.machineImages[0].versions[0].version",
        "NotSupported spec.machineImages[0].updateStrategy",
        "Required spec.machineImages[1].versions",
      ].sort(),
    );
    expect(profile.find((e) => e.field === "spec.kubernetes.versions[].expirationDate")?.detail).toBe(
      "expiration date of latest kubernetes version ('1.30.1') must not be set",
    );
    for (const e of profile) {
      expect(TYPES).toContain(e.type);
      expect(Object.keys(e).sort()).toEqual(["detail", "field", "type"]);
    }
  });

  it("reports maintenance time window errors of shoots (validateMaintenance)", () => {
    const out = almanacJson<ValidateOutput>(["validate", "-f", fixture("validate-invalid.yaml")], 1);
    expect(errorsOf(out, "fine")).toEqual([]);
    expect(errorsOf(out, "too-long")).toEqual([
      { type: "Invalid", field: "spec.maintenance.timeWindow", detail: "time window must not be greater than 6h0m0s" },
    ]);
    expect(errorsOf(out, "too-short")).toEqual([
      { type: "Invalid", field: "spec.maintenance.timeWindow", detail: "time window must not be smaller than 30m0s" },
    ]);
    // begin == end (10:00 UTC both, different offsets) is a 24h window
    expect(errorsOf(out, "whole-day")).toEqual([
      { type: "Invalid", field: "spec.maintenance.timeWindow", detail: "time window must not be greater than 6h0m0s" },
    ]);
    expect(fields(errorsOf(out, "unparsable"))).toEqual(["Invalid spec.maintenance.timeWindow.begin/end"]);
    expect(fields(errorsOf(out, "no-version"))).toEqual(["Required spec.kubernetes.version"]);
  });

  it("exits 1 when only one of several files holds an invalid object", () => {
    const run = almanac([
      "validate",
      "-f",
      fixture("validate-valid.yaml"),
      "-f",
      fixture("validate-supported-per-minor.yaml"),
    ]);
    expect(run.status).toBe(1);
    const out = JSON.parse(run.stdout) as ValidateOutput;
    expect(out.items.map((i) => [i.name, i.errors.length > 0])).toEqual([
      ["alicloud", false],
      ["night-owl", false],
      ["mixed-offsets", false],
      ["per-minor", true],
    ]);
  });

  it("checks 'one supported version per minor' at --now: an expired version is no longer checked itself", () => {
    const early = almanacJson<ValidateOutput>(
      ["validate", "-f", fixture("validate-supported-per-minor.yaml"), "--now", "2023-06-01T00:00:00Z"],
      1,
    );
    expect(fields(errorsOf(early, "per-minor"))).toEqual([
      "Forbidden spec.kubernetes.versions[1]",
      "Forbidden spec.kubernetes.versions[2]",
    ]);
    const late = almanacJson<ValidateOutput>(
      ["validate", "-f", fixture("validate-supported-per-minor.yaml"), "--now", "2025-06-01T00:00:00Z"],
      1,
    );
    expect(fields(errorsOf(late, "per-minor"))).toEqual(["Forbidden spec.kubernetes.versions[1]"]);
  });

  it("accepts lifecycles with the VersionClassificationLifecycle gate on (the default and =true)", () => {
    const byDefault = almanacJson<ValidateOutput>(
      ["validate", "-f", fixture("validate-lifecycle.yaml"), "--now", "2025-03-01T00:00:00Z"],
      0,
    );
    expect(byDefault.items).toEqual([{ kind: "CloudProfile", name: "lifecycle", errors: [] }]);
    const explicit = almanacJson<ValidateOutput>(
      ["validate", "-f", fixture("validate-lifecycle.yaml"), "--feature-gates", "VersionClassificationLifecycle=true"],
      0,
    );
    expect(explicit.items[0].errors).toEqual([]);
  });

  it("forbids every lifecycle with --feature-gates VersionClassificationLifecycle=false and exits 1", () => {
    const out = almanacJson<ValidateOutput>(
      ["validate", "-f", fixture("validate-lifecycle.yaml"), "--feature-gates", "VersionClassificationLifecycle=false"],
      1,
    );
    expect(fields(out.items[0].errors)).toEqual([
      "Forbidden spec.kubernetes.versions[1].lifecycle",
      "Forbidden spec.machineImages[0].versions[0].lifecycle",
    ]);
  });

  it("reports broken lifecycles at the stage's field path", () => {
    const out = almanacJson<ValidateOutput>(
      ["validate", "-f", fixture("validate-lifecycle-invalid.yaml"), "--now", "2025-03-01T00:00:00Z"],
      1,
    );
    expect(fields(out.items[0].errors)).toEqual(
      [
        "Invalid spec.kubernetes.versions[1].lifecycle[1].classification",
        "Required spec.kubernetes.versions[2].lifecycle[1]",
        "Invalid spec.kubernetes.versions[3].lifecycle[1]",
        "Forbidden spec.kubernetes.versions[4]",
        "Duplicate spec.kubernetes.versions[5].lifecycle[1].classification",
      ].sort(),
    );
  });

  it("rejects an unknown feature gate or a value other than true/false with exit 2", () => {
    expect(
      almanacFails(["validate", "-f", fixture("validate-valid.yaml"), "--feature-gates", "SomethingElse=true"]),
    ).toMatch(/feature.gate.*SomethingElse/i);
    expect(
      almanacFails([
        "validate",
        "-f",
        fixture("validate-valid.yaml"),
        "--feature-gates",
        "VersionClassificationLifecycle=maybe",
      ]),
    ).toMatch(/VersionClassificationLifecycle/);
  });
});
