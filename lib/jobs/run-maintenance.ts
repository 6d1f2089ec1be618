// Runs maintenance for a batch of shoots in one transaction: the engine's maintain() on each,
// the new spec, annotations and status.lastMaintenance, a maintenance run record and an audit
// event per shoot, the next schedule, the reconcile that follows a change, and the completion of
// the jobs themselves. A worker killed half-way leaves nothing: the jobs expire and run again.
import type { Job } from "pg-boss";
import type { MaintenanceRun } from "../api/history.ts";
import { CHANNEL } from "../db/change-feed.ts";
import type { Db } from "../db/client.ts";
import { Prisma } from "../db/generated/client.ts";
import { admissionDryRun, type GardenAdmissionRule } from "../engine/garden-admission.ts";
import { maintain, type MaintenanceOutcome } from "../engine/maintain.ts";
import { maintenanceRecord, type MaintenanceRecord } from "../engine/maintenance-record.ts";
import { nextAtSecondOfDay } from "../engine/maintenance-moment.ts";
import { blockingOperation } from "../engine/migration-admission.ts";
import { hasMaintainNow } from "../engine/operation-annotations.ts";
import { changedFields } from "../engine/shoot-patch.ts";
import { prepareShootForUpdate } from "../engine/shoot-strategy.ts";
import { effectiveWindow, windowContains } from "../engine/time-window.ts";
import { validateShoot } from "../engine/validate-shoot.ts";
import { listAdmissionRules } from "../store/admission-rules.ts";
import { type AuditEventInput, recordAuditEvents } from "../store/audit.ts";
import { cachedCloudProfiles } from "../store/cloud-profiles.ts";
import { insertMaintenanceRuns, type MaintenanceRunInput } from "../store/maintenance-runs.ts";
import { maintenanceRunsRecorded } from "../observability/maintenance-runs.ts";
import { lockSchedules, type Schedule, upsertSchedules } from "../store/schedules.ts";
import { shootColumns } from "../store/shoot-columns.ts";
import { lockShoots, type ShootWrite, updateShoots } from "../store/shoots.ts";
import type { Shoot } from "../gardener/types.ts";
import { missingProfileMessage, profileKeyOf } from "../gardener/profile-reference.ts";
import { completeInTx, type PgBoss, type QueueName } from "./queue.ts";
import { type MaintenanceJob, enqueueMaintenance } from "./schedule-maintenance.ts";
import { startReconcilesInTx } from "./start-reconcile.ts";

export type Trigger = MaintenanceRun["trigger"];

export interface MaintenanceJobData {
  readonly namespace: string;
  readonly name: string;
  /** Scheduled runs: the due time the job was made for. */
  readonly dueAt?: string;
}

const ACTOR = "system:maintenance-controller";
// Well below the jobs' expiry, so a batch never outlives its claim.
const TRANSACTION_TIMEOUT_MS = 30_000;
const key = (s: { namespace: string; name: string }) => `${s.namespace}/${s.name}`;

/**
 * The API server's dry run of the maintained shoot: the shoot's own validation, then the garden's
 * admission webhooks (as the API server validates before it calls validating webhooks).
 */
function dryRunWith(rules: readonly GardenAdmissionRule[]): (shoot: Shoot) => string | undefined {
  const admission = admissionDryRun(rules);
  return (shoot) => {
    const errors = validateShoot(shoot);
    return errors.length === 0 ? admission(shoot) : errors.map((e) => `${e.field}: ${e.detail}`).join("; ");
  };
}

interface Done {
  readonly shoot: Shoot;
  readonly record: MaintenanceRecord;
}

function maintainOne(
  shoot: Shoot,
  profile: Parameters<typeof maintain>[1] | undefined,
  now: number,
  dryRun: (shoot: Shoot) => string | undefined,
): Done {
  // A run that could not start leaves the shoot as it was and says why.
  const failed = (failureReason: string): Done => ({
    shoot,
    record: { changes: [], description: "Maintenance failed", state: "Failed", failureReason, specChanged: false },
  });
  if (!profile) return failed(missingProfileMessage(shoot));
  let outcome: MaintenanceOutcome;
  try {
    outcome = maintain(shoot, profile, now, { dryRun });
  } catch (error) {
    return failed((error as Error).message);
  }
  return { shoot: outcome.shoot, record: maintenanceRecord(outcome, shoot.spec) };
}

/**
 * Runs the jobs' maintenance at `now`. Scheduled jobs whose dueAt no longer matches the
 * schedule, and maintain-now jobs for shoots without the annotation, were already served: they
 * complete without doing anything.
 */
export async function runMaintenance(
  db: Db,
  boss: PgBoss,
  queue: string,
  jobs: readonly Job<MaintenanceJobData>[],
  trigger: Trigger,
  now: number,
): Promise<number> {
  const profiles = await cachedCloudProfiles(db, now);
  let recorded: readonly MaintenanceRunInput[] = [];
  const count = await db.$transaction(
    async (tx) => {
      const keys = [
        ...new Map(jobs.map((j) => [key(j.data), { namespace: j.data.namespace, name: j.data.name }])).values(),
      ];
      // Our claim on the jobs first: an attempt that lost it writes nothing.
      await completeInTx(boss, tx, queue as QueueName, jobs);
      // Shoots before schedules, in the order a PATCH takes them, so the two never deadlock.
      const shoots = await lockShoots(tx, keys);
      const schedules = trigger === "window" ? await lockSchedules(tx, keys) : new Map<string, Schedule>();
      const dryRun = dryRunWith(await listAdmissionRules(tx));
      const runs: MaintenanceRunInput[] = [];
      const audits: AuditEventInput[] = [];
      const nextSchedules: Schedule[] = [];
      const changed: string[] = [];
      const writes: ShootWrite[] = [];
      const reconciles: { namespace: string; name: string; generation: number }[] = [];
      const handled = new Set<string>();
      for (const job of jobs) {
        const k = key(job.data);
        if (handled.has(k)) continue;
        handled.add(k);
        const stored = shoots.get(k);
        if (!stored || stored.shoot.metadata.deletionTimestamp) continue;
        const schedule = schedules.get(k);
        if (trigger === "window" && (!schedule || schedule.dueAt.toISOString() !== job.data.dueAt)) continue;
        if (
          trigger === "window" &&
          schedule &&
          (!windowContains(effectiveWindow(stored.shoot), now) || blockingOperation(stored.shoot)?.code === "Migrating")
        ) {
          // Late (the workers were down), or the control plane is moving: Gardener maintains only
          // inside the window, and not during a migration. Next time.
          nextSchedules.push({ ...schedule, dueAt: new Date(nextAtSecondOfDay(schedule.secondOfDay, now)) });
          continue;
        }
        if (trigger === "maintain-now" && !hasMaintainNow(stored.shoot.metadata.annotations)) continue;
        // Not during a migration; the annotation stays, and the run happens once it has finished.
        if (trigger === "maintain-now" && blockingOperation(stored.shoot)) continue;

        const before = stored.shoot;
        const profile = profiles.get(profileKeyOf(before));
        const { shoot: maintained, record } = maintainOne(before, profile, now, dryRun);
        // Stored as gardener-apiserver's strategy stores the maintenance controller's update: the
        // generation goes up for a spec change (unless confined to the window, as this is) or the
        // `reconcile` operation maintenance sets, which is consumed.
        const after: Shoot = prepareShootForUpdate(before, structuredClone(maintained));
        writes.push({
          shoot: after,
          columns: shootColumns(after, profile, now, stored.resourceVersion + 1, stored.running),
          expectedVersion: stored.resourceVersion,
        });
        changed.push(JSON.stringify({ kind: "Shoot", namespace: job.data.namespace, name: job.data.name }));
        runs.push({
          namespace: job.data.namespace,
          name: job.data.name,
          trigger,
          state: record.state,
          ...(schedule ? { scheduledFor: schedule.dueAt } : {}),
          startedAt: new Date(now),
          finishedAt: new Date(now),
          changes: record.changes,
          description: record.description,
          ...(record.failureReason ? { failureReason: record.failureReason } : {}),
        });
        audits.push({
          actor: ACTOR,
          action: trigger === "window" ? "shoot.maintain" : "shoot.maintain-now",
          target: { kind: "Shoot", namespace: job.data.namespace, name: job.data.name },
          changes: changedFields(before, after),
          at: new Date(now),
        });
        if (schedule) {
          // The next one: the first moment after this due time (a late run does not run twice).
          const from = Math.max(now, schedule.dueAt.getTime()) + 1000;
          nextSchedules.push({ ...schedule, dueAt: new Date(nextAtSecondOfDay(schedule.secondOfDay, from)) });
        }
        // The gardenlet reconciles when the generation moved.
        if ((after.metadata.generation ?? 0) !== (before.metadata.generation ?? 0)) {
          reconciles.push({
            namespace: job.data.namespace,
            name: job.data.name,
            generation: after.metadata.generation ?? 0,
          });
        }
      }
      // The rows are locked, so every write finds its version; if not, write nothing at all.
      if ((await updateShoots(tx, writes)) !== writes.length)
        throw new Error("a shoot changed under its lock; the batch is retried");
      await startReconcilesInTx(tx, boss, reconciles);
      await insertMaintenanceRuns(tx, runs);
      await recordAuditEvents(tx, audits);
      await upsertSchedules(tx, nextSchedules);
      await enqueueMaintenance(tx, boss, nextSchedules);
      if (changed.length > 0)
        await tx.$executeRaw(Prisma.sql`SELECT pg_notify(${CHANNEL}, c) FROM unnest(${changed}::text[]) AS c`);
      recorded = runs;
      return runs.length;
    },
    { timeout: TRANSACTION_TIMEOUT_MS, maxWait: 10_000 },
  );
  // Counted once committed: a batch that rolled back (and runs again) is not counted twice.
  maintenanceRunsRecorded(recorded.map((r) => r.state));
  return count;
}

export type { MaintenanceJob };
