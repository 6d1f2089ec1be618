// POST .../migrate {seedName}: moves the shoot's control plane to another seed. Refused with 422
// and every reason (never created, same seed, unknown or unready seed, untolerated taints,
// another operation under way); accepted, spec.seedName is set and the flow starts, in one
// transaction with its audit event.
import { z } from "zod";
import { noteLocalChange, notifyChange } from "../db/change-feed.ts";
import type { Db } from "../db/client.ts";
import { migrationRefusals, seedCandidates } from "../engine/migration-admission.ts";
import { migrationLastOperation, startMigration } from "../engine/migration-flow.ts";
import { ANNOTATION_RECONCILE_ID } from "../engine/reconcile-simulation.ts";
import { recordAuditEvent } from "../garden/embedded/audit.ts";
import { findCloudProfile } from "../garden/embedded/cloud-profiles.ts";
import { insertMigration, latestMigration } from "../garden/embedded/migrations.ts";
import { findProjectByNamespace } from "../garden/embedded/projects.ts";
import { listSeeds } from "../garden/embedded/seeds.ts";
import { shootColumns } from "../garden/embedded/shoot-columns.ts";
import { findShoot, updateShoot } from "../garden/embedded/shoots.ts";
import { cloudProfileNameOf } from "../gardener/types.ts";
import { badRequest, notFound, unprocessable } from "../http/api-error.ts";
import { zodProblems } from "../http/zod-problems.ts";
import type { PgBoss } from "../jobs/queue.ts";
import { queueMigrationStep } from "../jobs/run-migration.ts";
import { migrationView } from "./migration-view.ts";

const migrateBody = z.strictObject({ seedName: z.string().min(1).max(253).regex(/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/, "must be a seed name") });

export interface StartMigrationRequest {
  readonly namespace: string;
  readonly name: string;
  readonly body: unknown;
  readonly actor: string;
  readonly requestId: string;
  readonly now: number;
}

export async function startShootMigration(db: Db, boss: PgBoss, req: StartMigrationRequest) {
  const parsed = migrateBody.safeParse(req.body);
  if (!parsed.success) throw badRequest("The body must be {\"seedName\": \"<destination seed>\"}.", zodProblems(parsed.error));
  const destination = parsed.data.seedName;
  const result = await db.$transaction(async (tx) => {
    const stored = await findShoot(tx, req.namespace, req.name, true);
    if (!stored) throw notFound(`Shoot ${req.namespace}/${req.name} does not exist.`);
    const shoot = stored.shoot;
    const seeds = new Map((await listSeeds(tx)).map((s) => [s.metadata.name, s]));
    const project = await findProjectByNamespace(tx, req.namespace);
    const refusals = migrationRefusals(shoot, destination, seeds, project);
    if (refusals.length > 0) {
      throw unprocessable(`The control plane of ${req.namespace}/${req.name} cannot move to "${destination}": ${refusals.map((r) => r.detail).join("; ")}.`, refusals);
    }
    const flow = startMigration(shoot.status!.seedName!, destination, req.now);
    const next = structuredClone(shoot);
    next.spec.seedName = destination;
    next.metadata.generation = (shoot.metadata.generation ?? 0) + 1;
    next.status = { ...next.status, lastOperation: migrationLastOperation(flow, req.now) };
    // A reconcile under way stops: the migration owns the shoot now.
    if (next.metadata.annotations) delete next.metadata.annotations[ANNOTATION_RECONCILE_ID];
    const profile = await findCloudProfile(tx, cloudProfileNameOf(shoot) ?? "");
    await updateShoot(tx, next, shootColumns(next, profile, req.now, stored.resourceVersion + 1), stored.resourceVersion);
    const id = await insertMigration(tx, { namespace: req.namespace, name: req.name, actor: req.actor, flow });
    await recordAuditEvent(tx, {
      actor: req.actor, action: "shoot.migrate", requestId: req.requestId,
      target: { kind: "Shoot", namespace: req.namespace, name: req.name },
      changes: [{ field: "spec.seedName", before: shoot.spec.seedName ?? shoot.status!.seedName, after: destination }],
    });
    await queueMigrationStep(tx, boss, { migrationId: id, phase: "begin" });
    await notifyChange(tx, { kind: "Shoot", namespace: req.namespace, name: req.name });
    return { id, flow };
  });
  noteLocalChange({ kind: "Shoot", namespace: req.namespace, name: req.name });
  return { id: result.id, namespace: req.namespace, name: req.name, source: result.flow.source, destination, state: result.flow.state,
    message: `The control plane of ${req.namespace}/${req.name} is moving from "${result.flow.source}" to "${destination}".` };
}

/** GET .../migration: the latest migration with its steps, and every seed as a destination. */
export async function shootMigration(db: Db, namespace: string, name: string, now: number) {
  const stored = await findShoot(db, namespace, name);
  if (!stored) throw notFound(`Shoot ${namespace}/${name} does not exist.`);
  const [latest, seeds, project] = await Promise.all([latestMigration(db, namespace, name), listSeeds(db), findProjectByNamespace(db, namespace)]);
  return {
    namespace, name,
    seed: stored.shoot.status?.seedName ?? null,
    destinations: seedCandidates(stored.shoot, seeds, project),
    migration: latest ? migrationView(latest, now) : null,
  };
}
