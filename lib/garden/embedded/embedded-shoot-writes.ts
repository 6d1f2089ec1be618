// The simulated garden's side of the write port: each change is checked by the engine as
// gardener-apiserver would, written to Postgres with its audit event (changeLockedShoot), and
// sets going what Gardener would do next (a reconcile, a maintenance run, the migration or the
// deletion flow) as jobs in the same transaction.
import type { Db, Tx } from "../../db/client.ts";
import {
  ANNOTATION_CONFIRM_DELETION,
  cleanupPlan,
  deletionLastOperation,
  startDeletion,
} from "../../engine/deletion-cleanup.ts";
import { admissionDryRun, admissionRejection, judgedByAdmission } from "../../engine/garden-admission.ts";
import { maintain } from "../../engine/maintain.ts";
import { maintenanceSecondOfDay } from "../../engine/maintenance-moment.ts";
import { maintenanceRecord } from "../../engine/maintenance-record.ts";
import {
  blockingOperation,
  deletionRefusal,
  migrationRefusals,
  shootOnSeedRefusals,
  specChangeRefusal,
} from "../../engine/migration-admission.ts";
import { retryMigration, startMigration } from "../../engine/migration-flow.ts";
import { ANNOTATION_OPERATION, hasMaintainNow } from "../../engine/operation-annotations.ts";
import { ANNOTATION_RECONCILE_ID } from "../../engine/reconcile-simulation.ts";
import { applyShootPatch, changedFields } from "../../engine/shoot-patch.ts";
import { updateShootStatusOperationStart } from "../../engine/shoot-operation.ts";
import { prepareShootForUpdate } from "../../engine/shoot-strategy.ts";
import { validateShootChange } from "../../engine/validate-shoot.ts";
import { validateShootHibernation } from "../../engine/hibernation-admission.ts";
import { cloudProfileNameOf, type Shoot } from "../../gardener/types.ts";
import { type PgBoss, QUEUES, sendInTx } from "../../jobs/queue.ts";
import { queueDeletionStep } from "../../jobs/run-deletion.ts";
import { queueMigrationStep } from "../../jobs/run-migration.ts";
import { scheduleMaintenance } from "../../jobs/schedule-maintenance.ts";
import { startReconcileInTx } from "../../jobs/start-reconcile.ts";
import { listAdmissionRules } from "../../store/admission-rules.ts";
import { insertDeletion } from "../../store/deletions.ts";
import { findInventory } from "../../store/inventories.ts";
import { insertMigration, latestMigration, lockMigration, saveMigration } from "../../store/migrations.ts";
import { findSeed, listSeeds, seedUsage } from "../../store/seeds.ts";
import { NOT_MAINTAINED } from "../../store/shoot-columns.ts";
import type {
  DeletionAccepted,
  MaintainNowAccepted,
  MigrationAccepted,
  ShootKey,
  ShootWrites,
} from "../shoot-writes.ts";
import { changeLockedShoot } from "./locked-shoot-change.ts";

const timestamp = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
const specChanged = (before: Shoot, after: Shoot) => JSON.stringify(before.spec) !== JSON.stringify(after.spec);

/**
 * `boss` sends the follow-up jobs. Without one (tests that run no workers) a patch is written
 * without follow-ups; the other changes need it.
 */
export function embeddedShootWrites(db: Db, boss: () => Promise<PgBoss> | PgBoss | undefined): ShootWrites {
  const queue = async () => {
    const b = await boss();
    if (!b) throw new Error("The simulated garden needs its job queue for this change.");
    return b;
  };
  return {
    async patchShoot(actor, key, patch, precondition, now) {
      const jobs = await boss();
      return changeLockedShoot(db, actor, key, now, async ({ tx, stored, shoot: before, profile }) => {
        const { anyOf, exactly } = precondition;
        if (anyOf && !anyOf.includes(stored.resourceVersion))
          return {
            refusal: {
              code: "Stale",
              yours: anyOf.join(" or ") || "(weak tags only)",
              current: stored.resourceVersion,
            },
          };
        if (exactly !== undefined && exactly !== stored.resourceVersion)
          return { refusal: { code: "Stale", yours: String(exactly), current: stored.resourceVersion } };
        const patched = applyShootPatch(before, patch);
        if (patched.problem) return { refusal: { code: "Invalid", problems: [patched.problem] } };
        const requested = patched.shoot;
        const blocking = blockingOperation(before);
        const operation = requested.metadata.annotations?.[ANNOTATION_OPERATION];
        const asked =
          operation && operation !== before.metadata.annotations?.[ANNOTATION_OPERATION] ? operation : undefined;
        if (blocking?.code === "Migrating") {
          // gardener-apiserver (admission.go, validateScheduling): no spec change while the shoot is
          // rescheduled to a new seed or in a Migrate or Restore operation, Failed ones included.
          if (specChanged(before, requested))
            return { refusal: { code: "Blocked", operation: blocking, reason: specChangeRefusal(before) } };
          // Almanac's: no other operation meanwhile, but the retry that resumes a Failed migration.
          const resumesFailed = asked === "retry" && before.status?.lastOperation?.state === "Failed";
          if (asked && !resumesFailed) return { refusal: { code: "Blocked", operation: blocking } };
        } else if (blocking && (specChanged(before, requested) || asked)) {
          return { refusal: { code: "Blocked", operation: blocking } };
        }
        // What the user asked for is audited; what is stored is what gardener-apiserver's strategy
        // makes of it (the generation raised or not, reconcile/retry consumed or left).
        const changes = changedFields(before, requested);
        if (changes.length === 0) return { answer: () => before }; // nothing to write, nothing to audit
        if (!profile) return { refusal: { code: "ProfileMissing", profile: cloudProfileNameOf(before) ?? "" } };
        const after = prepareShootForUpdate(before, requested);
        // gardener-apiserver's shoot validator refuses to hibernate a shoot unless its
        // HibernationPossible constraint is True (or absent), before it validates the rest.
        const hibernation = validateShootHibernation(before, after);
        if (hibernation) return { refusal: { code: "HibernationNotPossible", ...hibernation } };
        const problems = validateShootChange(before, after, profile, now);
        // gardener-apiserver (admission.go, validateScheduling) on the shoot's seed: three zones for a
        // zone-tolerant control plane; on a seed being deleted, only the deletion confirmation.
        const seed = before.spec.seedName ? await findSeed(tx, before.spec.seedName) : undefined;
        for (const r of shootOnSeedRefusals(before, after, seed))
          problems.push({ type: "Forbidden", field: r.field, detail: r.detail });
        if (problems.length > 0) return { refusal: { code: "Invalid", problems } };
        // The garden's validating admission webhooks come last, and see every change but the
        // request of an operation alone (whose controller's own update they judge).
        if (judgedByAdmission(before, requested)) {
          const rejection = admissionRejection(after, await listAdmissionRules(tx));
          if (rejection) return { refusal: { code: "AdmissionRejected", ...rejection } };
        }
        return {
          write: { shoot: after, action: "shoot.update", changes },
          followUp: jobs
            ? (tx, written) =>
                patchFollowUps(tx, jobs, before, after, asked, written!.columns.maintenanceSecondOfDay, now)
            : undefined,
          answer: (resourceVersion) => ({
            ...after,
            metadata: { ...after.metadata, resourceVersion: String(resourceVersion) },
          }),
        };
      });
    },

    async maintainNow(actor, key, now) {
      const jobs = await queue();
      const send = (tx: Tx) => sendInTx(jobs, tx, QUEUES.maintainNow, key).then(() => undefined);
      return changeLockedShoot<MaintainNowAccepted>(db, actor, key, now, async ({ tx, shoot, profile }) => {
        const blocking = blockingOperation(shoot);
        if (blocking) return { refusal: { code: "Blocked", operation: blocking } };
        // What the run will do, as the worker will compute it (unless the shoot changes first). The
        // annotation itself passes the garden's webhooks; the run's update may not.
        const outcome = profile
          ? maintain(shoot, profile, now, { dryRun: admissionDryRun(await listAdmissionRules(tx)) })
          : undefined;
        const preview = outcome ? maintenanceRecord(outcome, shoot.spec) : undefined;
        const plan = {
          changes: preview?.changes ?? [],
          ...(profile ? {} : { missingProfile: cloudProfileNameOf(shoot) ?? "" }),
          ...(outcome?.rejected && preview?.failureReason ? { failureReason: preview.failureReason } : {}),
        };
        if (hasMaintainNow(shoot.metadata.annotations)) {
          // Already pending. Send the job again anyway, in case the first was lost: the run checks
          // the annotation under the shoot's lock, so however many jobs there are, one run happens.
          return { followUp: send, answer: (resourceVersion) => ({ queued: false, resourceVersion, ...plan }) };
        }
        const before = shoot.metadata.annotations?.[ANNOTATION_OPERATION];
        const next = {
          ...shoot,
          metadata: {
            ...shoot.metadata,
            annotations: { ...shoot.metadata.annotations, [ANNOTATION_OPERATION]: "maintain" },
          },
        };
        return {
          write: {
            shoot: next,
            action: "shoot.maintain-now.request",
            changes: [{ field: `metadata.annotations[${ANNOTATION_OPERATION}]`, before, after: "maintain" }],
          },
          followUp: send,
          answer: (resourceVersion) => ({ queued: true, resourceVersion, ...plan }),
        };
      });
    },

    async migrateShoot(actor, key, destination, now) {
      const jobs = await queue();
      return changeLockedShoot<MigrationAccepted>(
        db,
        actor,
        key,
        now,
        async ({ tx, shoot, profile }) => {
          const seeds = new Map((await listSeeds(tx)).map((s) => [s.metadata.name, s]));
          const usage = await seedUsage(tx);
          const refusals = migrationRefusals({
            shoot,
            destination,
            seeds,
            cloudProfile: profile,
            seedUsage: usage,
          });
          if (refusals.length > 0) return { refusal: { code: "MigrationRefused", destination, refusals } };
          const flow = startMigration(shoot.status!.seedName!, destination, now);
          // The shoots/binding subresource: spec.seedName and a new generation (shootBindingStrategy);
          // the lastOperation stays until the gardenlet starts the Migrate operation.
          const next = structuredClone(shoot);
          next.spec.seedName = destination;
          next.metadata.generation = (shoot.metadata.generation ?? 0) + 1;
          // A reconcile under way stops: the migration owns the shoot now.
          if (next.metadata.annotations) delete next.metadata.annotations[ANNOTATION_RECONCILE_ID];
          let id = "";
          return {
            write: {
              shoot: next,
              action: "shoot.migrate",
              changes: [
                { field: "spec.seedName", before: shoot.spec.seedName ?? shoot.status!.seedName, after: destination },
              ],
            },
            followUp: async (tx) => {
              id = await insertMigration(tx, { ...key, actor: actor.name, flow });
              await queueMigrationStep(tx, jobs, { migrationId: id, phase: "begin" });
            },
            answer: () => ({ id, flow }),
          };
        },
        { evenWhileDeleting: true },
      );
    },

    async deleteShoot(actor, key, now) {
      const jobs = await queue();
      return changeLockedShoot<DeletionAccepted>(db, actor, key, now, async ({ tx, shoot }) => {
        if (shoot.metadata.annotations?.[ANNOTATION_CONFIRM_DELETION] !== "true")
          return { refusal: { code: "DeletionNotConfirmed", annotation: ANNOTATION_CONFIRM_DELETION } };
        // gardener-apiserver (admission.go, validateDeletion): not during a Migrate operation or an
        // unfinished Restore. A shoot only waiting for its destination may be deleted.
        const blocking = blockingOperation(shoot);
        const refused = deletionRefusal(shoot);
        if (refused && blocking) return { refusal: { code: "Blocked", operation: blocking, reason: refused } };
        const inventory = await findInventory(tx, key.namespace, key.name);
        const flow = startDeletion(cleanupPlan(shoot, inventory?.resources ?? []), now);
        const marked = structuredClone(shoot);
        marked.metadata.deletionTimestamp = timestamp(now);
        // Setting the deletion timestamp raises the generation (the strategy's rule); the gardenlet
        // starts the Delete operation at once.
        const started = updateShootStatusOperationStart(prepareShootForUpdate(shoot, marked), "Delete", now);
        const next = { ...started, status: { ...started.status, lastOperation: deletionLastOperation(flow, now) } };
        let id = "";
        return {
          write: {
            shoot: next,
            action: "shoot.delete",
            changes: [{ field: "metadata.deletionTimestamp", before: null, after: next.metadata.deletionTimestamp }],
          },
          followUp: async (tx) => {
            id = await insertDeletion(tx, { ...key, actor: actor.name, flow });
            await queueDeletionStep(tx, jobs, { deletionId: id, phase: "begin", step: 0 });
          },
          answer: () => ({ id, flow }),
        };
      });
    },
  };
}

/**
 * What a patch sets going: a new maintenance schedule when the window moved; a run when a user
 * asked to maintain now; the resumption of a failed migration on `retry`; and a reconcile when
 * the stored generation went up, the gardenlet's trigger (a spec change unless
 * confineSpecUpdateRollout holds it for the window, `reconcile` on a shoot whose last operation
 * exists and has not failed, `retry` on a failed one: shoot-strategy.ts).
 */
async function patchFollowUps(
  tx: Tx,
  boss: PgBoss,
  before: Shoot,
  after: Shoot,
  asked: string | undefined,
  secondOfDay: number,
  now: number,
): Promise<void> {
  const key: ShootKey = { namespace: after.metadata.namespace ?? "", name: after.metadata.name };
  if (secondOfDay !== NOT_MAINTAINED && secondOfDay !== maintenanceSecondOfDay(before)) {
    await scheduleMaintenance(tx, boss, [{ ...key, secondOfDay }], now);
  }
  const failedOperation = before.status?.lastOperation;
  if (
    asked === "retry" &&
    (failedOperation?.type === "Migrate" || failedOperation?.type === "Restore") &&
    failedOperation.state === "Failed"
  ) {
    // A failed migration is what a retry resumes.
    const latest = await latestMigration(tx, key.namespace, key.name);
    if (latest?.flow.state === "Failed") {
      const locked = await lockMigration(tx, latest.id);
      await saveMigration(tx, latest.id, retryMigration(locked!.flow, now));
      await queueMigrationStep(tx, boss, { migrationId: latest.id, phase: "begin" });
      return;
    }
  }
  if (asked === "maintain") await sendInTx(boss, tx, QUEUES.maintainNow, key);
  if ((after.metadata.generation ?? 0) !== (before.metadata.generation ?? 0)) {
    await startReconcileInTx(tx, boss, { ...key, generation: after.metadata.generation ?? 0 });
  }
}
