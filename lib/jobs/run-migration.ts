// Runs a control-plane migration one transition per job: "begin" starts the current step (its
// start time, lastOperation), "finish" applies the step's effect and records its end and outcome,
// then queues what comes next (the next step, a retry after backoff, or another look at an unready
// destination). Each transition commits with the job's completion, so a killed worker resumes at
// the step it was in and an effect is never applied twice: a job that lost its claim writes
// nothing, and a "finish" for an attempt that is no longer current does nothing.
//
// The shoot's status is written as Gardener writes it (lib/engine/migration-flow.ts): the
// ShootReadyForMigration constraint while the migration waits for its destination, lastOperation
// and lastErrors from the Migrate operation on, status.seedName and a new generation at Migrate
// Succeeded, status.retryCycleStartTime for each operation.
import type { Job } from "pg-boss";
import { config } from "../config/load-config.ts";
import { notifyChange } from "../db/change-feed.ts";
import type { Db, Tx } from "../db/client.ts";
import { crc32 } from "../engine/crc32.ts";
import {
  beginStep,
  finishStep,
  finishWait,
  MIGRATION_STEPS,
  type Migration,
  migrationLastErrors,
  seedAfter,
  shootLastOperation,
  shootStateSizeCheck,
} from "../engine/migration-flow.ts";
import { SHOOT_READY_FOR_MIGRATION, shootReadyForMigration } from "../engine/migration-readiness.ts";
import { ANNOTATION_OPERATION } from "../engine/operation-annotations.ts";
import { recordAuditEvent } from "../store/audit.ts";
import { cachedCloudProfiles } from "../store/cloud-profiles.ts";
import { lockMigration, saveMigration } from "../store/migrations.ts";
import { findSeed } from "../store/seeds.ts";
import { shootColumns } from "../store/shoot-columns.ts";
import { lockShoots, type StoredShoot, updateShoot } from "../store/shoots.ts";
import { type CloudProfile, type Condition, type Shoot, type ShootStatus } from "../gardener/types.ts";
import { profileKeyOf } from "../gardener/profile-reference.ts";
import type { JobsConfig } from "./config.ts";
import { finishInterruptedRoll } from "./roll-worker-nodes.ts";
import { completeInTx, type PgBoss, QUEUES, sendInTx } from "./queue.ts";

export interface MigrationJob {
  readonly migrationId: string;
  readonly phase: "begin" | "finish";
  /** For "finish": the step and attempt it finishes. */
  readonly step?: number;
  readonly attempt?: number;
}

export async function queueMigrationStep(tx: Tx, boss: PgBoss, job: MigrationJob, startAfter?: Date): Promise<void> {
  await sendInTx(boss, tx, QUEUES.migration, job, startAfter ? { startAfter } : {});
}

// The secrets Gardener keeps in the ShootState (control-plane-migration.md), and a simulated size.
const SHOOT_STATE_SECRETS = [
  "ca",
  "ca-front-proxy",
  "static-token",
  "ca-kubelet",
  "ca-metrics-server",
  "etcd-encryption-secret",
  "kube-aggregator",
  "kube-apiserver-basic-auth",
  "kube-apiserver",
  "service-account-key",
  "ssh-keypair",
];

/** A task's simulated effect on the garden; a seeded draw makes some attempts fail. */
async function stepEffect(
  m: Migration,
  migrationId: string,
  config: JobsConfig,
): Promise<{ ok: true; message?: string } | { ok: false; message: string }> {
  const step = MIGRATION_STEPS[m.step];
  const attempt = m.steps[m.step].attempts;
  if (
    config.migrationFaultRate > 0 &&
    (crc32(`${config.faultSeed}|${migrationId}|${m.step}|${attempt}`) % 10_000) / 10_000 < config.migrationFaultRate
  ) {
    return { ok: false, message: "the seed's API server did not answer in time (context deadline exceeded)" };
  }
  switch (step.name) {
    case "MigrateExtensionResources":
      return {
        ok: true,
        message:
          "Infrastructure, ControlPlane, Worker, Network, OperatingSystemConfig and Extension resources annotated gardener.cloud/operation=migrate, and migrated",
      };
    case "PersistShootState": {
      const bytes = 180_000 + SHOOT_STATE_SECRETS.length * 4_096;
      const check = shootStateSizeCheck(bytes, false);
      if (!check.ok) return { ok: false, message: check.error! };
      return {
        ok: true,
        message: `ShootState written: ${SHOOT_STATE_SECRETS.length} secrets (${SHOOT_STATE_SECRETS.join(", ")}) and the Infrastructure, ControlPlane and Worker states, ${(bytes / 1024).toFixed(0)} KiB${check.warning ? `; ${check.warning}` : ""}`,
      };
    }
    case "DeleteKubeAPIServer":
      return { ok: true, message: `kube-apiserver deleted in seed "${m.source}"` };
    case "CreateETCDSnapshot":
      return { ok: true, message: "full snapshot of the main etcd written to the backup bucket" };
    case "DeleteSeedNamespace":
      return { ok: true, message: `the shoot's namespace in seed "${m.source}" was deleted` };
    case "CopyEtcdBackups":
      return { ok: true, message: `etcd backups copied to the backup bucket of seed "${m.destination}"` };
    case "DeployEtcd":
      return {
        ok: true,
        message: `main and events etcd restored from the backup in seed "${m.destination}"; extension resources restored from the ShootState (gardener.cloud/operation=restore)`,
      };
    default:
      return { ok: true, message: `${step.description}: done` };
  }
}

// Crash testing: with ALMANAC_TEST_CRASH_AFTER_TRANSITIONS=N this process kills itself right after
// committing its N-th migration transition, so a test can stop the flow at every step boundary.
const crashAfter = (): number => config().tests.crashAfterTransitions;
let committed = 0;

export async function runMigrationJob(
  db: Db,
  boss: PgBoss,
  job: Job<MigrationJob>,
  config: JobsConfig,
  now: number,
): Promise<void> {
  const profiles = await cachedCloudProfiles(db, now);
  const changed = await db.$transaction(
    async (tx) => {
      await completeInTx(boss, tx, QUEUES.migration, [job]);
      // The shoot first, then the migration: the order a PATCH (a user's retry) takes them in.
      const owner = await tx.controlPlaneMigration.findUnique({
        where: { id: job.data.migrationId },
        select: { namespace: true, name: true },
      });
      if (!owner) return false;
      const shoot = (await lockShoots(tx, [owner])).get(`${owner.namespace}/${owner.name}`);
      const stored = await lockMigration(tx, job.data.migrationId);
      if (!stored) return false;
      const before = stored.flow;
      let m = before;
      if (!shoot || m.state === "Succeeded" || m.state === "Failed") return false;
      if (shoot.shoot.metadata.deletionTimestamp) {
        // Deleted while it waited for its destination (Gardener admits that deletion; its migration
        // controller then stops looking): the migration ends here.
        m = { ...m, state: "Failed", retryAt: undefined, finishedAt: now };
        m = {
          ...m,
          steps: m.steps.map((s, i) => (i === m.step ? { ...s, message: "the shoot is being deleted" } : s)),
        };
        await saveMigration(tx, stored.id, m);
        return true;
      }

      if (job.data.phase === "begin") {
        if (m.retryAt !== undefined && m.retryAt > now) {
          await queueMigrationStep(tx, boss, { migrationId: stored.id, phase: "begin" }, new Date(m.retryAt));
          return false;
        }
        m = beginStep(m, now);
        await queueMigrationStep(
          tx,
          boss,
          { migrationId: stored.id, phase: "finish", step: m.step, attempt: m.steps[m.step].attempts },
          new Date(now + config.migrationStepMs),
        );
      } else {
        // Only the attempt under way may finish; a stale job (its step was finished) does nothing.
        if (job.data.step !== m.step || job.data.attempt !== m.steps[m.step]?.attempts || m.state !== "Processing")
          return false;
        if (m.step === 0) {
          // The controller-manager's ShootReadyForMigration, from both seeds as they are now.
          const [source, destination] = [await findSeed(tx, m.source), await findSeed(tx, m.destination)];
          m = finishWait(m, shootReadyForMigration(source, destination), now);
        } else {
          m = finishStep(m, await stepEffect(m, stored.id, config), now, {
            retryDurationMs: config.migrationRetryMs,
            backoffMs: config.migrationBackoffMs,
            maxBackoffMs: Math.max(config.migrationBackoffMs, 300_000),
          });
        }
        if (m.state === "Processing")
          await queueMigrationStep(
            tx,
            boss,
            { migrationId: stored.id, phase: "begin" },
            m.retryAt === undefined ? undefined : new Date(m.retryAt),
          );
        if (m.state === "Error")
          await queueMigrationStep(tx, boss, { migrationId: stored.id, phase: "begin" }, new Date(m.retryAt!));
        if (m.state === "Succeeded" || m.state === "Failed") {
          await recordAuditEvent(tx, {
            actor: "system:gardenlet",
            action: m.state === "Succeeded" ? "shoot.migrate.succeeded" : "shoot.migrate.failed",
            target: { kind: "Shoot", namespace: stored.namespace, name: stored.name },
            changes: [{ field: "status.seedName", before: m.source, after: seedAfter(m) }],
          });
        }
      }
      await saveMigration(tx, stored.id, m);
      // A roll the migration stopped mid-way (reconcile-shoot.ts leaves a shoot a migration owns)
      // is finished by the Restore, which waits for the worker nodes.
      if (m.state === "Succeeded" && before.state !== "Succeeded")
        await finishInterruptedRoll(tx, stored, shoot.shoot, shoot.running, now);
      await writeShootStatus(tx, shoot, before, m, profiles, now);
      await notifyChange(tx, { kind: "Shoot", namespace: stored.namespace, name: stored.name });
      return true;
    },
    { timeout: 20_000, maxWait: 10_000 },
  );
  if (changed && crashAfter() > 0 && ++committed >= crashAfter()) process.kill(process.pid, "SIGKILL");
}

const iso = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(".000Z", "Z");

/** The ShootReadyForMigration constraint as the wait saw it, keeping its transition time while the status holds. */
function readinessConstraint(previous: Condition | undefined, m: Migration, now: number): Condition | undefined {
  const seen = m.readyForMigration;
  if (!seen) return previous;
  const same = previous?.status === seen.status;
  return {
    type: SHOOT_READY_FOR_MIGRATION,
    status: seen.status,
    lastTransitionTime: same && previous?.lastTransitionTime ? previous.lastTransitionTime : iso(now),
    lastUpdateTime: iso(now),
    reason: seen.reason,
    message: seen.message,
  };
}

async function writeShootStatus(
  tx: Tx,
  held: StoredShoot,
  before: Migration,
  m: Migration,
  profiles: ReadonlyMap<string, CloudProfile>,
  now: number,
) {
  const { shoot, resourceVersion } = held;
  const op = shootLastOperation(m, now, shoot.metadata.name);
  const status: ShootStatus = { ...shoot.status, seedName: seedAfter(m) };
  let generation = shoot.metadata.generation ?? 0;
  // The constraint lives while the migration waits; the controller-manager removes it once the
  // Migrate operation has begun.
  const others = (shoot.status?.constraints ?? []).filter((c) => c.type !== SHOOT_READY_FOR_MIGRATION);
  const previous = shoot.status?.constraints?.find((c) => c.type === SHOOT_READY_FOR_MIGRATION);
  const constraint = op ? undefined : readinessConstraint(previous, m, now);
  status.constraints = constraint ? [...others, constraint] : others;
  if (status.constraints.length === 0) delete status.constraints;
  if (op) {
    status.lastOperation = op;
    // updateShootStatusOperationStart observes the generation the operation runs for.
    if (op.state === "Processing") status.observedGeneration = generation;
    const errors = migrationLastErrors(m, now);
    if (errors) status.lastErrors = errors;
    else delete status.lastErrors;
  }
  // Migrate Succeeded: gardener-apiserver's status strategy gives the shoot a new generation, which
  // the Restore operation then observes.
  if (seedAfter(before) !== seedAfter(m)) generation += 1;
  if (m.retryCycleStartTime !== undefined) status.retryCycleStartTime = iso(m.retryCycleStartTime);
  else delete status.retryCycleStartTime;
  // A user's retry annotation is consumed by the flow it resumed.
  const annotations = { ...shoot.metadata.annotations };
  if (annotations[ANNOTATION_OPERATION] === "retry") delete annotations[ANNOTATION_OPERATION];
  const next: Shoot = { ...shoot, metadata: { ...shoot.metadata, annotations, generation }, status };
  await updateShoot(
    tx,
    next,
    shootColumns(next, profiles.get(profileKeyOf(next)), now, resourceVersion + 1, held.running),
    resourceVersion,
  );
}
