// POST .../migrate {seedName}: moves the shoot's control plane to another seed, through the
// garden's write port. Refused with 422 and every reason Gardener's admission gives
// (lib/engine/migration-admission.ts); accepted, spec.seedName is set and the flow starts (it
// waits for an unready destination, as Gardener does).
import type { GardenIdentity } from "../auth/garden-identity.ts";
import type { MigrateRequest, ShootMigrationAnswer, StartMigrationAnswer } from "../api/migration.ts";
import type { Db } from "../db/client.ts";
import { seedCandidates } from "../engine/migration-admission.ts";
import type { ShootWrites } from "../garden/shoot-writes.ts";
import { notFound } from "../api/refusal.ts";
import { latestMigration } from "../store/migrations.ts";
import { shootProfile } from "../store/cloud-profiles.ts";
import { listSeeds, seedUsage } from "../store/seeds.ts";
import { findShoot } from "../store/shoots.ts";
import { migrationView } from "./migration-view.ts";
import { refusalError } from "./shoot-refusal.ts";

export interface StartMigrationRequest {
  readonly namespace: string;
  readonly name: string;
  readonly body: MigrateRequest;
  readonly actor: string;
  readonly requestId: string;
  readonly identity: GardenIdentity;
  readonly now: number;
}

export async function startShootMigration(
  garden: ShootWrites,
  req: StartMigrationRequest,
): Promise<StartMigrationAnswer> {
  const destination = req.body.seedName;
  const key = { namespace: req.namespace, name: req.name };
  const written = await garden.migrateShoot(
    { name: req.actor, requestId: req.requestId, identity: req.identity },
    key,
    destination,
    req.now,
  );
  if (!written.ok) throw refusalError(written.refusal, key, "migrate");
  const { id, flow } = written.value;
  return {
    id,
    namespace: req.namespace,
    name: req.name,
    source: flow.source,
    destination,
    state: flow.state,
    message: `The control plane of ${req.namespace}/${req.name} is moving from "${flow.source}" to "${destination}".`,
  };
}

/** GET .../migration: the latest migration with its steps, and every seed as a destination. */
export async function shootMigration(
  db: Db,
  namespace: string,
  name: string,
  now: number,
): Promise<ShootMigrationAnswer> {
  const stored = await findShoot(db, namespace, name);
  if (!stored) throw notFound(`Shoot ${namespace}/${name} does not exist.`);
  const [latest, seeds, cloudProfile, usage] = await Promise.all([
    latestMigration(db, namespace, name),
    listSeeds(db),
    shootProfile(db, stored.shoot),
    seedUsage(db),
  ]);
  return {
    namespace,
    name,
    seed: stored.shoot.status?.seedName ?? null,
    destinations: seedCandidates(stored.shoot, seeds, { cloudProfile, seedUsage: usage }),
    migration: latest ? migrationView(latest, now) : null,
  };
}
