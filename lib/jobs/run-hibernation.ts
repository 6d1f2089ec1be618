// The simulated garden's hibernation controller: at a shoot's moment, in one transaction per
// batch, the engine's decision (scheduled-hibernation.ts: spec.hibernation.enabled as the most
// recent moment says), the write as gardener-apiserver stores it (a new generation: a change of
// hibernation always counts, even with confineSpecUpdateRollout), an audit event, the reconcile
// the gardenlet starts for it (status.hibernated follows), the next moment and its job, and the
// completion of the jobs themselves. A worker killed half-way leaves nothing: the jobs expire and
// run again.
import type { Job } from "pg-boss";
import { CHANNEL } from "../db/change-feed.ts";
import type { Db } from "../db/client.ts";
import { Prisma } from "../db/generated/client.ts";
import { scheduledHibernation } from "../engine/scheduled-hibernation.ts";
import { changedFields } from "../engine/shoot-patch.ts";
import { prepareShootForUpdate } from "../engine/shoot-strategy.ts";
import { profileKeyOf } from "../gardener/profile-reference.ts";
import { logger } from "../observability/logger.ts";
import { type AuditEventInput, recordAuditEvents } from "../store/audit.ts";
import { cachedCloudProfiles } from "../store/cloud-profiles.ts";
import {
  deleteHibernationMoments,
  type HibernationMomentRow,
  lockHibernationMoments,
  upsertHibernationMoments,
} from "../store/hibernation-moments.ts";
import { shootColumns } from "../store/shoot-columns.ts";
import { lockShoots, type ShootWrite, updateShoots } from "../store/shoots.ts";
import { completeInTx, type PgBoss, QUEUES } from "./queue.ts";
import { enqueueHibernation, type HibernationJob } from "./schedule-hibernation.ts";
import { startReconcilesInTx } from "./start-reconcile.ts";

const ACTOR = "system:shoot-hibernation-controller";
const TRANSACTION_TIMEOUT_MS = 30_000;
const key = (s: { namespace: string; name: string }) => `${s.namespace}/${s.name}`;

/** Runs the jobs' hibernation moments at `now`; answers how many shoots were changed. */
export async function runHibernation(
  db: Db,
  boss: PgBoss,
  jobs: readonly Job<HibernationJob>[],
  now: number,
): Promise<number> {
  const profiles = await cachedCloudProfiles(db, now);
  const skipped: string[] = [];
  const count = await db.$transaction(
    async (tx) => {
      const keys = [
        ...new Map(jobs.map((j) => [key(j.data), { namespace: j.data.namespace, name: j.data.name }])).values(),
      ];
      // Our claim on the jobs first: an attempt that lost it writes nothing.
      await completeInTx(boss, tx, QUEUES.hibernation, jobs);
      // Shoots before moments, in the order a PATCH takes them, so the two never deadlock.
      const shoots = await lockShoots(tx, keys);
      const moments = await lockHibernationMoments(tx, keys);
      const writes: ShootWrite[] = [];
      const audits: AuditEventInput[] = [];
      const reconciles: { namespace: string; name: string; generation: number }[] = [];
      const next: HibernationMomentRow[] = [];
      const gone: { namespace: string; name: string }[] = [];
      const changed: string[] = [];
      const handled = new Set<string>();
      for (const job of jobs) {
        const k = key(job.data);
        if (handled.has(k)) continue;
        handled.add(k);
        const moment = moments.get(k);
        // Served already, or the schedules changed since the job was made.
        if (!moment || moment.dueAt.toISOString() !== job.data.dueAt) continue;
        const stored = shoots.get(k);
        if (!stored) continue;
        const { namespace, name } = job.data;
        const decision = scheduledHibernation(stored.shoot, now);
        if (decision.next) next.push({ namespace, name, dueAt: decision.next });
        else gone.push({ namespace, name });
        if (!decision.shoot) {
          if (decision.skipped) skipped.push(`${k}: ${decision.skipped}`);
          continue;
        }
        const before = stored.shoot;
        const after = prepareShootForUpdate(before, decision.shoot);
        writes.push({
          shoot: after,
          columns: shootColumns(
            after,
            profiles.get(profileKeyOf(after)),
            now,
            stored.resourceVersion + 1,
            stored.running,
          ),
          expectedVersion: stored.resourceVersion,
        });
        audits.push({
          actor: ACTOR,
          // An update as any other (the pages word it already); the actor says whose.
          action: "shoot.update",
          target: { kind: "Shoot", namespace, name },
          changes: changedFields(before, after),
          at: new Date(now),
        });
        if ((after.metadata.generation ?? 0) !== (before.metadata.generation ?? 0)) {
          reconciles.push({ namespace, name, generation: after.metadata.generation ?? 0 });
        }
        changed.push(JSON.stringify({ kind: "Shoot", namespace, name }));
      }
      // The rows are locked, so every write finds its version; if not, write nothing at all.
      if ((await updateShoots(tx, writes)) !== writes.length)
        throw new Error("a shoot changed under its lock; the batch is retried");
      await startReconcilesInTx(tx, boss, reconciles);
      await recordAuditEvents(tx, audits);
      await deleteHibernationMoments(tx, gone);
      await upsertHibernationMoments(tx, next);
      await enqueueHibernation(tx, boss, next);
      if (changed.length > 0)
        await tx.$executeRaw(Prisma.sql`SELECT pg_notify(${CHANNEL}, c) FROM unnest(${changed}::text[]) AS c`);
      return writes.length;
    },
    { timeout: TRANSACTION_TIMEOUT_MS, maxWait: 10_000 },
  );
  for (const line of skipped) logger().info(`Scheduled hibernation left ${line}`);
  return count;
}
