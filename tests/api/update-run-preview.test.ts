// POST /api/v1/update-runs with dryRun over HTTP on the built app (issue 29, item 3): 200 with the
// run's preview as UpdateRunPreview says it (per stage and shoot the planned moment, the change or
// the refusal in the single-shoot endpoints' words, the forced update before the run, the expected end),
// and nothing started.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { updateRunPreviewSchema } from "../../lib/api/update-run-preview.ts";
import { seedLandscape } from "../../lib/server/seed-landscape.ts";
import { call, patch } from "../support/api-client.ts";
import { type AppServer, startWebServer } from "../support/app-server.ts";
import { shoot, worker } from "../support/builders.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { smallLandscape } from "../support/small-landscape.ts";
import { tokenHeader } from "../support/tokens.ts";

let database: TestDatabase;
let server: AppServer;
let operator: { authorization: string };

const post = (body: unknown, headers: Record<string, string> = operator) =>
  call(server.baseUrl, "/api/v1/update-runs", {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });

beforeAll(async () => {
  database = await createTestDatabase();
  const now = Date.now();
  const landscape = smallLandscape(now, 4);
  const add = (name: string, namespace: string, version: string, status?: object) => {
    const s = shoot(version, { workers: [worker("pool-a", "gardenlinux", "1592.4.0")] });
    s.metadata = { ...s.metadata, name, namespace, uid: randomUUID() };
    s.spec.seedName = "seed-1";
    s.status = { ...s.status, seedName: "seed-1", ...status };
    landscape.shoots.push(s);
  };
  // 1.30.1 expired ten days ago: Gardener forces it to 1.30.5 in its next window.
  add("old", "garden-dev", "1.30.1");
  add("migrating", "garden-dev", "1.31.2", { lastOperation: { type: "Migrate", state: "Processing", progress: 40 } });
  await seedLandscape(database.db, landscape, { actor: "test", now });
  operator = await tokenHeader(database.db, "ops", "operator", "dev");
  server = await startWebServer(database.url);
}, 180_000);

afterAll(async () => {
  await server?.stop();
  await database?.drop();
});

describe("POST /api/v1/update-runs with dryRun", () => {
  it("answers 200 with the run's preview, per stage and shoot, and starts nothing", async () => {
    const answer = await post({
      name: "to 1.31",
      target: { kubernetes: "1.31" },
      stages: [
        { name: "first", shoots: [{ namespace: "garden-dev", name: "cluster-1" }], when: "now", soakSeconds: 172_800 },
        {
          name: "later",
          shoots: [
            { namespace: "garden-dev", name: "old" },
            { namespace: "garden-dev", name: "migrating" },
          ],
          when: "window",
          approval: true,
        },
      ],
      healthGate: { healthySeconds: 300 },
      dryRun: true,
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const preview = updateRunPreviewSchema.parse(answer.body);
    expect(preview).toMatchObject({
      name: "to 1.31",
      target: { kubernetes: "1.31" },
      healthGate: { healthySeconds: 300 },
      total: 3,
      afterApproval: true,
      counts: { act: 2, unchanged: 0, refused: 1, forcedBefore: 1, inFreeze: 0 },
    });
    const [first, later] = preview.stages;
    expect(first).toMatchObject({ name: "first", when: "now", approval: false, counts: { act: 1 } });
    expect(first!.items[0]).toMatchObject({
      name: "cluster-1",
      outcome: "act",
      changes: [{ field: "spec.kubernetes.version", before: "1.31.2", after: "1.31.4" }],
    });
    expect(later).toMatchObject({ name: "later", when: "window", approval: true, afterApproval: true });
    expect(Date.parse(later!.earliestStart)).toBeGreaterThanOrEqual(Date.parse(first!.expectedEnd) + 172_800_000);
    const [old, migrating] = later!.items;
    expect(old).toMatchObject({
      name: "old",
      outcome: "act",
      forcedBefore: { from: "1.30.1", to: "1.30.5", kind: "kubernetes", target: "controlPlane" },
    });
    expect(Date.parse(old!.forcedBefore!.at)).toBeLessThan(Date.parse(old!.plannedAt));
    // An operation under way, in the words of the shoot's own PATCH (which it refuses too).
    const own = await patch(
      server.baseUrl,
      "/api/v1/namespaces/garden-dev/shoots/migrating",
      { spec: { kubernetes: { version: "1.31.4" } } },
      operator,
    );
    expect(own.status).toBe(409);
    expect(migrating).toMatchObject({ name: "migrating", outcome: "refused", message: own.body.detail });
    expect(migrating!.message).toBe(
      "Shoot garden-dev/migrating cannot be changed now: cannot change shoot spec during Migrate operation that is in state Processing.",
    );
    expect(preview.expectedEnd).toBe(later!.expectedEnd);
    expect(preview.warnings).toContain(
      '1 cluster will be force-updated by Gardener before the run reaches them (stage "later"): move them to an earlier stage.',
    );
    // Nothing started.
    const runs = await call(server.baseUrl, "/api/v1/update-runs", { headers: operator });
    expect(runs.status).toBe(200);
    expect(runs.body.items).toEqual([]);
  });
});
