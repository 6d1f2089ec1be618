// The issue "maintain now visibly updates clusters": on the demo landscape as `npm start` seeds it,
// "maintain now" on the shoots with a pending update changes the versions of most of them, with
// the real queue and worker on a real PostgreSQL; the others are refused by the garden's
// admission webhooks, with the webhook's answer on record.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateLandscape } from "../../lib/demo/landscape.ts";
import { admissionMessage } from "../../lib/engine/garden-admission.ts";
import { embeddedShootWrites } from "../../lib/garden/embedded/embedded-shoot-writes.ts";
import type { Shoot } from "../../lib/gardener/types.ts";
import { type PgBoss, QUEUES, startQueue } from "../../lib/jobs/queue.ts";
import { requestMaintainNow } from "../../lib/server/maintain-now.ts";
import { maintenancePlan } from "../../lib/server/maintenance-plan.ts";
import { seedLandscape } from "../../lib/server/seed-landscape.ts";
import { listAdmissionRules } from "../../lib/store/admission-rules.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { FAST, startTestWorker, unfinishedJobs, waitUntil } from "../support/jobs.ts";

// The demo is seeded relative to the moment it starts, as `npm start` does: the worker maintains
// at the clock's time, so the landscape's now is the clock's (its releases are hours before it).
const now = Date.now();
let database: TestDatabase;
let workerBoss: PgBoss;
let client: PgBoss;

/** The versions maintenance may change, by "target|kind". */
function versionsOf(spec: Shoot["spec"]): Record<string, string | undefined> {
  const versions: Record<string, string | undefined> = { "controlPlane|kubernetes": spec.kubernetes.version };
  for (const w of spec.provider?.workers ?? []) {
    versions[`${w.name}|machineImage`] = w.machine.image?.version;
    if (w.kubernetes?.version) versions[`${w.name}|kubernetes`] = w.kubernetes.version;
  }
  return versions;
}

async function stored(namespace: string, name: string): Promise<Shoot> {
  const row = await database.db.shoot.findUniqueOrThrow({ where: { namespace_name: { namespace, name } } });
  return { metadata: row.metadata, spec: row.spec, status: row.status } as unknown as Shoot;
}

beforeAll(async () => {
  database = await createTestDatabase();
  client = await startQueue(database.url, { expireSeconds: FAST.jobExpireSeconds, supervise: false });
  await seedLandscape(database.db, generateLandscape({ now }), { actor: "test", now, boss: client });
  workerBoss = await startTestWorker(database.url, database.db);
}, 120_000);

afterAll(async () => {
  await workerBoss?.stop({ graceful: false });
  await client?.stop({ graceful: false });
  await database?.drop();
});

describe("maintain now on the demo landscape", () => {
  it(
    "updates most shoots with a pending update; the garden's webhooks refuse the others",
    { timeout: 120_000 },
    async () => {
      const shoots = await database.db.shoot.findMany({ select: { namespace: true, name: true } });
      expect(shoots).toHaveLength(64);
      // The shoots whose maintenance plan (GET .../maintenance-plan) changes their spec.
      const pending: { namespace: string; name: string; before: Record<string, string | undefined> }[] = [];
      for (const { namespace, name } of shoots) {
        const plan = await maintenancePlan(database.db, namespace, name, Date.now());
        if (!plan.willChangeSpec) continue;
        expect(plan.changes.length, `${namespace}/${name}`).toBeGreaterThan(0);
        pending.push({ namespace, name, before: versionsOf((await stored(namespace, name)).spec) });
      }
      expect(pending.length).toBeGreaterThan(0);

      const asked = Date.now();
      const writes = embeddedShootWrites(database.db, () => client);
      for (const { namespace, name } of pending) {
        const answer = await requestMaintainNow(writes, {
          namespace,
          name,
          actor: "alice",
          requestId: `maintain-${name}`,
          identity: { kind: "almanac" as const },
          now: Date.now(),
        });
        expect(answer.queued, `${namespace}/${name}`).toBe(true);
      }
      // Every asked-for run has happened (and nothing more is queued for them).
      const runs = await waitUntil(
        "the maintain-now runs",
        async () => {
          const found = await database.db.maintenanceRun.findMany({
            where: { trigger: "maintain-now", startedAt: { gte: new Date(asked - 1_000) } },
          });
          return found.length >= pending.length && found;
        },
        90_000,
      );
      expect((await unfinishedJobs(client, QUEUES.maintainNow)).length).toBe(0);
      const runOf = new Map(runs.map((r) => [`${r.namespace}/${r.name}`, r]));

      const webhookAnswers = new Set(
        (await listAdmissionRules(database.db)).map(
          (rule) => `Updates to the Shoot failed to be applied: ${admissionMessage(rule)}`,
        ),
      );
      expect(webhookAnswers.size).toBeGreaterThan(0);
      let updated = 0;
      let refused = 0;
      for (const { namespace, name, before } of pending) {
        const key = `${namespace}/${name}`;
        const run = runOf.get(key);
        expect(run, key).toBeDefined();
        const after = versionsOf((await stored(namespace, name)).spec);
        if (run!.state === "Succeeded") {
          expect(after, key).not.toEqual(before);
          expect((run!.changes as unknown[]).length, key).toBeGreaterThan(0);
          updated++;
        } else {
          // Refused as a whole by an admission webhook the page explains: nothing changed.
          expect(run!.state, key).toBe("Failed");
          expect(webhookAnswers.has(run!.failureReason ?? ""), `${key}: ${run!.failureReason}`).toBe(true);
          expect(after, key).toEqual(before);
          refused++;
        }
      }
      expect(refused).toBeGreaterThan(0);
      expect(updated, `${updated} of ${pending.length} updated`).toBeGreaterThanOrEqual((2 * pending.length) / 3);
    },
  );
});
