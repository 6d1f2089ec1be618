// ShootTolerationRestriction (plugin/pkg/shoot/tolerationrestriction) and which seeds a change of
// tolerations opens or closes.
import { describe, expect, it } from "vitest";
import type { Seed } from "../gardener/types.ts";
import {
  isWhitelisted,
  newOrChangedTolerations,
  seedReach,
  tolerationRestrictionProblems,
  toleratedSeeds,
  withDefaultTolerations,
} from "./toleration-restriction.ts";

const seed = (name: string, taints: Seed["spec"]["taints"] = []): Seed => ({
  metadata: { name },
  spec: { provider: { type: "aws", region: "eu" }, ...(taints.length ? { taints } : {}) },
});

describe("defaults on create (Admit)", () => {
  it("adds the global and the project's defaults unless the shoot names the key", () => {
    expect(
      withDefaultTolerations(
        [{ key: "dedicated", value: "mine" }],
        { defaults: [{ key: "dedicated", value: "payments" }, { key: "gpu" }] },
        { defaults: [{ key: "global" }], whitelist: [] },
      ),
    ).toEqual([{ key: "dedicated", value: "mine" }, { key: "global" }, { key: "gpu" }]);
  });

  it("adds nothing without defaults", () => {
    expect(withDefaultTolerations([], undefined)).toEqual([]);
  });
});

describe("the whitelist (Validate)", () => {
  it("lets an entry without a value allow its key with any value, one with a value only that value", () => {
    expect(isWhitelisted({ key: "gpu", value: "a100" }, [{ key: "gpu" }])).toBe(true);
    expect(isWhitelisted({ key: "gpu" }, [{ key: "gpu" }])).toBe(true);
    expect(isWhitelisted({ key: "dedicated", value: "payments" }, [{ key: "dedicated", value: "payments" }])).toBe(
      true,
    );
    expect(isWhitelisted({ key: "dedicated", value: "other" }, [{ key: "dedicated", value: "payments" }])).toBe(false);
    expect(isWhitelisted({ key: "dedicated" }, [{ key: "dedicated", value: "payments" }])).toBe(false);
  });

  it("on create checks every toleration against the project's and the global whitelist", () => {
    const problems = tolerationRestrictionProblems(
      undefined,
      [{ key: "a" }, { key: "b", value: "x" }, { key: "c" }],
      { whitelist: [{ key: "a" }] },
      { defaults: [], whitelist: [{ key: "c" }] },
    );
    expect(problems).toEqual([
      {
        type: "Forbidden",
        field: "spec.tolerations[1].key",
        value: "b=x",
        detail: `toleration "b=x" is not in the project's whitelist nor the global whitelist (allowed: c, a)`,
      },
    ]);
  });

  it("on update checks only the tolerations the shoot did not have, by key and value", () => {
    const before = [{ key: "old" }, { key: "dedicated", value: "a" }];
    const after = [{ key: "old" }, { key: "dedicated", value: "b" }];
    expect(newOrChangedTolerations(before, after)).toEqual([
      { toleration: { key: "dedicated", value: "b" }, index: 1 },
    ]);
    const problems = tolerationRestrictionProblems(before, after, { whitelist: [] });
    expect(problems.map((p) => [p.field, p.detail])).toEqual([
      [
        "spec.tolerations[1].key",
        `toleration "dedicated=b" is not in the project's whitelist nor the global whitelist (allowed: none)`,
      ],
    ]);
    // Removing a toleration, or keeping one no longer whitelisted, is always allowed.
    expect(tolerationRestrictionProblems(before, [{ key: "old" }], { whitelist: [] })).toEqual([]);
  });
});

describe("the seeds a change opens or closes", () => {
  const seeds = [
    seed("plain"),
    seed("payments", [{ key: "dedicated", value: "payments" }]),
    seed("protected", [{ key: "seed.gardener.cloud/protected" }]),
    seed("two", [{ key: "dedicated", value: "payments" }, { key: "gpu" }]),
  ];

  it("tolerates a seed only when every taint is tolerated", () => {
    expect(toleratedSeeds(seeds, [])).toEqual(["plain"]);
    expect(toleratedSeeds(seeds, [{ key: "dedicated", value: "payments" }])).toEqual(["plain", "payments"]);
    expect(
      toleratedSeeds(seeds, [
        { key: "dedicated", value: "payments" },
        { key: "gpu", value: "x" },
      ]),
    ).toEqual(["plain", "payments", "two"]);
    // A taint without a value is tolerated by its key, whatever the toleration's value.
    expect(toleratedSeeds(seeds, [{ key: "seed.gardener.cloud/protected", value: "x" }])).toEqual([
      "plain",
      "protected",
    ]);
  });

  it("names the seeds opened and closed, and the shoot's own seed when it is closed", () => {
    const payments = [{ key: "dedicated", value: "payments" }];
    expect(seedReach(seeds, [], payments)).toEqual({ opened: ["payments"], closed: [] });
    expect(seedReach(seeds, payments, [], "payments")).toEqual({
      opened: [],
      closed: ["payments"],
      currentSeedClosed: "payments",
    });
    expect(seedReach(seeds, payments, [], "plain")).toEqual({ opened: [], closed: ["payments"] });
    expect(seedReach(seeds, payments, payments)).toEqual({ opened: [], closed: [] });
  });
});
