// The tolerations panel's computations: rows to tolerations, problems per field, the whitelist's
// advice, the choices it offers, and the seeds an edit opens or closes in words.
import { describe, expect, it } from "vitest";
import type { Seed } from "../gardener/types.ts";
import {
  describeEntry,
  notWhitelisted,
  reachLines,
  rowProblems,
  rowsOf,
  tolerationsOfRows,
  tolerationsPatch,
  whitelistChoices,
} from "./tolerations-form.ts";

const seed = (name: string, taints: Seed["spec"]["taints"] = []): Seed => ({
  metadata: { name },
  spec: { provider: { type: "aws", region: "eu" }, ...(taints.length ? { taints } : {}) },
});

describe("rows and tolerations", () => {
  it("keeps a value only where the row has one, trimmed", () => {
    const rows = rowsOf([{ key: "a" }, { key: "b", value: "x" }]);
    expect(rows).toEqual([
      { key: "a", value: "", withValue: false },
      { key: "b", value: "x", withValue: true },
    ]);
    expect(tolerationsOfRows([...rows, { key: " c ", value: " y ", withValue: true }])).toEqual([
      { key: "a" },
      { key: "b", value: "x" },
      { key: "c", value: "y" },
    ]);
  });

  it("saves the list, or null for none, guarded by the resourceVersion", () => {
    expect(tolerationsPatch([{ key: "a" }], "7")).toEqual({
      metadata: { resourceVersion: "7" },
      spec: { tolerations: [{ key: "a" }] },
    });
    expect(tolerationsPatch([], undefined)).toEqual({ spec: { tolerations: null } });
  });
});

describe("problems and advice", () => {
  it("places the validation's problems at the key, the value or the row", () => {
    const problems = rowProblems([
      { key: "", value: "", withValue: false },
      { key: "gpu", value: "-x", withValue: true },
      { key: "gpu", value: "", withValue: false },
      { key: "gpu", value: "y", withValue: true },
    ]);
    expect([...problems.keys()]).toEqual([
      "spec.tolerations[0].key",
      "spec.tolerations[1].value",
      "spec.tolerations[3]",
    ]);
    expect(problems.get("spec.tolerations[3]")).toMatch(/twice/);
  });

  it("flags new tolerations the whitelist does not allow, not the ones the shoot had", () => {
    const rows = rowsOf([{ key: "legacy" }, { key: "gpu", value: "a100" }, { key: "dedicated", value: "x" }]);
    const whitelist = [{ key: "gpu" }, { key: "dedicated", value: "payments" }];
    expect([...notWhitelisted([{ key: "legacy" }], rows, whitelist)]).toEqual([2]);
  });

  it("offers the whitelist entries the form does not have yet, each once", () => {
    const whitelist = [{ key: "gpu" }, { key: "dedicated", value: "payments" }, { key: "gpu" }];
    expect(whitelistChoices(whitelist, rowsOf([{ key: "gpu" }]))).toEqual([{ key: "dedicated", value: "payments" }]);
    expect(describeEntry({ key: "gpu" })).toBe("gpu (any value)");
  });
});

describe("reachLines", () => {
  const seeds = [seed("plain"), seed("pay", [{ key: "dedicated", value: "payments" }]), seed("prot", [{ key: "p" }])];

  it("says which seeds open, which close, and what happens to the shoot's own", () => {
    expect(reachLines(seeds, [], [{ key: "dedicated", value: "payments" }, { key: "p" }])).toEqual([
      { kind: "opened", text: "Opens pay and prot: every taint of each is tolerated." },
    ]);
    const lines = reachLines(seeds, [{ key: "dedicated", value: "payments" }], [], "pay");
    expect(lines.map((l) => l.kind)).toEqual(["closed", "current"]);
    expect(lines[0].text).toBe("Closes pay: its taints are no longer all tolerated.");
    expect(lines[1].text).toMatch(/runs on pay\. Gardener still accepts the change and leaves it there/);
    expect(reachLines(seeds, [], [{ key: "other" }])).toEqual([]);
  });
});
