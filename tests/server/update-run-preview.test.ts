// An update run's preview (issue 29, item 3) on a real PostgreSQL: per stage and shoot the planned
// moment, the change or the refusal in the bulk preview's words (role, validation, an operation
// under way, a shoot that does not exist), Gardener's forced update before the run arrives, the
// freezes, the expected ends; and nothing written.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { updateRunPreviewSchema } from "../../lib/api/update-run-preview.ts";
import type { Principal } from "../../lib/auth/principal.ts";
import { DAY_MS, SECOND_MS } from "../../lib/engine/time-units.ts";
import { nextWindowStart } from "../../lib/engine/update-run-plan.ts";
import { previewShoot, roleRefusal } from "../../lib/server/bulk-action-preview.ts";
import { seedLandscape } from "../../lib/server/seed-landscape.ts";
import { previewUpdateRun } from "../../lib/server/update-run-preview.ts";
import type { ResolvedUpdateRun } from "../../lib/server/update-run-request.ts";
import { insertFreeze } from "../../lib/store/freezes.ts";
import { findShoots } from "../../lib/store/shoots.ts";
import { shoot, worker } from "../support/builders.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { smallLandscape } from "../support/small-landscape.ts";

const now = Date.now();
const iso = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(".000Z", "Z");
let database: TestDatabase;

/** An operator on project dev, a viewer on project prod. */
const ann: Principal = {
  kind: "user",
  id: "u-ann",
  name: "Ann",
  email: "ann@example.com",
  groups: [],
  bindings: [
    { role: "operator", scope: "dev" },
    { role: "viewer", scope: "prod" },
  ],
};
const ctx = { scope: { principal: ann } };
const ACTING = 600;

const dev = (name: string) => ({ namespace: "garden-dev", name });

beforeAll(async () => {
  database = await createTestDatabase();
  const landscape = smallLandscape(now, 8);
  // cluster-3 runs the target already; cluster-7 waits for a credentials rotation.
  landscape.shoots[3]!.spec.kubernetes.version = "1.31.4";
  landscape.shoots[7]!.metadata.annotations = { "gardener.cloud/operation": "rotate-credentials-start" };
  const add = (name: string, namespace: string, version: string, status?: object) => {
    const s = shoot(version, { workers: [worker("pool-a", "gardenlinux", "1592.4.0")] });
    s.metadata = { ...s.metadata, name, namespace, uid: randomUUID() };
    s.spec.seedName = "seed-1";
    s.status = { ...s.status, seedName: "seed-1", ...status };
    landscape.shoots.push(s);
  };
  // 1.30.1 expired ten days ago: Gardener forces its update in its next window.
  add("old", "garden-dev", "1.30.1");
  add("migrating", "garden-dev", "1.31.2", { lastOperation: { type: "Migrate", state: "Processing", progress: 40 } });
  add("prod-0", "garden-prod", "1.31.2");
  landscape.projects.push({ metadata: { name: "prod" }, spec: { namespace: "garden-prod" } });
  await seedLandscape(database.db, landscape, { actor: "test", now });
}, 120_000);

afterAll(async () => {
  await database?.drop();
});

const twoStages = (soakSeconds = 2 * 86_400): ResolvedUpdateRun => ({
  name: "to 1.31",
  target: { kubernetes: "1.31" },
  healthGate: { healthySeconds: 600 },
  stages: [
    { name: "dev", when: "now", soakSeconds, approval: false, shoots: [dev("cluster-1"), dev("cluster-3")] },
    {
      name: "rest",
      when: "window",
      soakSeconds: 0,
      approval: true,
      shoots: [dev("old"), dev("migrating"), { namespace: "garden-prod", name: "prod-0" }, dev("nope")],
    },
  ],
});

describe("previewUpdateRun", () => {
  it("plans each stage and shoot: moments, changes, refusals in the bulk preview's words, forced updates, ends", async () => {
    const answer = await previewUpdateRun(database.db, twoStages(), ctx, now, ACTING);
    expect(updateRunPreviewSchema.parse(answer)).toEqual(answer);
    expect(answer).toMatchObject({ name: "to 1.31", target: { kubernetes: "1.31" }, total: 6, actingSeconds: 600 });

    const [first, rest] = answer.stages;
    expect(first).toMatchObject({ name: "dev", when: "now", approval: false, afterApproval: false });
    expect(first!.earliestStart).toBe(iso(now));
    expect(first!.items).toEqual([
      {
        ...dev("cluster-1"),
        outcome: "act",
        changes: [{ field: "spec.kubernetes.version", before: "1.31.2", after: "1.31.4" }],
        message: 'spec.kubernetes.version: "1.31.2" -> "1.31.4"',
        plannedAt: iso(now),
      },
      {
        ...dev("cluster-3"),
        outcome: "unchanged",
        changes: [],
        message: "Kubernetes is 1.31.4 already.",
        plannedAt: iso(now),
      },
    ]);
    // Acting, then the health gate.
    const firstEnd = now + (ACTING + 600) * SECOND_MS;
    expect(first!.expectedEnd).toBe(iso(firstEnd));

    // After the soak of two days, and an approval: the earliest.
    const restStart = firstEnd + 2 * DAY_MS;
    expect(rest).toMatchObject({ name: "rest", when: "window", approval: true, afterApproval: true });
    expect(rest!.earliestStart).toBe(iso(restStart));
    expect(rest!.message).toMatch(/^Starts after approval, at the earliest /);
    const byName = new Map(rest!.items.map((i) => [i.name, i]));
    const stored = await findShoots(database.db, [dev("old")]);
    const oldWindow = nextWindowStart(stored.get("garden-dev/old")!.shoot, restStart);
    expect(byName.get("old")).toMatchObject({
      outcome: "act",
      changes: [{ field: "spec.kubernetes.version", before: "1.30.1", after: "1.31.4" }],
      plannedAt: iso(oldWindow),
      forcedBefore: { target: "controlPlane", kind: "kubernetes", from: "1.30.1", to: "1.30.5" },
    });
    expect(Date.parse(byName.get("old")!.forcedBefore!.at)).toBeLessThan(oldWindow);
    expect(byName.get("old")!.forcedBefore!.reason).toContain("expired");

    // The same words as the bulk preview: an operation under way, the caller's role, an unknown shoot.
    const patch = { kind: "patch", patch: { spec: { kubernetes: { version: "1.31.4" } } } } as const;
    const bulk = await previewShoot(database.db, dev("migrating"), patch, now);
    expect(bulk.outcome).toBe("refused");
    expect(byName.get("migrating")).toMatchObject({ outcome: "refused", message: bulk.message, changes: [] });
    expect(byName.get("prod-0")).toMatchObject({
      outcome: "refused",
      message: await roleRefusal(database.db, ann, { namespace: "garden-prod", name: "prod-0" }),
    });
    expect(byName.get("prod-0")!.message).toBe(
      "You have the role viewer on project prod (namespace garden-prod); this needs operator.",
    );
    expect(byName.get("nope")).toMatchObject({ outcome: "refused", message: "Shoot garden-dev/nope does not exist." });

    // Only "old" acts in the last stage: its window, its acting, the gate.
    expect(rest!.expectedEnd).toBe(iso(oldWindow + (ACTING + 600) * SECOND_MS));
    expect(answer.expectedEnd).toBe(rest!.expectedEnd);
    expect(answer.afterApproval).toBe(true);
    expect(answer.counts).toEqual({ act: 2, unchanged: 1, refused: 3, forcedBefore: 1, inFreeze: 0 });
    expect(answer.warnings).toEqual([
      "Your role does not let you change 1 cluster of the run (project prod): starting it would be refused. Leave them out.",
      '1 cluster will be force-updated by Gardener before the run reaches them (stage "rest"): move them to an earlier stage.',
      'Stage "rest" waits for approval: its moments, and every later one, are the earliest possible.',
      '2 clusters will be refused (each one\'s message says why). A refused cluster fails the run at its stage: it would stop at stage "rest". Leave them out, or first remove what refuses them.',
    ]);
  });

  it("names no forced update when the run reaches the expired shoot first", async () => {
    const run: ResolvedUpdateRun = {
      ...twoStages(),
      stages: [{ name: "all", when: "now", soakSeconds: 0, approval: false, shoots: [dev("old")] }],
    };
    const answer = await previewUpdateRun(database.db, run, ctx, now, ACTING);
    expect(answer.stages[0]!.items[0]).toMatchObject({ name: "old", outcome: "act" });
    expect(answer.stages[0]!.items[0]!.forcedBefore).toBeUndefined();
    expect(answer.counts.forcedBefore).toBe(0);
  });

  it("says what maintain now will do, and refuses a shoot whose asked-for operation is pending, as the bulk preview does", async () => {
    const run: ResolvedUpdateRun = {
      name: "maintain",
      target: { action: "maintain" },
      healthGate: null,
      stages: [
        { name: "all", when: "now", soakSeconds: 0, approval: false, shoots: [dev("cluster-0"), dev("cluster-7")] },
      ],
    };
    const answer = await previewUpdateRun(database.db, run, ctx, now, ACTING);
    const [zero, seven] = answer.stages[0]!.items;
    for (const [item, key] of [
      [zero, dev("cluster-0")],
      [seven, dev("cluster-7")],
    ] as const) {
      const bulk = await previewShoot(database.db, key, { kind: "maintain" }, now);
      expect(item).toMatchObject({ outcome: bulk.outcome, message: bulk.message, changes: bulk.changes });
    }
    expect(zero!.outcome).toBe("act");
    expect(zero!.message).toMatch(/^Maintain now: /);
    expect(seven!.outcome).toBe("refused");
    // No health gate: the stage ends when its one shoot is done.
    expect(answer.expectedEnd).toBe(iso(now + ACTING * SECOND_MS));
  });

  it("marks the shoots it would act on inside a freeze, for their project or the whole landscape", async () => {
    const freeze = await insertFreeze(database.db, {
      start: new Date(now - 60_000),
      end: new Date(now + 3_600_000),
      reason: "Release week",
      project: "dev",
      createdBy: "test",
    });
    try {
      const answer = await previewUpdateRun(database.db, twoStages(), ctx, now, ACTING);
      const [first] = answer.stages;
      const mark = {
        id: freeze.id,
        reason: "Release week",
        start: freeze.start.toISOString(),
        end: freeze.end.toISOString(),
        project: "dev",
      };
      // The stage waits for the freeze's end, as the run will.
      expect(first!.freeze).toEqual(mark);
      expect(first!.earliestStart).toBe(iso(freeze.end.getTime()));
      expect(first!.items[0]).toMatchObject({ name: "cluster-1", plannedAt: iso(freeze.end.getTime()), freeze: mark });
      expect(first!.message).toContain('when the freeze "Release week" of project dev ends');
      // Nothing is done to an unchanged shoot, so no freeze stands in its way.
      expect(first!.items[1]!.freeze).toBeUndefined();
      expect(first!.counts.inFreeze).toBe(1);
      // The later stage is past the freeze.
      expect(answer.stages[1]!.counts.inFreeze).toBe(0);
      expect(answer.warnings).toContain(
        '1 cluster would be acted on inside a freeze period (stage "dev"): Almanac starts nothing in a freeze, so the run waits for its end and they move after it.',
      );
    } finally {
      await database.db.freeze.delete({ where: { id: freeze.id } });
    }
  });

  it("reads in as many statements for many shoots as for few (batched, not per shoot)", async () => {
    const statements = async (names: string[]) => {
      let count = 0;
      const counted = <T extends object>(target: T): T =>
        new Proxy(target, {
          get(object, property) {
            const value = Reflect.get(object, property, object) as unknown;
            if (typeof value === "function")
              return (...args: unknown[]) => {
                count++;
                return (value as (...a: unknown[]) => unknown).apply(object, args);
              };
            if (
              typeof value === "object" &&
              value !== null &&
              typeof property === "string" &&
              !property.startsWith("$")
            )
              return counted(value);
            return value;
          },
        });
      const run: ResolvedUpdateRun = {
        ...twoStages(),
        stages: [{ name: "all", when: "window", soakSeconds: 0, approval: false, shoots: names.map(dev) }],
      };
      const answer = await previewUpdateRun(counted(database.db), run, ctx, now, ACTING);
      expect(answer.total).toBe(names.length);
      return count;
    };
    const few = ["cluster-1", "cluster-2"];
    const many = ["cluster-0", "cluster-1", "cluster-2", "cluster-3", "cluster-4", "cluster-5", "cluster-6", "old"];
    await statements(many); // the namespace's project is then in the process's cache for both
    expect(await statements(many)).toBe(await statements(few));
  });

  it("writes nothing", async () => {
    const before = await findShoots(database.db, [dev("cluster-1"), dev("old")]);
    await previewUpdateRun(database.db, twoStages(), ctx, now, ACTING);
    const after = await findShoots(database.db, [dev("cluster-1"), dev("old")]);
    expect([...after.values()].map((s) => s.resourceVersion)).toEqual(
      [...before.values()].map((s) => s.resourceVersion),
    );
  });
});
