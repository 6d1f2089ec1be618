// The fleet filter's purpose and labels where a filter is taken besides the list: an update run's
// stages (resolved through the bulk actions' selection) and a bulk action's `filter` select by
// them, and a bad purpose or selector is a 422 naming the field inside the body, with the reason.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Refusal } from "../../lib/api/refusal.ts";
import type { Principal } from "../../lib/auth/principal.ts";
import { selectedShoots } from "../../lib/server/bulk-action-request.ts";
import type { FleetScope } from "../../lib/server/fleet-scope.ts";
import { seedLandscape } from "../../lib/server/seed-landscape.ts";
import { resolveUpdateRun } from "../../lib/server/update-run-request.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { smallLandscape } from "../support/small-landscape.ts";

const now = Date.now();
let database: TestDatabase;

const admin: Principal = {
  kind: "user",
  id: "u-admin",
  name: "Admin",
  email: "admin@example.com",
  groups: [],
  bindings: [{ role: "admin", scope: "*" }],
};
const scope: FleetScope = { principal: admin, namespaces: "all" };

beforeAll(async () => {
  database = await createTestDatabase();
  const landscape = smallLandscape(now, 8);
  // cluster-0..3 production, 4..5 development, 6..7 without a purpose (evaluation, Gardener's default);
  // the even ones in team a, the odd in team b; cluster-1 and cluster-5 canaries.
  landscape.shoots.forEach((s, i) => {
    if (i < 4) s.spec.purpose = "production";
    else if (i < 6) s.spec.purpose = "development";
    else delete s.spec.purpose;
    s.metadata.labels = {
      ...s.metadata.labels,
      team: i % 2 === 0 ? "a" : "b",
      ...(i === 1 || i === 5 ? { canary: "true" } : {}),
    };
  });
  await seedLandscape(database.db, landscape, { actor: "test", now });
});

afterAll(async () => {
  await database?.drop();
});

const names = (keys: readonly { name: string }[]) => keys.map((k) => k.name);

async function refusal(promise: Promise<unknown>): Promise<Refusal> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof Refusal) return error;
    throw error;
  }
  throw new Error("not refused");
}

describe("an update run's stages", () => {
  it("select by purpose and by label selector, as the fleet list does", async () => {
    const run = await resolveUpdateRun(
      database.db,
      {
        name: "by purpose and label",
        target: { action: "maintain" },
        stages: [
          { name: "canaries", filter: { labels: "canary" }, when: "now" },
          { name: "evaluation", filter: { purpose: "evaluation" }, when: "now" },
          { name: "team a in production", filter: { purpose: "production", labels: "team=a,!canary" }, when: "now" },
          {
            name: "the rest",
            filter: { purpose: "production,development", labels: "!canary,team notin (a)" },
            when: "now",
          },
        ],
      },
      scope,
      now,
    );
    expect(run.stages.map((s) => names(s.shoots))).toEqual([
      ["cluster-1", "cluster-5"],
      ["cluster-6", "cluster-7"],
      ["cluster-0", "cluster-2"],
      ["cluster-3"],
    ]);
  });

  it("refuse an unknown purpose and a bad selector with 422 naming the stage's field and the reason", async () => {
    const bad = async (filter: Record<string, unknown>) =>
      refusal(
        resolveUpdateRun(
          database.db,
          { name: "bad", target: { action: "maintain" }, stages: [{ name: "a", filter, when: "now" }] },
          scope,
          now,
        ),
      );
    const purpose = await bad({ purpose: "production,staging" });
    expect(purpose.code).toBe("unprocessable");
    expect(purpose.errors.map((e) => e.field)).toEqual(["stages[0].filter.purpose"]);
    expect(purpose.errors[0]!.detail).toContain('unknown purpose "staging"');
    const labels = await bad({ labels: "team in ()" });
    expect(labels.code).toBe("unprocessable");
    expect(labels.errors.map((e) => e.field)).toEqual(["stages[0].filter.labels"]);
    expect(labels.errors[0]!.detail).toContain("values set can't be empty");
    // A filter that selects nothing is refused as before, naming the filter.
    const none = await bad({ labels: "team=z" });
    expect(none.errors.map((e) => e.field)).toEqual(["stages[0].filter"]);
  });
});

describe("a bulk action's filter", () => {
  it("selects by purpose and labels", async () => {
    expect(names(await selectedShoots(database.db, { filter: { purpose: "development" } }, scope, now))).toEqual([
      "cluster-4",
      "cluster-5",
    ]);
    expect(
      names(await selectedShoots(database.db, { filter: { labels: "team=b", purpose: "production" } }, scope, now)),
    ).toEqual(["cluster-1", "cluster-3"]);
  });

  it("refuses a bad selector with 422 naming filter.labels", async () => {
    const refused = await refusal(
      selectedShoots(database.db, { filter: { labels: "team=" + "x".repeat(64) } }, scope, now),
    );
    expect(refused.code).toBe("unprocessable");
    expect(refused.errors.map((e) => e.field)).toEqual(["filter.labels"]);
    expect(refused.errors[0]!.detail).toContain("no more than 63 characters");
  });
});
