// Update runs (issue 29, item 2) on a real PostgreSQL, with a controlled clock: the job's step
// (stepUpdateRun) is called with the moment it runs at, and the shoots' health is set by hand (no
// simulated gardenlet runs here), so that stages, gates, soaks, approvals, pauses, freezes and
// cancels are each seen at the moment they decide. Also: a worker that died mid-stage (nothing
// acted on twice), roles, 409s on shoots another run owns and on states, and 422s naming fields.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Principal } from "../../lib/auth/principal.ts";
import { embeddedGardenAccess } from "../../lib/garden/embedded/embedded-garden-access.ts";
import { embeddedShootWrites } from "../../lib/garden/embedded/embedded-shoot-writes.ts";
import type { ShootWrites } from "../../lib/garden/shoot-writes.ts";
import { type PgBoss, startQueue } from "../../lib/jobs/queue.ts";
import { fleetScope } from "../../lib/server/fleet-scope.ts";
import { seedLandscape } from "../../lib/server/seed-landscape.ts";
import {
  MAX_JOB_WAIT_MS,
  runShootWrite,
  runUpdateRunJob,
  stepUpdateRun,
  type UpdateRunJob,
} from "../../lib/server/update-run-job.ts";
import { QUEUES } from "../../lib/jobs/queue.ts";
import {
  actOnUpdateRun,
  getUpdateRun,
  listUpdateRuns,
  previewOrStartUpdateRun,
  type UpdateRunCaller,
} from "../../lib/server/update-runs.ts";
import { listAuditEvents } from "../../lib/store/audit.ts";
import { listAudit } from "../../lib/server/list-audit.ts";
import { insertFreeze } from "../../lib/store/freezes.ts";
import { updateRunRequestId, type UpdateRunRequest } from "../../lib/api/update-runs.ts";
import { Refusal } from "../../lib/api/refusal.ts";
import { shoot, worker } from "../support/builders.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { FAST } from "../support/jobs.ts";
import { smallLandscape } from "../support/small-landscape.ts";

const T0 = Date.now();
const S = 1000;
let database: TestDatabase;
let client: PgBoss;

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
/** A viewer on dev. */
const vic: Principal = {
  ...ann,
  id: "u-vic",
  name: "Vic",
  email: "vic@example.com",
  bindings: [{ role: "viewer", scope: "dev" }],
};
const admin: Principal = {
  ...ann,
  id: "u-adm",
  name: "Ada",
  email: "ada@example.com",
  bindings: [{ role: "admin", scope: "*" }],
};

async function caller(principal: Principal = ann): Promise<UpdateRunCaller> {
  const scope = await fleetScope(database.db, principal, embeddedGardenAccess);
  return {
    scope,
    actor: principal.kind === "user" ? principal.email : principal.name,
    identity: { kind: "person", user: `almanac:user:${principal.kind === "user" ? principal.email : ""}`, groups: [] },
  };
}

/** Every shoot the write port was asked to change, in order ("namespace/name"). */
let sent: string[] = [];
function countedGarden(): ShootWrites {
  const writes = embeddedShootWrites(database.db, () => client);
  return {
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
}

const step = (id: string, at: number) => stepUpdateRun(database.db, countedGarden(), id, at);

async function start(body: UpdateRunRequest, principal: Principal = ann): Promise<string> {
  const outcome = await previewOrStartUpdateRun(database.db, body, await caller(principal), T0, () => client);
  if (outcome.dryRun) throw new Error("not started");
  return outcome.answer.id;
}

/** What the simulated gardenlet does at the end of a reconcile: the spec observed, the operation Succeeded. */
async function reconciled(names: readonly string[], state: "Succeeded" | "Failed" = "Succeeded") {
  for (const name of names) {
    const where = { namespace_name: { namespace: "garden-dev", name } };
    const row = await database.db.shoot.findUniqueOrThrow({ where });
    const metadata = row.metadata as { generation?: number; annotations?: Record<string, string> };
    const status = row.status as Record<string, unknown>;
    await database.db.shoot.update({
      where,
      data: {
        status: {
          ...status,
          observedGeneration: metadata.generation ?? 1,
          lastOperation: { type: "Reconcile", state, progress: 100, lastUpdateTime: new Date().toISOString() },
          lastErrors: state === "Failed" ? [{ description: "boom" }] : [],
        },
      },
    });
  }
}

async function version(name: string, namespace = "garden-dev") {
  const row = await database.db.shoot.findUniqueOrThrow({ where: { namespace_name: { namespace, name } } });
  return (row.spec as { kubernetes: { version: string } }).kubernetes.version;
}

async function run(id: string) {
  return getUpdateRun(database.db, id, await caller(admin));
}

/** Cancels every run still under way (each test starts from shoots no run owns). */
async function cancelAll() {
  const runs = await listUpdateRuns(database.db, { limit: 200 }, await caller(admin));
  for (const r of runs.items)
    if (!["Succeeded", "Failed", "Cancelled"].includes(r.state))
      await actOnUpdateRun(database.db, r.id, "cancel", await caller(admin), T0, () => client);
}

async function refusal(promise: Promise<unknown>): Promise<Refusal> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof Refusal) return error;
    throw error;
  }
  throw new Error("not refused");
}

const shoots = (...names: string[]) => names.map((name) => ({ namespace: "garden-dev", name }));

beforeAll(async () => {
  database = await createTestDatabase();
  client = await startQueue(database.url, { expireSeconds: FAST.jobExpireSeconds, supervise: false });
  const landscape = smallLandscape(T0, 10);
  for (const name of ["prod-0", "prod-1"]) {
    const s = shoot("1.31.2", { workers: [worker("pool-a", "gardenlinux", "1592.4.0")] });
    s.metadata = { ...s.metadata, name, namespace: "garden-prod", uid: randomUUID() };
    s.spec.seedName = "seed-1";
    s.status = { ...s.status, seedName: "seed-1" };
    landscape.shoots.push(s);
  }
  landscape.projects.push({ metadata: { name: "prod" }, spec: { namespace: "garden-prod" } });
  await seedLandscape(database.db, landscape, { actor: "test", now: T0 });
  // Their accounts: a run acts on a shoot only while its maker's roles still allow it.
  for (const p of [ann, vic, admin])
    if (p.kind === "user")
      await database.db.user.create({
        data: { id: p.id, name: p.name, email: p.email, roleBindings: { create: p.bindings.map((b) => ({ ...b })) } },
      });
}, 120_000);

afterAll(async () => {
  await client?.stop({ graceful: false });
  await database?.drop();
});

beforeEach(async () => {
  sent = [];
  await cancelAll();
});

describe("update runs: progress with a controlled clock", () => {
  it("acts stage by stage, gates on health, soaks, waits for approval, and ends Succeeded, audited", async () => {
    const id = await start({
      name: "k8s 1.31",
      target: { kubernetes: "1.31" },
      stages: [
        { name: "canary", shoots: shoots("cluster-1"), when: "now", soakSeconds: 60 },
        { name: "rest", shoots: shoots("cluster-2", "cluster-3"), when: "now", approval: true },
      ],
      healthGate: { healthySeconds: 10 },
    });
    expect((await run(id)).state).toBe("Pending");

    // Stage 1 acts on its shoot at once; nothing of stage 2 is touched.
    expect(await step(id, T0)).toEqual({ wakeAt: T0, acted: 1 });
    expect(sent).toEqual(["garden-dev/cluster-1"]);
    expect(await version("cluster-1")).toBe("1.31.4");
    expect(await version("cluster-2")).toBe("1.31.2");

    // The gate: the change is not reconciled yet, so it holds, naming the shoot.
    await step(id, T0 + S);
    let answer = await run(id);
    expect(answer.state).toBe("Running");
    expect(answer.stages[0]).toMatchObject({ state: "Gating" });
    expect(answer.stages[0]!.holding).toEqual([
      { namespace: "garden-dev", name: "cluster-1", reason: "its change is not reconciled yet" },
    ]);
    expect(answer.stages[0]!.items[0]).toMatchObject({
      state: "Succeeded",
      changes: [{ field: "spec.kubernetes.version", before: "1.31.2", after: "1.31.4" }],
    });

    await reconciled(["cluster-1"]);
    await step(id, T0 + 2 * S);
    expect((await run(id)).stages[0]!.state).toBe("Gating");
    await step(id, T0 + 12 * S);
    answer = await run(id);
    expect(answer.stages[0]).toMatchObject({ state: "Soaking", soakUntil: new Date(T0 + 72 * S).toISOString() });
    expect(answer.message).toContain("soaks until");

    // Soak over: stage 2 asks for approval; nothing is acted on until it is given.
    expect((await step(id, T0 + 71 * S)).wakeAt).toBe(T0 + 72 * S);
    expect(await step(id, T0 + 72 * S)).toEqual({ acted: 0 });
    answer = await run(id);
    expect(answer).toMatchObject({ state: "WaitingForApproval", message: 'Stage "rest" waits for approval.' });
    expect(answer.stages.map((s) => s.state)).toEqual(["Succeeded", "WaitingForApproval"]);
    expect(sent).toEqual(["garden-dev/cluster-1"]);

    // A viewer may not approve; an operator may, and is named.
    expect((await refusal(actOnUpdateRun(database.db, id, "approve", await caller(vic), T0, () => client))).code).toBe(
      "forbidden",
    );
    answer = await actOnUpdateRun(database.db, id, "approve", await caller(ann), T0 + 80 * S, () => client);
    expect(answer.state).toBe("Running");
    expect(answer.stages[1]).toMatchObject({
      approvedBy: "ann@example.com",
      approvedAt: new Date(T0 + 80 * S).toISOString(),
    });

    expect(await step(id, T0 + 80 * S)).toEqual({ wakeAt: T0 + 80 * S, acted: 2 });
    await reconciled(["cluster-2", "cluster-3"]);
    await step(id, T0 + 81 * S);
    await step(id, T0 + 91 * S);
    answer = await run(id);
    expect(answer.state).toBe("Succeeded");
    expect(answer.finishedAt).toBeDefined();
    expect(answer.expectedEnd).toBeUndefined();
    expect(answer.stages.map((s) => s.state)).toEqual(["Succeeded", "Succeeded"]);
    expect(sent).toEqual(["garden-dev/cluster-1", "garden-dev/cluster-2", "garden-dev/cluster-3"]);

    // One audit event per shoot, under the run's request ids, acting as the run's maker.
    const writes = await database.db.auditEvent.findMany({
      where: { requestId: { in: [0, 1, 2].map((p) => updateRunRequestId(id, p)) } },
      orderBy: { id: "asc" },
    });
    expect(writes.map((e) => [e.targetName, e.actor, e.action])).toEqual([
      ["cluster-1", "ann@example.com", "shoot.update"],
      ["cluster-2", "ann@example.com", "shoot.update"],
      ["cluster-3", "ann@example.com", "shoot.update"],
    ]);
    const own = await database.db.auditEvent.findMany({ where: { requestId: `run:${id}` }, orderBy: { id: "asc" } });
    expect(own.map((e) => e.action)).toEqual([
      "update-run.create",
      "update-run.stage-start",
      "update-run.stage-finish",
      "update-run.approve",
      "update-run.stage-start",
      "update-run.stage-finish",
      "update-run.finish",
    ]);
    expect(own.find((e) => e.action === "update-run.approve")?.actor).toBe("ann@example.com");
    // The audit log's filter by run: both, each with the run's id.
    const filtered = await listAuditEvents(database.db, { updateRun: id, limit: 100 });
    expect(filtered).toHaveLength(writes.length + own.length);
    expect(filtered.every((e) => e.updateRunId === id)).toBe(true);
  });

  it("a shoot that does not become healthy pauses the run at the gate's bound, naming it; resume watches again", async () => {
    const { setGateGraceSeconds } = await import("../../lib/server/update-run-job.ts");
    setGateGraceSeconds(30);
    try {
      const id = await start({
        name: "gate",
        target: { kubernetes: "1.31.4" },
        stages: [
          { name: "one", shoots: shoots("cluster-4", "cluster-5"), when: "now" },
          { name: "two", shoots: shoots("cluster-6"), when: "now" },
        ],
        healthGate: { healthySeconds: 10 },
      });
      await step(id, T0);
      await reconciled(["cluster-4"]);
      await reconciled(["cluster-5"], "Failed");
      await step(id, T0 + S);
      expect((await run(id)).state).toBe("Running");
      // Bound: the gate's start (T0 + 1 s) + acting (T0 to T0 + 1 s) + 2 x 10 s + 30 s grace.
      await step(id, T0 + 51 * S);
      expect((await run(id)).state).toBe("Running");
      await step(id, T0 + 52 * S);
      const paused = await run(id);
      expect(paused.state).toBe("Paused");
      expect(paused.message).toContain("garden-dev/cluster-5 (last operation Reconcile Failed)");
      expect(paused.stages[0]!.holding).toEqual([
        { namespace: "garden-dev", name: "cluster-5", reason: "last operation Reconcile Failed" },
      ]);
      expect(await step(id, T0 + 60 * S)).toEqual({ acted: 0 });
      expect(sent).toEqual(["garden-dev/cluster-4", "garden-dev/cluster-5"]);

      // Fixed by hand, then resumed: the gate watches again and passes; the next stage goes on.
      await reconciled(["cluster-5"]);
      const resumed = await actOnUpdateRun(database.db, id, "resume", await caller(), T0 + 100 * S, () => client);
      expect(resumed.state).toBe("Running");
      await step(id, T0 + 100 * S);
      await step(id, T0 + 110 * S);
      expect(sent).toEqual(["garden-dev/cluster-4", "garden-dev/cluster-5", "garden-dev/cluster-6"]);
      const events = await database.db.auditEvent.findMany({
        where: { requestId: `run:${id}` },
        orderBy: { id: "asc" },
      });
      expect(events.map((e) => e.action)).toContain("update-run.gate-pause");
      expect(events.map((e) => e.action)).toContain("update-run.resume");
    } finally {
      setGateGraceSeconds(1800);
    }
  });

  it("a pause and a resume while a step decides: the step's decision is not stored over the resume", async () => {
    const { setGateGraceSeconds } = await import("../../lib/server/update-run-job.ts");
    setGateGraceSeconds(30);
    try {
      const id = await start({
        name: "race",
        target: { action: "maintain" },
        stages: [{ name: "one", shoots: shoots("cluster-6"), when: "now" }],
        healthGate: { healthySeconds: 10 },
      });
      await step(id, T0);
      await step(id, T0 + S);
      // Past the gate's bound (its maintenance is still pending): this step would pause the run.
      // A person pauses and resumes it (the gate watches afresh) after the step read the run.
      const at = T0 + 52 * S;
      let raced = false;
      const db = new Proxy(database.db, {
        get(target, prop) {
          if (prop === "freeze" && !raced) {
            raced = true;
            return {
              findMany: async (args: Parameters<typeof target.freeze.findMany>[0]) => {
                await actOnUpdateRun(target, id, "pause", await caller(), at, () => client);
                await actOnUpdateRun(target, id, "resume", await caller(), at, () => client);
                return target.freeze.findMany(args);
              },
            };
          }
          const value: unknown = Reflect.get(target, prop);
          return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
        },
      });
      expect(await stepUpdateRun(db, countedGarden(), id, at)).toEqual({ wakeAt: at, acted: 0 });
      expect(raced).toBe(true);
      expect((await run(id)).state).toBe("Running");
      // The resume's fresh gate: not paused again until its own bound.
      await step(id, at + S);
      expect((await run(id)).state).toBe("Running");
    } finally {
      setGateGraceSeconds(1800);
    }
  });

  it("a run paused before its first step and resumed starts then (its startedAt set)", async () => {
    const id = await start({
      name: "early pause",
      target: { kubernetes: "1.31.4" },
      stages: [{ name: "a", shoots: shoots("cluster-3"), when: "now" }],
    });
    await actOnUpdateRun(database.db, id, "pause", await caller(), T0, () => client);
    const resumed = await actOnUpdateRun(database.db, id, "resume", await caller(), T0 + S, () => client);
    expect(resumed.state).toBe("Pending");
    await step(id, T0 + 2 * S);
    const started = await run(id);
    expect(started.state).toBe("Running");
    expect(started.startedAt).toBe(new Date(T0 + 2 * S).toISOString());
  });

  it("pause holds everything; cancel leaves the shoots not acted on alone, and nothing is acted on after", async () => {
    const id = await start({
      name: "cancel me",
      target: { kubernetes: "1.31.4" },
      stages: [
        { name: "a", shoots: shoots("cluster-7"), when: "now", soakSeconds: 600 },
        { name: "b", shoots: shoots("cluster-8"), when: "now" },
      ],
    });
    await step(id, T0);
    await step(id, T0 + S);
    expect((await run(id)).stages[0]!.state).toBe("Soaking");
    await actOnUpdateRun(database.db, id, "pause", await caller(), T0 + 2 * S, () => client);
    expect(await step(id, T0 + 700 * S)).toEqual({ acted: 0 });
    const pausedAgain = await refusal(actOnUpdateRun(database.db, id, "pause", await caller(), T0, () => client));
    expect(pausedAgain.code).toBe("conflict");
    expect(pausedAgain.message).toContain("is Paused");
    const cancelled = await actOnUpdateRun(database.db, id, "cancel", await caller(), T0 + 3 * S, () => client);
    expect(cancelled.state).toBe("Cancelled");
    expect(cancelled.stages.map((s) => s.state)).toEqual(["Cancelled", "Cancelled"]);
    expect(cancelled.stages[1]!.items[0]).toMatchObject({ state: "Cancelled" });
    expect(await step(id, T0 + 800 * S)).toEqual({ acted: 0 });
    expect(sent).toEqual(["garden-dev/cluster-7"]);
    const resumeRefused = await refusal(actOnUpdateRun(database.db, id, "resume", await caller(), T0, () => client));
    expect(resumeRefused.message).toContain("is Cancelled");
  });

  it("a shoot left Acting by a worker that died after its write is not acted on again; the run goes on", async () => {
    const id = await start({
      name: "crash",
      target: { kubernetes: "1.31.4" },
      stages: [{ name: "a", shoots: shoots("cluster-1", "cluster-9"), when: "now" }],
    });
    // The worker moved cluster-9's item to Acting, wrote the change (its audit event carries the
    // item's request id), and died before recording it.
    await step(id, T0); // cluster-1 was settled earlier... by this same step, with cluster-9 too
    const first = await run(id);
    expect(first.stages[0]!.items.map((i) => i.state)).toEqual(["Succeeded", "Succeeded"]);
    expect(sent.filter((k) => k === "garden-dev/cluster-9")).toHaveLength(1);
    // Rewind cluster-9's row to Acting as the dead worker left it, and step again.
    await database.db.$executeRawUnsafe(
      `UPDATE update_run_items SET state = 'Acting' WHERE run_id = $1::uuid AND name = 'cluster-9'`,
      id,
    );
    await database.db.$executeRawUnsafe(`UPDATE update_run_stages SET state = 'Acting' WHERE run_id = $1::uuid`, id);
    await step(id, T0 + S);
    await step(id, T0 + 2 * S);
    const after = await run(id);
    expect(after.stages[0]!.items[1]).toMatchObject({
      state: "Succeeded",
      message: "Written before its worker stopped (its audit event says so); not sent again.",
    });
    expect(sent.filter((k) => k === "garden-dev/cluster-9")).toHaveLength(1);
    expect(after.state).toBe("Succeeded");
  });

  it("a write sent before the worker died but never recorded is not resent (runShootWrite + the ledger)", async () => {
    const id = await start({
      name: "crash 2",
      target: { kubernetes: "1.31.4" },
      stages: [{ name: "a", shoots: shoots("cluster-0"), when: "now" }],
    });
    // The dead worker's write: sent through the port with the item's request id, nothing recorded.
    await database.db.$executeRawUnsafe(`UPDATE update_run_items SET state = 'Acting' WHERE run_id = $1::uuid`, id);
    const write = runShootWrite(
      database.db,
      countedGarden(),
      shoots("cluster-0")[0]!,
      { kubernetes: "1.31.4" },
      {
        actor: "ann@example.com",
        identity: { kind: "person", user: "almanac:user:ann@example.com", groups: [] },
      },
    );
    await write.send(updateRunRequestId(id, 0), async () => {});
    expect(sent).toEqual(["garden-dev/cluster-0"]);
    await step(id, T0);
    await step(id, T0 + S);
    expect(sent).toEqual(["garden-dev/cluster-0"]);
    expect((await run(id)).state).toBe("Succeeded");
  });

  it("a maker whose role was removed after the run was made: their shoots are refused, named, and the run fails", async () => {
    const id = await start({
      name: "lost role",
      target: { kubernetes: "1.31.4" },
      stages: [{ name: "a", shoots: shoots("cluster-9"), when: "now", approval: true }],
    });
    await step(id, T0);
    await database.db.roleBinding.deleteMany({ where: { userId: ann.id, scope: "dev" } });
    try {
      await actOnUpdateRun(database.db, id, "approve", await caller(admin), T0 + S, () => client);
      await step(id, T0 + S);
      await step(id, T0 + 2 * S);
      const after = await run(id);
      expect(after.stages[0]!.items[0]).toMatchObject({ state: "Refused" });
      expect(after.stages[0]!.items[0]!.message).toContain(
        "ann@example.com, who made the run, no longer holds the operator role on project dev",
      );
      expect(after.state).toBe("Failed");
      expect(sent).toEqual([]);
    } finally {
      await database.db.roleBinding.create({ data: { userId: ann.id, role: "operator", scope: "dev" } });
    }
  });

  it("a shoot already at the target is Succeeded (unchanged); a refused one fails the run, later stages cancelled", async () => {
    const id = await start({
      name: "refused",
      target: { kubernetes: "1.31.4" },
      stages: [
        { name: "a", shoots: shoots("cluster-2"), when: "now" },
        { name: "b", shoots: shoots("cluster-3"), when: "now" },
        { name: "c", shoots: shoots("cluster-4"), when: "now" },
      ],
    });
    await database.db.$executeRawUnsafe(
      `UPDATE shoots SET spec = jsonb_set(spec, '{kubernetes,version}', '"1.31.4"') WHERE name = 'cluster-2'`,
    );
    // 1.29 to 1.31 skips a minor: the garden's validation refuses it.
    await database.db.$executeRawUnsafe(
      `UPDATE shoots SET spec = jsonb_set(spec, '{kubernetes,version}', '"1.29.9"') WHERE name = 'cluster-3'`,
    );
    for (let t = 0; t < 5; t++) await step(id, T0 + t * S);
    const answer = await run(id);
    expect(answer.stages[0]!.items[0]).toMatchObject({ state: "Succeeded", message: "Kubernetes is 1.31.4 already." });
    expect(answer.stages[1]!.items[0]!.state).toBe("Refused");
    expect(answer.stages[1]!.items[0]!.message).toContain("spec.kubernetes.version");
    expect(answer.stages.map((s) => s.state)).toEqual(["Succeeded", "Failed", "Cancelled"]);
    expect(answer.stages[2]!.items[0]!.state).toBe("Cancelled");
    expect(answer.state).toBe("Failed");
    expect(answer.message).toContain("garden-dev/cluster-3");
    expect(sent).toEqual([]);
  });
});

describe("update runs: freezes", () => {
  it("a run waiting for a freeze weeks away looks again within minutes (a freeze deleted meanwhile wakes it)", async () => {
    const now = Date.now();
    const freeze = await insertFreeze(database.db, {
      start: new Date(now - 3600 * S),
      end: new Date(now + 30 * 86_400 * S),
      reason: "long freeze",
      project: "dev",
      createdBy: "test",
    });
    try {
      await database.db.$executeRawUnsafe(`DELETE FROM pgboss.job WHERE name = '${QUEUES.updateRun}'`);
      const id = await start({
        name: "long wait",
        target: { kubernetes: "1.31.4" },
        stages: [{ name: "a", shoots: shoots("cluster-2"), when: "now", approval: true }],
      });
      const work = async () => {
        const [job] = await client.fetch<UpdateRunJob>(QUEUES.updateRun);
        expect(job?.data.runId).toBe(id);
        await runUpdateRunJob(database.db, client, countedGarden(), job!);
      };
      await work();
      expect((await run(id)).state).toBe("WaitingForApproval");
      await actOnUpdateRun(database.db, id, "approve", await caller(), now, () => client);
      await work();
      expect((await run(id)).message).toContain("long freeze");
      const [next] = await database.db.$queryRawUnsafe<{ start_after: Date }[]>(
        `SELECT start_after FROM pgboss.job WHERE name = '${QUEUES.updateRun}' AND singleton_key = '${id}' AND state = 'created'`,
      );
      expect(next!.start_after.getTime()).toBeLessThanOrEqual(Date.now() + MAX_JOB_WAIT_MS);
      expect(sent).toEqual([]);
    } finally {
      await database.db.freeze.delete({ where: { id: freeze.id } });
    }
  });

  it("refuses a run whose first stage is due now inside a freeze (409 naming it); a later stage waits for its end", async () => {
    const freeze = await insertFreeze(database.db, {
      start: new Date(T0 - 3600 * S),
      end: new Date(T0 + 3600 * S),
      reason: "year-end change freeze",
      project: "dev",
      createdBy: "test",
    });
    try {
      const refused = await refusal(
        start({
          name: "f",
          target: { kubernetes: "1.31.4" },
          stages: [{ name: "a", shoots: shoots("cluster-1"), when: "now" }],
        }),
      );
      expect(refused.code).toBe("conflict");
      expect(refused.message).toContain("year-end change freeze");
      // A first stage asking for approval is not due now: made, and it waits for the freeze after its approval.
      const id = await start({
        name: "f2",
        target: { kubernetes: "1.31.4" },
        stages: [{ name: "a", shoots: shoots("cluster-1"), when: "now", approval: true }],
      });
      await step(id, T0);
      await actOnUpdateRun(database.db, id, "approve", await caller(), T0 + S, () => client);
      const waiting = await step(id, T0 + S);
      expect(waiting).toEqual({ wakeAt: freeze.end.getTime(), acted: 0 });
      expect((await run(id)).message).toContain('the freeze "year-end change freeze" of project dev');
      expect(sent).toEqual([]);
      expect(await step(id, freeze.end.getTime())).toMatchObject({ acted: 1 });
    } finally {
      await database.db.freeze.delete({ where: { id: freeze.id } });
    }
  });
});

describe("update runs: making one", () => {
  it("answers 409 naming the run that owns a shoot already", async () => {
    const id = await start({
      name: "owner",
      target: { action: "maintain" },
      stages: [{ name: "a", shoots: shoots("cluster-1"), when: "window" }],
    });
    const refused = await refusal(
      start({
        name: "second",
        target: { action: "maintain" },
        stages: [{ name: "a", shoots: shoots("cluster-2", "cluster-1"), when: "now" }],
      }),
    );
    expect(refused.code).toBe("conflict");
    expect(refused.message).toContain(`Update run "owner" (${id})`);
    expect(refused.message).toContain("garden-dev/cluster-1");
  });

  it("needs the operator role on every project it touches (a viewer: 403)", async () => {
    const mixed = await refusal(
      start({
        name: "mixed",
        target: { action: "maintain" },
        stages: [
          { name: "a", shoots: [...shoots("cluster-1"), { namespace: "garden-prod", name: "prod-0" }], when: "now" },
        ],
      }),
    );
    expect(mixed.code).toBe("forbidden");
    expect(mixed.message).toContain("prod");
    expect(
      (
        await refusal(
          start(
            {
              name: "v",
              target: { action: "maintain" },
              stages: [{ name: "a", shoots: shoots("cluster-1"), when: "now" }],
            },
            vic,
          ),
        )
      ).code,
    ).toBe("forbidden");
  });

  it("a project user reads the run's own events in the audit log (by updateRun), not others' without a namespace", async () => {
    const id = await start({
      name: "audited",
      target: { action: "maintain" },
      stages: [{ name: "a", shoots: shoots("cluster-0"), when: "now", approval: true }],
    });
    await step(id, T0);
    await actOnUpdateRun(database.db, id, "approve", await caller(), T0 + S, () => client);
    const scope = (await caller(vic)).scope;
    const log = await listAudit(database.db, { updateRun: id, limit: 50 }, scope);
    expect(log.items.map((e) => e.action)).toEqual(["update-run.approve", "update-run.create"]);
    expect(log.items.every((e) => e.updateRunId === id)).toBe(true);
    // Paged: one at a time, the same events.
    const first = await listAudit(database.db, { updateRun: id, limit: 1 }, scope);
    const second = await listAudit(database.db, { updateRun: id, limit: 1, cursor: first.nextCursor! }, scope);
    expect([...first.items, ...second.items].map((e) => e.action)).toEqual(["update-run.approve", "update-run.create"]);
    // Without updateRun, the run's events (no namespace) stay the landscape's.
    const all = await listAudit(database.db, { limit: 200 }, scope);
    expect(all.items.some((e) => e.action.startsWith("update-run."))).toBe(false);
    // A viewer of dev only does not read a run on prod.
    const onProd = await start(
      {
        name: "prod",
        target: { action: "maintain" },
        stages: [{ name: "a", shoots: [{ namespace: "garden-prod", name: "prod-0" }], when: "now", approval: true }],
      },
      admin,
    );
    expect((await listAudit(database.db, { updateRun: onProd, limit: 50 }, scope)).items).toEqual([]);
  });

  it("hides a run from whoever may not read each of its projects", async () => {
    const id = await start({
      name: "mine",
      target: { action: "maintain" },
      stages: [{ name: "a", shoots: shoots("cluster-3"), when: "window" }],
    });
    const bob: Principal = {
      ...ann,
      id: "u-bob",
      email: "bob@example.com",
      bindings: [{ role: "operator", scope: "prod" }],
    };
    expect((await refusal(getUpdateRun(database.db, id, await caller(bob)))).code).toBe("not-found");
    expect((await listUpdateRuns(database.db, { limit: 50 }, await caller(bob))).items.map((r) => r.id)).not.toContain(
      id,
    );
    expect((await listUpdateRuns(database.db, { limit: 50 }, await caller(vic))).items[0]!.id).toBe(id);
  });

  it("pages newest first", async () => {
    const a = await start({
      name: "p1",
      target: { action: "maintain" },
      stages: [{ name: "a", shoots: shoots("cluster-4"), when: "window" }],
    });
    const b = await start({
      name: "p2",
      target: { action: "maintain" },
      stages: [{ name: "a", shoots: shoots("cluster-5"), when: "window" }],
    });
    const first = await listUpdateRuns(database.db, { limit: 1 }, await caller());
    expect(first.items.map((r) => r.id)).toEqual([b]);
    const second = await listUpdateRuns(database.db, { limit: 1, cursor: first.nextCursor! }, await caller());
    expect(second.items.map((r) => r.id)).toEqual([a]);
  });

  it("a window stage acts on each shoot at the start of its next window", async () => {
    const id = await start({
      name: "w",
      target: { kubernetes: "1.31.4" },
      stages: [{ name: "a", shoots: shoots("cluster-8"), when: "window" }],
    });
    const first = await step(id, T0);
    const answer = await run(id);
    const due = Date.parse(answer.stages[0]!.items[0]!.dueAt!);
    // The builders' window is 22:00-23:00 UTC.
    expect(new Date(due).toISOString().slice(11, 19)).toBe("22:00:00");
    expect(first).toEqual({ wakeAt: due, acted: 0 });
    expect(await step(id, due - S)).toEqual({ wakeAt: due, acted: 0 });
    expect((await step(id, due)).acted).toBe(1);
    expect(sent).toEqual(["garden-dev/cluster-8"]);
  });

  it("answers 422 naming the field", async () => {
    const bad = async (body: Partial<UpdateRunRequest>) => {
      const r = await refusal(
        start({ name: "x", target: { action: "maintain" }, stages: [], ...body } as UpdateRunRequest),
      );
      expect(r.code).toBe("unprocessable");
      return r.errors.map((e) => e.field);
    };
    const one = [{ name: "a", shoots: shoots("cluster-1"), when: "now" }];
    expect(await bad({ stages: [] })).toEqual(["stages"]);
    expect(await bad({ name: "", stages: one })).toEqual(["name"]);
    expect(await bad({ target: { kubernetes: "1.99" }, stages: one })).toEqual(["target.kubernetes"]);
    expect(await bad({ target: { machineImage: { name: "gardenlinux", version: "9.9.9" } }, stages: one })).toEqual([
      "target.machineImage.version",
    ]);
    expect(await bad({ target: { upgrade: true }, stages: one })).toEqual(["target"]);
    expect(await bad({ stages: [{ name: "a", filter: { q: "no-such-shoot" }, when: "now" }] })).toEqual([
      "stages[0].filter",
    ]);
    expect(await bad({ stages: [{ name: "a", shoots: shoots("cluster-1"), when: "now", soakSeconds: -1 }] })).toEqual([
      "stages[0].soakSeconds",
    ]);
    expect(await bad({ stages: [{ name: "a", shoots: shoots("cluster-1"), when: "later" }] })).toEqual([
      "stages[0].when",
    ]);
    expect(await bad({ stages: one, healthGate: { healthySeconds: 0 } })).toEqual(["healthGate.healthySeconds"]);
    expect(
      await bad({
        stages: [
          { name: "a", shoots: shoots("cluster-1"), when: "now" },
          { name: "b", shoots: shoots("cluster-1"), when: "now" },
        ],
      }),
    ).toEqual(["stages[1].shoots"]);
    expect(await bad({ stages: [{ name: "a", shoots: shoots("nope"), when: "now" }] })).toEqual([
      "stages[0].shoots[0]",
    ]);
  });
});
