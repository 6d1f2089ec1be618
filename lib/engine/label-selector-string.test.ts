import { describe, expect, it } from "vitest";
import { matchLabelSelector } from "./label-selector.ts";
import { asLabelSelector, formatLabelRequirements, parseLabelSelector } from "./label-selector-string.ts";

const parsed = (text: string) => {
  const result = parseLabelSelector(text);
  if (!result.ok) throw new Error(`${text}: ${result.error}`);
  return result.requirements;
};
const error = (text: string) => {
  const result = parseLabelSelector(text);
  if (result.ok) throw new Error(`${text} parsed`);
  return result.error;
};
const matches = (text: string, labels: Record<string, string>) => {
  const result = matchLabelSelector(asLabelSelector(parsed(text)), labels);
  if (!result.ok) throw new Error(result.error);
  return result.matches;
};

describe("parseLabelSelector", () => {
  it("reads every kind of requirement, as kubectl -l writes them", () => {
    expect(parsed("env=prod,tier!=web,team in (b, a),!legacy,region, x==y, z notin (q)")).toEqual([
      { key: "env", operator: "In", values: ["prod"] },
      { key: "tier", operator: "NotIn", values: ["web"] },
      { key: "team", operator: "In", values: ["a", "b"] },
      { key: "legacy", operator: "DoesNotExist", values: [] },
      { key: "region", operator: "Exists", values: [] },
      { key: "x", operator: "In", values: ["y"] },
      { key: "z", operator: "NotIn", values: ["q"] },
    ]);
  });

  it("takes prefixed keys, empty values and no requirement at all", () => {
    expect(parsed("shoot.gardener.cloud/status=healthy")).toEqual([
      { key: "shoot.gardener.cloud/status", operator: "In", values: ["healthy"] },
    ]);
    expect(parsed("a=,b")).toEqual([
      { key: "a", operator: "In", values: [""] },
      { key: "b", operator: "Exists", values: [] },
    ]);
    expect(parsed("a in (x,)")).toEqual([{ key: "a", operator: "In", values: ["", "x"] }]);
    expect(parsed("")).toEqual([]);
    expect(parsed("   ")).toEqual([]);
  });

  it("says why a selector is not one", () => {
    expect(error("env=prod,")).toMatch(/expected a label key/);
    expect(error("env in ()")).toMatch(/values set can't be empty/);
    expect(error("env in (a b)")).toMatch(/expected "," or "\)"/);
    expect(error("env in a")).toMatch(/expected "\("/);
    expect(error("-env=prod")).toMatch(/must start and end with an alphanumeric/);
    expect(error("Env.Example/x=1")).toMatch(/prefix part must be a lowercase DNS subdomain/);
    expect(error(`env=${"v".repeat(64)}`)).toMatch(/no more than 63 characters/);
    expect(error("env=a=b")).toMatch(/expected "," or the end/);
    expect(error("env prod")).toMatch(/expected one of =, ==, !=, in, notin/);
    expect(error("replicas>2")).toMatch(/not > or </);
    expect(error("=prod")).toMatch(/expected a label key/);
    expect(error("env=(a)")).toMatch(/expected a value/);
  });

  it("matches with Kubernetes' semantics: != and notin match a shoot without the key", () => {
    const labels = { env: "prod", team: "a" };
    expect(matches("env=prod", labels)).toBe(true);
    expect(matches("env=dev", labels)).toBe(false);
    expect(matches("tier!=web", labels)).toBe(true);
    expect(matches("env!=prod", labels)).toBe(false);
    expect(matches("team in (a,b)", labels)).toBe(true);
    expect(matches("team notin (a,b)", labels)).toBe(false);
    expect(matches("tier notin (a,b)", labels)).toBe(true);
    expect(matches("tier in (a,b)", labels)).toBe(false);
    expect(matches("env", labels)).toBe(true);
    expect(matches("!env", labels)).toBe(false);
    expect(matches("!legacy,env=prod", labels)).toBe(true);
  });

  it("writes a selector back in a normal form that parses to the same requirements", () => {
    const text = "env=prod,tier!=web,team in (b,a),!legacy,region,z notin (q,p)";
    const written = formatLabelRequirements(parsed(text));
    expect(written).toBe("env=prod,tier!=web,team in (a,b),!legacy,region,z notin (p,q)");
    expect(parsed(written)).toEqual(parsed(text));
  });
});
