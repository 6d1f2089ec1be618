// Runs a control-plane migration one transition per job: "begin" starts the current step (its
// start time, lastOperation), "finish" applies the step's effect and records its end and outcome,
// then queues what comes next (the next step, or a retry after backoff). Each transition commits
// with the job's completion, so a killed worker resumes at the step it was in and an effect is
// never applied twice: a job that lost its claim writes nothing, and a "finish" for an attempt
// that is no longer current does nothing.
import type { Job } from "pg-boss";
import { notifyChange } from "../db/change-feed.ts";
import type { Db, Tx } from "../db/client.ts";
import { crc32 } from "../engine/crc32.ts";
import { seedIsReady } from "../engine/migration-admission.ts";
import {
  beginStep,
  finishStep,
  MIGRATION_STEPS,
  type Migration,
  migrationLastOperation,
  seedAfter,
  shootStateSizeCheck,
} from "../engine/migration-flow.ts";
import { ANNOTATION_OPERATION } from "../engine/operation-annotations.ts";
import { recordAuditEvent } from "../store/audit.ts";
import { cachedCloudProfiles } from "../store/cloud-profiles.ts";
import { lockMigration, saveMigration } from "../store/migrations.ts";
import { listSeeds } from "../store/seeds.ts";
import { shootColumns } from "../store/shoot-columns.ts";
import { lockShoots, updateShoot } from "../store/shoots.ts";
import { type CloudProfile, cloudProfileNameOf, type Shoot, type ShootStatus } from "../gardener/types.ts";
import type { JobsConfig } from "./config.ts";
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

/** A step's simulated effect on the garden; a seeded draw makes some attempts fail. */
async function stepEffect(
  tx: Tx,
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
    return {
      ok: false,
      message: `${step.description}: the seed's API server did not answer in time (context deadline exceeded)`,
    };
  }
  switch (step.name) {
    case "WaitForDestinationReady": {
      const seed = (await listSeeds(tx)).find((s) => s.metadata.name === m.destination);
      if (!seed) return { ok: false, message: `destination seed "${m.destination}" no longer exists` };
      return seedIsReady(seed)
        ? { ok: true, message: `seed "${m.destination}" is ready` }
        : { ok: false, message: `destination seed "${m.destination}" is not ready` };
    }
    case "WriteShootState": {
      const bytes = 180_000 + SHOOT_STATE_SECRETS.length * 4_096;
      const check = shootStateSizeCheck(bytes, false);
      if (!check.ok) return { ok: false, message: check.error! };
      return {
        ok: true,
        message: `ShootState written: ${SHOOT_STATE_SECRETS.length} secrets (${SHOOT_STATE_SECRETS.join(", ")}) and the Infrastructure, ControlPlane and Worker states, ${(bytes / 1024).toFixed(0)} KiB${check.warning ? `; ${check.warning}` : ""}`,
      };
    }
    case "AnnotateExtensionsMigrate":
      return {
        ok: true,
        message:
          "Infrastructure, ControlPlane, Worker, Network, OperatingSystemConfig and Extension resources annotated gardener.cloud/operation=migrate",
      };
    case "RestoreInDestination":
      return {
        ok: true,
        message: `control plane restored in seed "${m.destination}" from the ShootState; extension resources annotated gardener.cloud/operation=restore`,
      };
    case "DeleteSourceNamespace":
      return { ok: true, message: `the shoot's namespace in seed "${m.source}" was deleted` };
    default:
      return { ok: true, message: `${step.description}: done` };
  }
}

// Crash testing: with ALMANAC_TEST_CRASH_AFTER_TRANSITIONS=N this process kills itself right after
// committing its N-th migration transition, so a test can stop the flow at every step boundary.
const crashAfter = Number(process.env.ALMANAC_TEST_CRASH_AFTER_TRANSITIONS ?? 0);
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
      let m = stored.flow;
      if (!shoot || m.state === "Succeeded" || m.state === "Failed") return false;

      if (job.data.phase === "begin") {
        if (m.state === "Error" && m.retryAt !== undefined && m.retryAt > now) {
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
        m = finishStep(m, await stepEffect(tx, m, stored.id, config), now, {
          retryDurationMs: config.migrationRetryMs,
          backoffMs: config.migrationBackoffMs,
          maxBackoffMs: Math.max(config.migrationBackoffMs, 300_000),
        });
        if (m.state === "Processing") await queueMigrationStep(tx, boss, { migrationId: stored.id, phase: "begin" });
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
      await writeShootStatus(tx, shoot.shoot, shoot.resourceVersion, m, profiles, now);
      await notifyChange(tx, { kind: "Shoot", namespace: stored.namespace, name: stored.name });
      return true;
    },
    { timeout: 20_000, maxWait: 10_000 },
  );
  if (changed && crashAfter > 0 && ++committed >= crashAfter) process.kill(process.pid, "SIGKILL");
}

async function writeShootStatus(
  tx: Tx,
  shoot: Shoot,
  resourceVersion: number,
  m: Migration,
  profiles: ReadonlyMap<string, CloudProfile>,
  now: number,
) {
  const op = migrationLastOperation(m, now);
  const status: ShootStatus = { ...shoot.status, seedName: seedAfter(m), lastOperation: op };
  // The migration reconciled the shoot in its new seed: its generation is observed.
  if (m.state === "Succeeded") status.observedGeneration = shoot.metadata.generation;
  if (m.state === "Error" || m.state === "Failed") {
    status.lastErrors = [
      {
        description: op.description,
        taskID: MIGRATION_STEPS[Math.min(m.step, MIGRATION_STEPS.length - 1)].name,
        lastUpdateTime: op.lastUpdateTime,
      },
    ];
  } else {
    delete status.lastErrors;
  }
  // A user's retry annotation is consumed by the flow it resumed.
  const annotations = { ...shoot.metadata.annotations };
  if (annotations[ANNOTATION_OPERATION] === "retry") delete annotations[ANNOTATION_OPERATION];
  const next: Shoot = { ...shoot, metadata: { ...shoot.metadata, annotations }, status };
  await updateShoot(
    tx,
    next,
    shootColumns(next, profiles.get(cloudProfileNameOf(next) ?? ""), now, resourceVersion + 1),
    resourceVersion,
  );
}
