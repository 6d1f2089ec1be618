// The simulated garden's side of the write port: each change is checked by the engine as
// gardener-apiserver would, written to Postgres with its audit event (changeLockedShoot), and
// sets going what Gardener would do next (a reconcile, a maintenance run, the migration or the
// deletion flow) as jobs in the same transaction.
import type { Db, Tx } from "../../db/client.ts";
import { deletionLastOperation } from "../../engine/deletion-cleanup.ts";
import { admissionDryRun, admissionRejection, judgedByAdmission } from "../../engine/garden-admission.ts";
import { maintenanceSecondOfDay } from "../../engine/maintenance-moment.ts";
import { retryMigration } from "../../engine/migration-flow.ts";
import { ANNOTATION_OPERATION } from "../../engine/operation-annotations.ts";
import { ANNOTATION_RECONCILE_ID } from "../../engine/reconcile-simulation.ts";
import { updateShootStatusOperationStart } from "../../engine/shoot-operation.ts";
import { prepareShootForUpdate } from "../../engine/shoot-strategy.ts";
import type { Shoot } from "../../gardener/types.ts";
import { config } from "../../config/load-config.ts";
import { type GlobalTolerations, tolerationRestrictionProblems } from "../../engine/toleration-restriction.ts";
import { type PgBoss, QUEUES, sendInTx } from "../../jobs/queue.ts";
import { queueDeletionStep } from "../../jobs/run-deletion.ts";
import { queueMigrationStep } from "../../jobs/run-migration.ts";
import { scheduleMaintenance } from "../../jobs/schedule-maintenance.ts";
import { scheduleHibernation } from "../../jobs/schedule-hibernation.ts";
import { canonicalJson } from "../../engine/canonical-json.ts";
import { startReconcileInTx } from "../../jobs/start-reconcile.ts";
import { listAdmissionRules } from "../../store/admission-rules.ts";
import { insertDeletion } from "../../store/deletions.ts";
import { findProjectByNamespace } from "../../store/projects.ts";
import { withConfirmer } from "../../engine/deletion-confirmation.ts";
import { findInventory } from "../../store/inventories.ts";
import { insertMigration, latestMigration, lockMigration, saveMigration } from "../../store/migrations.ts";
import { NOT_MAINTAINED } from "../../store/shoot-columns.ts";
import {
  deletionChanges,
  judgeDeletion,
  judgeMaintainNow,
  judgeMigration,
  judgePatch,
  maintenancePlan,
  seedsOf,
  staleRefusal,
} from "../shoot-change-rules.ts";
import { gardenSubject } from "../shoot-writes.ts";
import type {
  DeletionAccepted,
  MaintainNowAccepted,
  MigrationAccepted,
  ShootKey,
  ShootWrites,
} from "../shoot-writes.ts";
import { changeLockedShoot } from "./locked-shoot-change.ts";

const timestamp = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");

/** The simulated garden's admission config of ShootTolerationRestriction (ALMANAC_TOLERATION_WHITELIST). */
const configuredTolerations = (): GlobalTolerations => ({
  defaults: [],
  whitelist: config().simulation.tolerationWhitelist,
});

/**
 * `boss` sends the follow-up jobs. Without one (tests that run no workers) a patch is written
 * without follow-ups; the other changes need it. `globalTolerations` is the admission config of
 * the garden's ShootTolerationRestriction.
 */
export function embeddedShootWrites(
  db: Db,
  boss: () => Promise<PgBoss> | PgBoss | undefined,
  globalTolerations: () => GlobalTolerations = configuredTolerations,
): ShootWrites {
  const queue = async () => {
    const b = await boss();
    if (!b) throw new Error("The simulated garden needs its job queue for this change.");
    return b;
  };
  return {
    async patchShoot(actor, key, patch, precondition, now) {
      const jobs = await boss();
      return changeLockedShoot(db, actor, key, now, async ({ tx, stored, shoot: before, profile }) => {
        const stale = staleRefusal(precondition, stored.resourceVersion);
        if (stale) return { refusal: stale };
        const judged = await judgePatch(before, patch, profile, seedsOf(tx), now);
        if (judged.refusal) return judged;
        // What the user asked for is audited; what is stored is what gardener-apiserver's strategy
        // makes of it (the generation raised or not, reconcile/retry consumed or left).
        const { requested, changes, asked } = judged;
        if (changes.length === 0) return { answer: () => before }; // nothing to write, nothing to audit
        // ShootTolerationRestriction: tolerations the shoot did not have need a whitelist's leave.
        if (changes.some((c) => c.field === "spec.tolerations")) {
          const project = await findProjectByNamespace(tx, key.namespace);
          const problems = tolerationRestrictionProblems(
            before.spec.tolerations ?? [],
            requested.spec.tolerations ?? [],
            project?.spec.tolerations,
            globalTolerations(),
          );
          if (problems.length > 0) return { refusal: { code: "Invalid", problems } };
        }
        // The deletion confirmation plugin remembers who confirmed (deletion.gardener.cloud/confirmed-by).
        const after = withConfirmer(before, judged.after, gardenSubject(actor, "embedded") ?? actor.name);
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
        const judged = judgeMaintainNow(shoot);
        if (judged.refusal) return judged;
        // What the run will do, as the worker will compute it (unless the shoot changes first). The
        // annotation itself passes the garden's webhooks; the run's update may not.
        const plan = maintenancePlan(
          shoot,
          profile,
          now,
          profile ? admissionDryRun(await listAdmissionRules(tx)) : undefined,
        );
        if (!judged.queued) {
          // Already pending. Send the job again anyway, in case the first was lost: the run checks
          // the annotation under the shoot's lock, so however many jobs there are, one run happens.
          return { followUp: send, answer: (resourceVersion) => ({ queued: false, resourceVersion, ...plan }) };
        }
        const next = {
          ...shoot,
          metadata: {
            ...shoot.metadata,
            annotations: { ...shoot.metadata.annotations, [ANNOTATION_OPERATION]: "maintain" },
          },
        };
        return {
          write: { shoot: next, action: "shoot.maintain-now.request", changes: judged.changes },
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
          const judged = await judgeMigration(tx, shoot, destination, profile, now);
          if (judged.refusal) return judged;
          const { flow, changes } = judged;
          // The shoots/binding subresource: spec.seedName and a new generation (shootBindingStrategy);
          // the lastOperation stays until the gardenlet starts the Migrate operation.
          const next = structuredClone(shoot);
          next.spec.seedName = destination;
          next.metadata.generation = (shoot.metadata.generation ?? 0) + 1;
          // A reconcile under way stops: the migration owns the shoot now.
          if (next.metadata.annotations) delete next.metadata.annotations[ANNOTATION_RECONCILE_ID];
          let id = "";
          return {
            write: { shoot: next, action: "shoot.migrate", changes },
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
        const inventory = await findInventory(tx, key.namespace, key.name);
        const judged = judgeDeletion(shoot, inventory?.resources ?? [], now, {
          project: await findProjectByNamespace(tx, key.namespace),
          deleter: gardenSubject(actor, "embedded"),
        });
        if (judged.refusal) return judged;
        const { flow } = judged;
        const marked = structuredClone(shoot);
        marked.metadata.deletionTimestamp = timestamp(now);
        // Setting the deletion timestamp raises the generation (the strategy's rule); the gardenlet
        // starts the Delete operation at once.
        const started = updateShootStatusOperationStart(prepareShootForUpdate(shoot, marked), "Delete", now);
        const next = { ...started, status: { ...started.status, lastOperation: deletionLastOperation(flow, now) } };
        let id = "";
        return {
          write: { shoot: next, action: "shoot.delete", changes: deletionChanges(next.metadata.deletionTimestamp) },
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
 * What a patch sets going: a new maintenance schedule when the window moved; the next hibernation
 * moment when the hibernation schedules changed; a run when a user
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
  // Changed hibernation schedules move (or remove) the shoot's next hibernation moment.
  if (canonicalJson(before.spec.hibernation?.schedules) !== canonicalJson(after.spec.hibernation?.schedules)) {
    await scheduleHibernation(tx, boss, [{ ...key, shoot: after }], now);
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
