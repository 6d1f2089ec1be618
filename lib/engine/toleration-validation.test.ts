// ValidateTolerations (gardener core validation), case by case.
import { describe, expect, it } from "vitest";
import { labelNameProblem, labelValueProblem, tolerationId, validateTolerations } from "./toleration-validation.ts";

describe("validateTolerations", () => {
  it("accepts keys with and without a prefix, with and without a value", () => {
    expect(
      validateTolerations([
        { key: "dedicated", value: "payments" },
        { key: "seed.gardener.cloud/protected" },
        { key: "gpu", value: "" },
      ]),
    ).toEqual([]);
  });

  it("requires a key", () => {
    expect(validateTolerations([{ key: "a" }, { key: "" }])).toEqual([
      { type: "Required", field: "spec.tolerations[1].key", detail: "cannot be empty" },
    ]);
  });

  it("refuses a key or value that is no label name or value", () => {
    const errors = validateTolerations([{ key: "has space" }, { key: "ok", value: "-bad" }, { key: "A_B.c/d" }]);
    expect(errors.map((e) => [e.type, e.field])).toEqual([
      ["Invalid", "spec.tolerations[0].key"],
      ["Invalid", "spec.tolerations[1].value"],
      ["Invalid", "spec.tolerations[2].key"],
    ]);
  });

  it("finds duplicates as Gardener does: same id, or the same key after one without a value", () => {
    expect(
      validateTolerations([
        { key: "k", value: "v" },
        { key: "k", value: "v" },
      ]).map((e) => e.field),
    ).toEqual(["spec.tolerations[1]"]);
    expect(validateTolerations([{ key: "k" }, { key: "k", value: "v" }])).toEqual([
      { type: "Duplicate", field: "spec.tolerations[1]", value: "k=v", detail: 'Duplicate value: "k=v"' },
    ]);
    // Gardener's rule is asymmetric: a key-only toleration after a valued one, or two values, pass.
    expect(validateTolerations([{ key: "k", value: "v" }, { key: "k" }])).toEqual([]);
    expect(
      validateTolerations([
        { key: "k", value: "a" },
        { key: "k", value: "b" },
      ]),
    ).toEqual([]);
  });
});

describe("label names and values", () => {
  it("limits the name part to 63 characters and wants a DNS prefix", () => {
    expect(labelNameProblem("a".repeat(63))).toBeUndefined();
    expect(labelNameProblem("a".repeat(64))).toMatch(/63/);
    expect(labelNameProblem("Example.com/x")).toMatch(/prefix/);
    expect(labelNameProblem("a/b/c")).toMatch(/prefix and a name/);
    expect(labelNameProblem("example.com/")).toMatch(/name part must be non-empty/);
  });

  it("allows an empty value", () => {
    expect(labelValueProblem("")).toBeUndefined();
    expect(labelValueProblem("x".repeat(64))).toMatch(/63/);
  });

  it("names a toleration key=value, or key alone", () => {
    expect(tolerationId({ key: "k" })).toBe("k");
    expect(tolerationId({ key: "k", value: "" })).toBe("k=");
  });
});

describe("validateTolerations with the admitted list", () => {
  const ADMITTED = [{ key: "Not_A/Label/Name" }];

  it("does not re-judge an unchanged list", () => {
    expect(validateTolerations(ADMITTED, "spec.tolerations", ADMITTED)).toEqual([]);
    expect(validateTolerations(ADMITTED)).not.toEqual([]);
  });

  it("checks the format of the new tolerations of a changed list", () => {
    expect(
      validateTolerations([...ADMITTED, { key: "ok" }, { key: "also/bad/key" }], "spec.tolerations", ADMITTED).map(
        (e) => `${e.type} ${e.field}`,
      ),
    ).toEqual(["Invalid spec.tolerations[2].key"]);
  });
});
