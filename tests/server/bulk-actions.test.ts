// Bulk actions (issue 29, item 1) on a real PostgreSQL with the real queue: the preview per action
// with its refusals and the caller's role per shoot, a run to its end with one audit event per
// shoot tied to the bulk id, cancelling mid-run, a worker that died mid-run (nothing acted on
// twice), and bad input answered 422 naming the field.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Principal } from "../../lib/auth/principal.ts";
import { embeddedGardenAccess } from "../../lib/garden/embedded/embedded-garden-access.ts";
import { embeddedShootWrites } from "../../lib/garden/embedded/embedded-shoot-writes.ts";
import type { ShootWrites } from "../../lib/garden/shoot-writes.ts";
import { type PgBoss, QUEUES, startQueue } from "../../lib/jobs/queue.ts";
import { actOnce } from "../../lib/server/act-once.ts";
import { bulkItemLedger, bulkShootWrite, startBulkActionWorker } from "../../lib/server/bulk-action-job.ts";
import { bulkChangeOf } from "../../lib/server/bulk-action-request.ts";
import {
  type BulkActionCaller,
  cancelBulkAction,
  getBulkAction,
  listBulkActions,
  previewOrStartBulkAction,
} from "../../lib/server/bulk-actions.ts";
import { fleetScope } from "../../lib/server/fleet-scope.ts";
import { listAudit } from "../../lib/server/list-audit.ts";
import { requestMaintainNow } from "../../lib/server/maintain-now.ts";
import { seedLandscape } from "../../lib/server/seed-landscape.ts";
import { insertFreeze } from "../../lib/store/freezes.ts";
import { holdStartLock, insertUpdateRun } from "../../lib/store/update-runs.ts";
import { type BulkPreviewAnswer, bulkRequestId } from "../../lib/api/bulk-actions.ts";
import { shoot, worker } from "../support/builders.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { FAST, waitUntil } from "../support/jobs.ts";
import { smallLandscape } from "../support/small-landscape.ts";

const now = Date.now();
let database: TestDatabase;
let client: PgBoss;
let workerBoss: PgBoss | undefined;

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

async function caller(principal: Principal = ann): Promise<BulkActionCaller> {
  const scope = await fleetScope(database.db, principal, embeddedGardenAccess);
  return {
    scope,
    actor: principal.kind === "user" ? principal.email : principal.name,
    identity: { kind: "person", user: "almanac:user:ann@example.com", groups: [] },
  };
}

const garden = () => embeddedShootWrites(database.db, () => client);

/** Every shoot the worker's write port was asked to change, in order ("namespace/name"). */
let sent: string[] = [];

async function startWorker() {
  workerBoss = await startQueue(database.url, { expireSeconds: FAST.jobExpireSeconds, supervise: true });
  const writes = embeddedShootWrites(database.db, () => workerBoss!);
  const counted: ShootWrites = {
    ...writes,
    patchShoot: (actor, key, ...rest) => {
      sent.push(`${key.namespace}/${key.name}`);
      return writes.patchShoot(actor, key, ...rest);
    },
    maintainNow: (actor, key, ...rest) => {
      sent.push(`${key.namespace}/${key.name}`);
      return writes.maintainNow(actor, key, ...rest);
    },
  };
  sent = [];
  await startBulkActionWorker(database.db, workerBoss, counted, {
    pollSeconds: 0.5,
    jobExpireSeconds: FAST.jobExpireSeconds,
  });
}

async function stopWorker() {
  await workerBoss?.stop({ graceful: false });
  workerBoss = undefined;
}

async function auditOf(requestId: string) {
  return database.db.auditEvent.findMany({ where: { requestId } });
}

async function spec(namespace: string, name: string) {
  const row = await database.db.shoot.findUniqueOrThrow({ where: { namespace_name: { namespace, name } } });
  return row.spec as { maintenance: { autoUpdate: Record<string, boolean>; confineSpecUpdateRollout?: boolean } };
}

async function ended(id: string) {
  return waitUntil(`bulk action ${id} to end`, async () => {
    const answer = await getBulkAction(database.db, id, await caller());
    return answer.state !== "Running" && answer;
  });
}

beforeAll(async () => {
  database = await createTestDatabase();
  client = await startQueue(database.url, { expireSeconds: FAST.jobExpireSeconds, supervise: false });
  const landscape = smallLandscape(now, 8);
  // cluster-7 waits for a credentials rotation asked with gardener.cloud/operation.
  landscape.shoots[7]!.metadata.annotations = { "gardener.cloud/operation": "rotate-credentials-start" };
  for (const name of ["prod-0", "prod-1"]) {
    const s = shoot("1.31.2", { workers: [worker("pool-a", "gardenlinux", "1592.4.0")] });
    s.metadata = { ...s.metadata, name, namespace: "garden-prod", uid: randomUUID() };
    s.spec.seedName = "seed-1";
    s.status = { ...s.status, seedName: "seed-1" };
    landscape.shoots.push(s);
  }
  landscape.projects.push({ metadata: { name: "prod" }, spec: { namespace: "garden-prod" } });
  await seedLandscape(database.db, landscape, { actor: "test", now });
  // Ann's account: an action acts on a shoot only while its maker's roles still allow it.
  await database.db.user.create({
    data: {
      id: "u-ann",
      name: "Ann",
      email: "ann@example.com",
      roleBindings: {
        create: [
          { role: "operator", scope: "dev" },
          { role: "viewer", scope: "prod" },
        ],
      },
    },
  });
  // The care controller's constraints follow from what the seed draws for each shoot: here every
  // dev shoot may hibernate but cluster-6, whose webhooks the check finds problematic.
  for (let i = 0; i < 8; i++) {
    const where = { namespace_name: { namespace: "garden-dev", name: `cluster-${i}` } };
    const row = await database.db.shoot.findUniqueOrThrow({ where });
    const possible = i !== 6;
    const constraint = {
      type: "HibernationPossible",
      status: possible ? "True" : "False",
      reason: possible ? "NoProblematicWebhooks" : "ProblematicWebhooks",
      message: possible
        ? "All webhooks are properly configured."
        : 'webhook "w" might prevent worker nodes from joining',
      lastTransitionTime: new Date(now).toISOString(),
      lastUpdateTime: new Date(now).toISOString(),
    };
    await database.db.shoot.update({
      where,
      data: { status: { ...(row.status as object), constraints: [constraint] } },
    });
  }
}, 120_000);

afterAll(async () => {
  await stopWorker();
  await client?.stop({ graceful: false });
  await database?.drop();
});

describe("the preview (dryRun)", () => {
  it("says per shoot what set-auto-update changes, and refuses the shoots the caller only views, naming the role", async () => {
    const { dryRun, answer } = await previewOrStartBulkAction(
      database.db,
      {
        action: "set-auto-update",
        shoots: [
          { namespace: "garden-dev", name: "cluster-1" },
          { namespace: "garden-prod", name: "prod-0" },
          { namespace: "garden-dev", name: "nope" },
        ],
        params: { kubernetesVersion: true },
        dryRun: true,
      },
      await caller(),
      now,
    );
    expect(dryRun).toBe(true);
    if (!dryRun) return;
    expect(answer.counts).toEqual({ act: 1, unchanged: 0, refused: 2 });
    expect(answer.items[0]).toMatchObject({
      namespace: "garden-dev",
      name: "cluster-1",
      outcome: "act",
      changes: [{ field: "spec.maintenance.autoUpdate.kubernetesVersion", before: false, after: true }],
    });
    expect(answer.items[1]).toMatchObject({ name: "prod-0", outcome: "refused" });
    expect(answer.items[1]!.message).toBe(
      "You have the role viewer on project prod (namespace garden-prod); this needs operator.",
    );
    expect(answer.items[2]).toMatchObject({ outcome: "refused", message: "Shoot garden-dev/nope does not exist." });
    // Nothing was written.
    expect((await spec("garden-dev", "cluster-1")).maintenance.autoUpdate.kubernetesVersion).toBe(false);
  });

  it("selects with the fleet list's filter, in the caller's scope, and says what maintain now will do", async () => {
    const { answer } = await previewOrStartBulkAction(
      database.db,
      { action: "maintain", filter: { namespace: "garden-dev", sort: "-name", limit: 2 }, dryRun: true },
      await caller(),
      now,
    );
    const preview = answer as Extract<typeof answer, { items: unknown }>;
    expect(preview.total).toBe(8);
    // The pending rotation refuses cluster-7; the others are asked to maintain now.
    const seven = preview.items.find((i) => i.name === "cluster-7")!;
    expect(seven.outcome).toBe("refused");
    expect(seven.message).toContain(
      'the operation "rotate-credentials-start" asked for with gardener.cloud/operation is still pending',
    );
    expect(preview.items.filter((i) => i.outcome === "act")).toHaveLength(7);
    expect(preview.items[0]!.message).toMatch(/^Maintain now: /);
  });

  it("refuses what the garden's rules refuse, with the field problems (hibernate without the constraint is fine; a bad window is 422)", async () => {
    const { answer } = await previewOrStartBulkAction(
      database.db,
      { action: "hibernate", shoots: [{ namespace: "garden-dev", name: "cluster-2" }], dryRun: true },
      await caller(),
      now,
    );
    expect((answer as BulkPreviewAnswer).items[0]).toMatchObject({
      outcome: "act",
      changes: [{ field: "spec.hibernation.enabled" }],
    });
    const refused = await previewOrStartBulkAction(
      database.db,
      { action: "hibernate", shoots: [{ namespace: "garden-dev", name: "cluster-6" }], dryRun: true },
      await caller(),
      now,
    );
    expect((refused.answer as BulkPreviewAnswer).items[0]).toMatchObject({
      outcome: "refused",
      message: expect.stringContaining(
        "Shoot garden-dev/cluster-6 cannot be hibernated now: its HibernationPossible constraint is False",
      ),
      errors: [{ field: "spec.hibernation.enabled", type: "Forbidden" }],
    });
    const wake = await previewOrStartBulkAction(
      database.db,
      { action: "wake", shoots: [{ namespace: "garden-dev", name: "cluster-2" }], dryRun: true },
      await caller(),
      now,
    );
    expect((wake.answer as BulkPreviewAnswer).items[0]!.outcome).toBe("unchanged");
    const confine = await previewOrStartBulkAction(
      database.db,
      {
        action: "set-confine-rollout",
        shoots: [{ namespace: "garden-dev", name: "cluster-2" }],
        params: { confineSpecUpdateRollout: true },
        dryRun: true,
      },
      await caller(),
      now,
    );
    expect((confine.answer as BulkPreviewAnswer).items[0]!.outcome).toBe("act");
    const window = await previewOrStartBulkAction(
      database.db,
      {
        action: "set-window",
        shoots: [{ namespace: "garden-dev", name: "cluster-2" }],
        params: { begin: "010000+0000", end: "020000+0000" },
        dryRun: true,
      },
      await caller(),
      now,
    );
    expect((window.answer as BulkPreviewAnswer).items[0]).toMatchObject({
      outcome: "act",
      changes: [{ field: "spec.maintenance.timeWindow.begin" }, { field: "spec.maintenance.timeWindow.end" }],
    });
  });
});

describe("bad input", () => {
  const bad = async (body: Parameters<typeof previewOrStartBulkAction>[1]) =>
    previewOrStartBulkAction(database.db, body, await caller(), now).then(
      () => undefined,
      (error: { code: string; errors: { field: string }[] }) => ({
        code: error.code,
        fields: error.errors.map((e) => e.field),
      }),
    );

  it("is 422 naming the field", async () => {
    const one = [{ namespace: "garden-dev", name: "cluster-1" }];
    expect(await bad({ action: "explode", shoots: one })).toEqual({ code: "unprocessable", fields: ["action"] });
    expect(await bad({ action: "maintain", shoots: [] })).toEqual({ code: "unprocessable", fields: ["shoots"] });
    expect(await bad({ action: "maintain" })).toEqual({ code: "unprocessable", fields: ["filter"] });
    expect(
      await bad({ action: "maintain", filter: { namespace: "garden-dev", q: "no-such-cluster-anywhere" } }),
    ).toEqual({ code: "unprocessable", fields: ["filter"] });
    expect(await bad({ action: "maintain", filter: { status: "Bogus" } })).toEqual({
      code: "unprocessable",
      fields: ["filter.status"],
    });
    expect(await bad({ action: "maintain", filter: { colour: "red" } })).toEqual({
      code: "unprocessable",
      fields: ["filter.colour"],
    });
    expect(await bad({ action: "set-window", shoots: one, params: { begin: "25:00", end: "230000+0000" } })).toEqual({
      code: "unprocessable",
      // The engine's validation names it as Gardener's does (timeWindow.begin/end).
      fields: ["params.begin/end"],
    });
    expect(await bad({ action: "set-auto-update", shoots: one, params: { kubernetesVersion: "yes" } })).toEqual({
      code: "unprocessable",
      fields: ["params.kubernetesVersion"],
    });
    expect(await bad({ action: "set-auto-update", shoots: one, params: {} })).toEqual({
      code: "unprocessable",
      fields: ["params"],
    });
    expect(await bad({ action: "wake", shoots: one, params: { now: true } })).toEqual({
      code: "unprocessable",
      fields: ["params.now"],
    });
    expect(await bad({ action: "wake", shoots: [{ namespace: "garden-dev" }] })).toEqual({
      code: "unprocessable",
      fields: ["shoots[0].name"],
    });
  });
});

describe("a freeze", () => {
  it("refuses the start on the frozen project's shoots (409 naming the freeze), not the preview", async () => {
    const freeze = await insertFreeze(database.db, {
      start: new Date(Date.now() - 60_000),
      end: new Date(Date.now() + 3_600_000),
      reason: "dev release week",
      project: "dev",
      createdBy: "test",
    });
    try {
      const body = { action: "maintain", shoots: [{ namespace: "garden-dev", name: "cluster-0" }] };
      const refused = await previewOrStartBulkAction(database.db, body, await caller(), Date.now(), () => client).then(
        () => undefined,
        (error: { code: string; message: string }) => error,
      );
      expect(refused?.code).toBe("conflict");
      expect(refused?.message).toContain('The freeze "dev release week"');
      expect(refused?.message).toContain(freeze.id);
      expect(
        (await previewOrStartBulkAction(database.db, { ...body, dryRun: true }, await caller(), Date.now())).dryRun,
      ).toBe(true);
      expect(await database.db.bulkAction.count({ where: { selection: { equals: { shoots: body.shoots } } } })).toBe(0);
    } finally {
      await database.db.freeze.delete({ where: { id: freeze.id } });
    }
  });
});

describe("a freeze on a project the caller may not act on", () => {
  it("neither refuses the start nor names the freeze: that project's shoots are refused by role", async () => {
    const freeze = await insertFreeze(database.db, {
      start: new Date(Date.now() - 60_000),
      end: new Date(Date.now() + 3_600_000),
      reason: "prod release week",
      project: "prod",
      createdBy: "test",
    });
    try {
      const me = await caller();
      const body = {
        action: "set-auto-update",
        shoots: [
          { namespace: "garden-dev", name: "cluster-0" },
          { namespace: "garden-prod", name: "prod-0" },
        ],
        params: { machineImageVersion: true },
      };
      const { answer } = await previewOrStartBulkAction(database.db, body, me, Date.now(), () => client);
      const id = (answer as { id: string }).id;
      await cancelBulkAction(database.db, id, me);
      const stored = await getBulkAction(database.db, id, me);
      expect(stored.items.find((i) => i.namespace === "garden-prod")?.state).toBe("Refused");
      expect(JSON.stringify(stored)).not.toContain("prod release week");
    } finally {
      await database.db.freeze.delete({ where: { id: freeze.id } });
    }
  });
});

describe("an update run under way", () => {
  it("owns its clusters: the preview and the start refuse them, naming the run (every one, past a page of the store's answer)", async () => {
    // 25 shoots owned (more than shootsOwnedByActiveRuns names at once): cluster-2 and 24 names
    // the run took that no longer exist.
    const ghosts = Array.from({ length: 24 }, (_, i) => ({ namespace: "garden-dev", name: `gone-${i}` }));
    const owned = [{ namespace: "garden-dev", name: "cluster-2" }, ...ghosts];
    const runId = await insertUpdateRun(database.db, {
      name: "dev to 1.32",
      target: { action: "maintain" },
      healthySeconds: null,
      actor: "bob@example.com",
      identity: { kind: "person", user: "almanac:user:bob@example.com", groups: [] },
      projects: ["dev"],
      stages: [{ name: "all", when: "now", soakSeconds: 0, approval: false, shoots: owned }],
    });
    try {
      const me = await caller();
      const body = {
        action: "set-auto-update",
        shoots: [{ namespace: "garden-dev", name: "cluster-0" }, ...owned],
        params: { kubernetesVersion: true },
      };
      const says = (key: { namespace: string; name: string }) =>
        `${key.namespace}/${key.name} belongs to update run "dev to 1.32" (${runId}), which is still under way; a cluster is moved by one run at a time. Wait for the run to end, or cancel it.`;
      const { answer } = await previewOrStartBulkAction(database.db, { ...body, dryRun: true }, me, Date.now());
      const preview = answer as BulkPreviewAnswer;
      expect(preview.items[0]).toMatchObject({ name: "cluster-0", outcome: "act" });
      expect(preview.counts).toEqual({ act: 1, unchanged: 0, refused: 25 });
      for (const [i, key] of owned.entries())
        expect(preview.items[i + 1]).toMatchObject({ ...key, outcome: "refused", message: says(key) });

      const started = await previewOrStartBulkAction(database.db, body, me, Date.now(), () => client);
      const id = (started.answer as { id: string }).id;
      await cancelBulkAction(database.db, id, me);
      const stored = await getBulkAction(database.db, id, me);
      for (const [i, key] of owned.entries())
        expect(stored.items[i + 1]).toMatchObject({ ...key, state: "Refused", message: says(key) });
      expect(stored.items[0]).toMatchObject({ name: "cluster-0", state: "Cancelled" });
    } finally {
      await database.db.$executeRaw`UPDATE update_runs SET state = 'Cancelled' WHERE id = ${runId}::uuid`;
    }
  });

  it("a run started while a bulk action starts: the bulk action waits for it and refuses the clusters it took", async () => {
    const me = await caller();
    const taken = { namespace: "garden-dev", name: "cluster-3" };
    let runId = "";
    let started: Promise<Awaited<ReturnType<typeof previewOrStartBulkAction>>> | undefined;
    // The run's start holds the lock while it inserts; the bulk action, whose first check found
    // cluster-3 free, starts meanwhile and must not take it once the run has committed.
    await database.db.$transaction(
      async (tx) => {
        await holdStartLock(tx);
        started = previewOrStartBulkAction(
          database.db,
          { action: "set-auto-update", shoots: [taken], params: { kubernetesVersion: true } },
          me,
          Date.now(),
          () => client,
        );
        await waitUntil("the bulk action to wait for the start lock", async () => {
          const [row] = await database.db.$queryRaw<{ waiting: number }[]>`
            SELECT count(*)::int AS waiting FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`;
          return row!.waiting > 0;
        });
        runId = await insertUpdateRun(tx, {
          name: "raced",
          target: { action: "maintain" },
          healthySeconds: null,
          actor: "bob@example.com",
          identity: { kind: "person", user: "almanac:user:bob@example.com", groups: [] },
          projects: ["dev"],
          stages: [{ name: "all", when: "now", soakSeconds: 0, approval: false, shoots: [taken] }],
        });
      },
      { timeout: 60_000 },
    );
    try {
      const id = ((await started!).answer as { id: string }).id;
      await cancelBulkAction(database.db, id, me);
      const stored = await getBulkAction(database.db, id, me);
      expect(stored.items[0]).toMatchObject({ ...taken, state: "Refused" });
      expect(stored.items[0]!.message).toContain(`update run "raced" (${runId})`);
    } finally {
      await database.db.$executeRaw`UPDATE update_runs SET state = 'Cancelled' WHERE id = ${runId}::uuid`;
    }
  });
});

describe("a run", () => {
  it("acts on each shoot once as its starter, ends Succeeded, and audits one event per shoot tied to the bulk id", async () => {
    await startWorker();
    try {
      const names = ["cluster-1", "cluster-2", "cluster-3"];
      const { dryRun, answer } = await previewOrStartBulkAction(
        database.db,
        {
          action: "set-auto-update",
          shoots: names.map((name) => ({ namespace: "garden-dev", name })),
          params: { machineImageVersion: true },
        },
        await caller(),
        now,
        () => client,
      );
      expect(dryRun).toBe(false);
      const id = (answer as { id: string }).id;
      const done = await ended(id);
      expect(done).toMatchObject({ state: "Succeeded", actor: "ann@example.com", total: 3, progress: 1 });
      expect(done.counts.Succeeded).toBe(3);
      expect(done.items.map((i) => [i.name, i.state])).toEqual(names.map((n) => [n, "Succeeded"]));
      expect(done.items[0]!.changes).toEqual([
        { field: "spec.maintenance.autoUpdate.machineImageVersion", before: false, after: true },
      ]);
      for (const name of names)
        expect((await spec("garden-dev", name)).maintenance.autoUpdate.machineImageVersion).toBe(true);
      const audit = await listAudit(database.db, { bulkAction: id, limit: 100 }, (await caller()).scope);
      expect(audit.items).toHaveLength(3);
      expect(new Set(audit.items.map((e) => e.target.name))).toEqual(new Set(names));
      for (const e of audit.items)
        expect(e).toMatchObject({ actor: "ann@example.com", action: "shoot.update", bulkActionId: id });
      const list = await listBulkActions(database.db, { limit: 10 }, await caller());
      expect(list.items[0]).toMatchObject({ id, state: "Succeeded" });
    } finally {
      await stopWorker();
    }
  });

  it("refuses in the run the shoots the caller only views, naming them, and then ends Failed", async () => {
    await startWorker();
    try {
      const { answer } = await previewOrStartBulkAction(
        database.db,
        {
          action: "set-confine-rollout",
          shoots: [
            { namespace: "garden-dev", name: "cluster-4" },
            { namespace: "garden-prod", name: "prod-1" },
          ],
          params: { confineSpecUpdateRollout: true },
        },
        await caller(),
        now,
        () => client,
      );
      const done = await ended((answer as { id: string }).id);
      expect(done.state).toBe("Failed");
      expect(done.items[0]).toMatchObject({ name: "cluster-4", state: "Succeeded" });
      expect(done.items[1]).toMatchObject({
        name: "prod-1",
        state: "Refused",
        message: "You have the role viewer on project prod (namespace garden-prod); this needs operator.",
      });
      expect((await spec("garden-prod", "prod-1")).maintenance.confineSpecUpdateRollout).toBeUndefined();
    } finally {
      await stopWorker();
    }
  });

  it("cancelled mid-run: what was acted on stays, the rest is Cancelled and never acted on", async () => {
    // The shoots the garden lets hibernate (the demo draws some HibernationPossible constraints False).
    const preview = await previewOrStartBulkAction(
      database.db,
      { action: "hibernate", filter: { namespace: "garden-dev" }, dryRun: true },
      await caller(),
      now,
    );
    const names = (preview.answer as BulkPreviewAnswer).items
      .filter((i) => i.outcome === "act")
      .map((i) => i.name)
      .slice(0, 4);
    expect(names.length).toBeGreaterThanOrEqual(2);
    const { answer } = await previewOrStartBulkAction(
      database.db,
      { action: "hibernate", shoots: names.map((name) => ({ namespace: "garden-dev", name })) },
      await caller(),
      now,
      () => client,
    );
    const id = (answer as { id: string }).id;
    // The first shoot is acted on (as the job does) before the cancel comes.
    const change = bulkChangeOf("hibernate", {});
    const by = { actor: "ann@example.com", identity: (await caller()).identity };
    const first = await actOnce(
      database.db,
      bulkItemLedger(id, 0),
      bulkShootWrite(database.db, garden(), { namespace: "garden-dev", name: names[0]! }, change, by),
    );
    expect({ first, message: (await getBulkAction(database.db, id, await caller())).items[0]!.message }).toEqual({
      first: "Succeeded",
      message: "Changed spec.hibernation.enabled: (none) -> true.",
    });
    // A worker that died had moved the second to Acting, but sent nothing.
    await database.db.bulkActionItem.update({
      where: { bulkActionId_position: { bulkActionId: id, position: 1 } },
      data: { state: "Acting" },
    });
    const cancelled = await cancelBulkAction(database.db, id, await caller());
    expect(cancelled.state).toBe("Cancelled");
    await startWorker();
    try {
      await waitUntil("the job to be done", async () => {
        const jobs = await client.findJobs(QUEUES.bulkAction, { data: { bulkActionId: id } });
        return jobs.length > 0 && jobs.every((j) => j.state === "completed");
      });
      expect(sent).toEqual([]);
    } finally {
      await stopWorker();
    }
    const after = await getBulkAction(database.db, id, await caller());
    expect(after.state).toBe("Cancelled");
    expect(after.items.map((i) => i.state)).toEqual(names.map((_, i) => (i === 0 ? "Succeeded" : "Cancelled")));
    for (const [i, name] of names.entries()) {
      const row = await database.db.shoot.findUniqueOrThrow({
        where: { namespace_name: { namespace: "garden-dev", name } },
      });
      expect((row.spec as { hibernation?: { enabled: boolean } }).hibernation?.enabled ?? false).toBe(i === 0);
      expect(await auditOf(bulkRequestId(id, i))).toHaveLength(i === 0 ? 1 : 0);
    }
    await expect(cancelBulkAction(database.db, id, await caller())).rejects.toMatchObject({ code: "conflict" });
  });

  it("on the simulated garden, the write and the shoot's state in the action commit together", async () => {
    const { answer } = await previewOrStartBulkAction(
      database.db,
      {
        action: "set-auto-update",
        shoots: [{ namespace: "garden-dev", name: "cluster-0" }],
        params: { kubernetesVersion: true },
      },
      await caller(),
      now,
      () => client,
    );
    const id = (answer as { id: string }).id;
    const change = bulkChangeOf("set-auto-update", { kubernetesVersion: true });
    const by = { actor: "ann@example.com", identity: (await caller()).identity };
    // The write's transaction fails after the item was moved in it: neither is kept.
    const failing = bulkShootWrite(database.db, garden(), { namespace: "garden-dev", name: "cluster-0" }, change, by);
    const broken = {
      ...failing,
      send: (requestId: string, alongside: Parameters<typeof failing.send>[1]) =>
        failing.send(requestId, async (tx, changes) => {
          await alongside(tx, changes);
          throw new Error("the database went away");
        }),
    };
    await expect(actOnce(database.db, bulkItemLedger(id, 0), broken)).rejects.toThrow("the database went away");
    expect((await getBulkAction(database.db, id, await caller())).items[0]!.state).toBe("Acting");
    expect((await spec("garden-dev", "cluster-0")).maintenance.autoUpdate.kubernetesVersion).toBe(false);
    expect(await auditOf(bulkRequestId(id, 0))).toHaveLength(0);
    // Taken again, it is found never written, and sent once.
    expect(await actOnce(database.db, bulkItemLedger(id, 0), failing)).toBe("Succeeded");
    expect((await spec("garden-dev", "cluster-0")).maintenance.autoUpdate.kubernetesVersion).toBe(true);
    expect(await auditOf(bulkRequestId(id, 0))).toHaveLength(1);
  });

  it("resumes after a worker died mid-run, acting on no shoot twice", async () => {
    const names = ["cluster-3", "cluster-4", "cluster-5", "cluster-6"];
    const { answer } = await previewOrStartBulkAction(
      database.db,
      { action: "maintain", shoots: names.map((name) => ({ namespace: "garden-dev", name })) },
      await caller(),
      now,
      () => client,
    );
    const id = (answer as { id: string }).id;
    // The dead worker: it had moved shoot 0 to Acting and its write had committed (as on a live
    // garden, where the item's state is written after the answer), and moved shoot 1 to Acting
    // but died before sending anything.
    await database.db.bulkActionItem.updateMany({
      where: { bulkActionId: id, position: { in: [0, 1] } },
      data: { state: "Acting" },
    });
    await requestMaintainNow(garden(), {
      namespace: "garden-dev",
      name: "cluster-3",
      actor: "ann@example.com",
      requestId: bulkRequestId(id, 0),
      identity: (await caller()).identity,
      now: Date.now(),
    });
    await startWorker();
    try {
      const done = await ended(id);
      expect(done.state).toBe("Succeeded");
      expect(done.items[0]!.message).toMatch(/not sent again/);
      // The shoot whose write had happened is not sent again; the one left before sending is sent once.
      expect(sent).toEqual(names.slice(1).map((n) => `garden-dev/${n}`));
    } finally {
      await stopWorker();
    }
    for (const position of [0, 1, 2, 3]) expect(await auditOf(bulkRequestId(id, position))).toHaveLength(1);
  });

  it("a write left open on a live garden (its intent pending) is settled from the shoot, not sent again", async () => {
    const { answer } = await previewOrStartBulkAction(
      database.db,
      {
        action: "set-auto-update",
        shoots: [
          { namespace: "garden-dev", name: "cluster-5" },
          { namespace: "garden-dev", name: "cluster-6" },
        ],
        params: { kubernetesVersion: true },
      },
      await caller(),
      now,
      () => client,
    );
    const id = (answer as { id: string }).id;
    await database.db.bulkActionItem.updateMany({ where: { bulkActionId: id }, data: { state: "Acting" } });
    // The garden applied cluster-5's change (the mirror shows it) but its answer was never recorded;
    // cluster-6's answer is lost and the shoot does not show the change.
    const row = await database.db.shoot.findUniqueOrThrow({
      where: { namespace_name: { namespace: "garden-dev", name: "cluster-5" } },
    });
    const applied = structuredClone(row.spec) as { maintenance: { autoUpdate: Record<string, boolean> } };
    applied.maintenance.autoUpdate.kubernetesVersion = true;
    await database.db.shoot.update({
      where: { namespace_name: { namespace: "garden-dev", name: "cluster-5" } },
      data: { spec: applied },
    });
    for (const [position, name] of ["cluster-5", "cluster-6"].entries()) {
      await database.db.gardenWriteIntent.create({
        data: {
          actor: "ann@example.com",
          requestId: bulkRequestId(id, position),
          action: "shoot.update",
          namespace: "garden-dev",
          name,
        },
      });
    }
    await startWorker();
    try {
      const done = await ended(id);
      expect(done.items.map((i) => i.state)).toEqual(["Succeeded", "Failed"]);
      expect(done.items[1]!.message).toMatch(/cannot be told yet; it was not sent again/);
      expect(sent).toEqual([]);
    } finally {
      await stopWorker();
    }
    expect(await auditOf(bulkRequestId(id, 0))).toHaveLength(0);
    expect(await auditOf(bulkRequestId(id, 1))).toHaveLength(0);
    expect((await spec("garden-dev", "cluster-6")).maintenance.autoUpdate.kubernetesVersion).toBe(false);
  });

  it("a live write whose outcome nobody could tell (its outcome-unknown event) is not taken for a write", async () => {
    const { answer } = await previewOrStartBulkAction(
      database.db,
      {
        action: "set-auto-update",
        shoots: [{ namespace: "garden-dev", name: "cluster-6" }],
        params: { kubernetesVersion: true },
      },
      await caller(),
      now,
      () => client,
    );
    const id = (answer as { id: string }).id;
    await database.db.bulkActionItem.updateMany({ where: { bulkActionId: id }, data: { state: "Acting" } });
    // Its worker died while the garden was asked; later the intent pass could not tell and said so.
    const requestId = bulkRequestId(id, 0);
    await database.db.gardenWriteIntent.create({
      data: {
        actor: "ann@example.com",
        requestId,
        action: "shoot.update",
        namespace: "garden-dev",
        name: "cluster-6",
        state: "unknown",
      },
    });
    await database.db.auditEvent.create({
      data: {
        actor: "ann@example.com",
        action: "shoot.update.outcome-unknown",
        targetKind: "Shoot",
        targetNamespace: "garden-dev",
        targetName: "cluster-6",
        requestId,
      },
    });
    await startWorker();
    try {
      const done = await ended(id);
      expect(done.items.map((i) => i.state)).toEqual(["Failed"]);
      expect(done.items[0]!.message).toMatch(/cannot be told yet; it was not sent again/);
      expect(sent).toEqual([]);
    } finally {
      await stopWorker();
    }
  });

  it("a shoot whose write keeps failing before the garden is asked fails alone; the shoots after it are acted on", async () => {
    const shoots = ["cluster-1", "cluster-2"].map((name) => ({ namespace: "garden-dev", name }));
    const { answer } = await previewOrStartBulkAction(
      database.db,
      { action: "set-auto-update", shoots, params: { machineImageVersion: false } },
      await caller(),
      now,
      () => client,
    );
    const id = (answer as { id: string }).id;
    const me = await caller();
    const change = bulkChangeOf("set-auto-update", { machineImageVersion: false });
    const write = bulkShootWrite(database.db, garden(), shoots[0]!, change, { actor: me.actor, identity: me.identity });
    const broken = {
      ...write,
      send: async () => {
        throw new Error("Shoot garden-dev/cluster-1 is not mirrored yet");
      },
    };
    // Thrown for a retry first; once the job has retried enough, the shoot fails and the rest go on.
    await expect(actOnce(database.db, bulkItemLedger(id, 0), broken)).rejects.toThrow("not mirrored yet");
    expect(await actOnce(database.db, bulkItemLedger(id, 0), broken, { failUntracedErrors: true })).toBe("Failed");
    await startWorker();
    try {
      const done = await ended(id);
      expect(done.state).toBe("Failed");
      expect(done.items.map((i) => i.state)).toEqual(["Failed", "Succeeded"]);
      expect(done.items[0]!.message).toBe("Not sent: Shoot garden-dev/cluster-1 is not mirrored yet");
      expect(sent).toEqual(["garden-dev/cluster-2"]);
    } finally {
      await stopWorker();
    }
  });

  it("refuses, named, the shoots of a project its maker no longer operates on (roles looked up at each job)", async () => {
    const { answer } = await previewOrStartBulkAction(
      database.db,
      {
        action: "set-auto-update",
        shoots: [{ namespace: "garden-dev", name: "cluster-4" }],
        params: { machineImageVersion: false },
      },
      await caller(),
      now,
      () => client,
    );
    const id = (answer as { id: string }).id;
    await database.db.roleBinding.deleteMany({ where: { userId: "u-ann", scope: "dev" } });
    await startWorker();
    try {
      const done = await ended(id);
      expect(done.items.map((i) => i.state)).toEqual(["Refused"]);
      expect(done.items[0]!.message).toContain(
        "ann@example.com, who made the action, no longer holds the operator role on project dev",
      );
      expect(sent).toEqual([]);
    } finally {
      await stopWorker();
      await database.db.roleBinding.create({ data: { userId: "u-ann", role: "operator", scope: "dev" } });
    }
  });

  it("goes on after its chain of jobs was lost (a job out of retries): a worker finds it", async () => {
    const { answer } = await previewOrStartBulkAction(
      database.db,
      {
        action: "set-auto-update",
        shoots: [{ namespace: "garden-dev", name: "cluster-3" }],
        params: { machineImageVersion: false },
      },
      await caller(),
      now,
      () => client,
    );
    const id = (answer as { id: string }).id;
    await database.db.$executeRawUnsafe(`DELETE FROM pgboss.job WHERE name = '${QUEUES.bulkAction}'`);
    await startWorker();
    try {
      const done = await ended(id);
      expect(done.items.map((i) => i.state)).toEqual(["Succeeded"]);
      expect(sent).toEqual(["garden-dev/cluster-3"]);
    } finally {
      await stopWorker();
    }
  });
});
