// Replaces the garden's landscape (cloud profiles, seeds, projects, shoots and their maintenance
// history) in one transaction, and records that in the audit log. The audit log itself is kept:
// it is append-only.
import { noteLocalChange, notifyChange } from "../db/change-feed.ts";
import { connectionOf, type Db } from "../db/client.ts";
import type { DemoMaintenanceRun, DrawnLandscape, DrawnShoot, Landscape } from "../demo/landscape.ts";
import { MINUTE_MS } from "../engine/time-units.ts";
import { replaceAdmissionRules } from "../store/admission-rules.ts";
import { recordAuditEvent } from "../store/audit.ts";
import { forgetCachedCloudProfiles, insertCloudProfiles } from "../store/cloud-profiles.ts";
import { copyMaintenanceRuns } from "../store/maintenance-runs.ts";
import { insertProjects } from "../store/projects.ts";
import { insertSeeds } from "../store/seeds.ts";
import { NOT_MAINTAINED, shootColumns } from "../store/shoot-columns.ts";
import { inventoryFor } from "../demo/inventory.ts";
import {
  checkShootConstraints,
  gardenletLostAt,
  gardenletLostConstraints,
  SHOOT_MONITOR_PERIOD_MS,
  type ShootObservation,
} from "../engine/shoot-constraints.ts";
import { caCertificatesOf } from "../engine/shoot-inventory.ts";
import { copyInventories } from "../store/inventories.ts";
import { requestForecastRefresh } from "../jobs/forecast-refresh.ts";
import type { PgBoss } from "../jobs/queue.ts";
import { scheduleMaintenance } from "../jobs/schedule-maintenance.ts";
import { copyShoots } from "../store/shoots.ts";
import { buildIndexesSetAside, setIndexesAsideIfEmpty } from "../store/indexes-built-after-load.ts";
import { madeAhead } from "./made-ahead.ts";
import type { Seed, Shoot } from "../gardener/types.ts";
import { profileKeyOf, resolvedNamespacedProfile } from "../gardener/profile-reference.ts";
import { insertNamespacedCloudProfiles } from "../store/namespaced-cloud-profiles.ts";

// The tables the seed fills with COPY, and the search texts a trigger on shoots copies as it goes
// (they hold the trigram index, the costliest to add a row at a time).
const BULK_LOADED = ["shoots", "shoot_search_texts", "shoot_inventories", "maintenance_runs"];

// Shoots per round of COPYs (shoots, inventories, past runs, then schedules): bounds what is held
// in memory (this chunk and the next one being made). The first round's rows are made before
// PostgreSQL has anything to read, and the last round's COPYs run with nothing left to make, so
// a round is short: at 100,000 shoots some 0.5 s each where 5,000 a round idled one side 1.5 s.
const CHUNK = 2_000;

/**
 * The constraints Gardener would show now: the care controller's last check, or, on a seed whose
 * gardenlet went silent, that check from before and gardener-controller-manager's Unknown since.
 */
function constraintsNow(shoot: Shoot, observed: ShootObservation, seed: Seed | undefined, now: number) {
  const lostAt = gardenletLostAt(seed, now);
  if (lostAt === undefined) return checkShootConstraints(shoot, observed, now);
  const lastChecked = checkShootConstraints(shoot, observed, lostAt - SHOOT_MONITOR_PERIOD_MS);
  return gardenletLostConstraints({ ...shoot, status: { ...shoot.status, constraints: lastChecked } }, lostAt);
}

export interface SeedReport {
  readonly cloudProfiles: number;
  readonly seeds: number;
  readonly projects: number;
  readonly shoots: number;
  readonly maintenanceRuns: number;
}

// Serialises seeding between processes (two instances starting on an empty database at once).
const SEED_LOCK_KEY = 72707370;

export interface SeedOptions {
  readonly actor: string;
  readonly now: number;
  /** Seed only when the garden has no landscape yet (first start); answers undefined otherwise. */
  readonly onlyIfEmpty?: boolean;
  readonly onProgress?: (done: number, total: number) => void;
  /** Told how long each part of the seed took, in ms, summed over its chunks (`npm run seed` shows it). */
  readonly onPhases?: (phases: Readonly<Record<string, number>>) => void;
  /** With a job queue, every shoot's maintenance is scheduled too, and their forecast facts' computation. */
  readonly boss?: PgBoss;
}

/** The shoots to write, each with its past runs, however the landscape came. */
interface ShootsToSeed {
  readonly count: number;
  readonly shoots: Iterable<DrawnShoot>;
  /** Runs written after every shoot (a whole landscape's history, which names its shoots itself). */
  readonly runsAfter: readonly DemoMaintenanceRun[];
  readonly admissionRules: () => Landscape["admissionRules"];
}

function shootsToSeed(landscape: Landscape | DrawnLandscape): ShootsToSeed {
  if ("count" in landscape) return { ...landscape, shoots: landscape.shoots, runsAfter: [] };
  return {
    count: landscape.shoots.length,
    shoots: landscape.shoots.map((shoot) => ({ shoot, runs: [] })),
    runsAfter: landscape.maintenanceHistory,
    admissionRules: () => landscape.admissionRules,
  };
}

/** A demo run as the maintenance_runs table holds it. */
const copyRuns = (connection: Parameters<typeof copyMaintenanceRuns>[0], runs: readonly DemoMaintenanceRun[]) =>
  copyMaintenanceRuns(
    connection,
    runs.map((r) => ({
      namespace: r.namespace,
      name: r.name,
      trigger: r.trigger,
      state: r.state,
      startedAt: new Date(r.startedAt),
      finishedAt: new Date(r.finishedAt),
      changes: r.changes,
      description: r.description,
      ...(r.failureReason ? { failureReason: r.failureReason } : {}),
    })),
  );

/**
 * Writes `landscape` in place of the garden's: a whole one (generateLandscape, or made by hand),
 * or one drawn as it is written (drawLandscape), which the seed draws while it writes.
 */
export async function seedLandscape(
  db: Db,
  landscape: Landscape | DrawnLandscape,
  options: SeedOptions,
): Promise<SeedReport | undefined> {
  const input = shootsToSeed(landscape);
  const profiles = new Map(landscape.cloudProfiles.map((p) => [p.metadata.name, p]));
  for (const n of landscape.namespacedCloudProfiles ?? []) {
    const resolved = resolvedNamespacedProfile(n);
    if (resolved) profiles.set(`${n.metadata.namespace}/${n.metadata.name}`, resolved);
  }
  const seeds = new Map(landscape.seeds.map((s) => [s.metadata.name, s]));
  const phases: Record<string, number> = {};
  const phase = async <T>(name: string, work: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    try {
      return await work();
    } finally {
      phases[name] = (phases[name] ?? 0) + performance.now() - started;
    }
  };
  const seeded = await db.$transaction(
    async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(${SEED_LOCK_KEY})`;
      if (options.onlyIfEmpty && (await tx.cloudProfile.count()) > 0) return undefined;
      // Into empty tables (a first start, a new database) the COPYs below go without the
      // secondary indexes, which are built once the rows are in.
      const setAside = await phase("indexes", async () => {
        const indexes: string[] = [];
        for (const table of BULK_LOADED) indexes.push(...(await setIndexesAsideIfEmpty(tx, table)));
        return indexes;
      });
      // Children first (maintenance runs cascade with their shoots).
      await phase("delete", async () => {
        await tx.shoot.deleteMany();
        await tx.namespacedCloudProfile.deleteMany();
        await tx.project.deleteMany();
        await tx.seed.deleteMany();
        await tx.cloudProfile.deleteMany();
      });
      await insertCloudProfiles(tx, landscape.cloudProfiles);
      await insertNamespacedCloudProfiles(tx, landscape.namespacedCloudProfiles ?? []);
      await insertSeeds(tx, landscape.seeds);
      await insertProjects(tx, landscape.projects);
      // The bulk goes through COPY on the transaction's own connection, a chunk of shoots at a
      // time (shoots, their inventories, their past runs): the next chunk is drawn and its rows
      // made while PostgreSQL still reads the COPYs of this one (madeAhead).
      const connection = await connectionOf(db, tx);
      const shootRow = ({ shoot: given, runs }: DrawnShoot) => {
        // The constraints follow from what runs in the shoot, as the care controller finds them.
        const inventory = inventoryFor(given, options.now);
        const constraints = constraintsNow(
          given,
          {
            apiServerRunning: inventory.apiServerRunning ?? true,
            webhookConfigurations: inventory.webhookConfigurations,
            caCertificates: caCertificatesOf(inventory),
          },
          seeds.get(given.spec.seedName ?? ""),
          options.now,
        );
        const shoot = { ...given, status: { ...given.status, constraints } };
        return {
          shoot,
          inventory,
          runs,
          columns: shootColumns(shoot, profiles.get(profileKeyOf(shoot)), options.now, 1, undefined),
        };
      };
      let done = 0;
      let maintenanceRuns = 0;
      const chunks = madeAhead(input.shoots, CHUNK, shootRow);
      for (;;) {
        const next = await phase("drawing", () => chunks.next());
        if (next.done) break;
        const chunk = next.value;
        await phase("shoots", () => copyShoots(connection, chunk));
        await phase("inventories", () =>
          copyInventories(
            connection,
            chunk.map((b) => ({
              namespace: b.shoot.metadata.namespace ?? "",
              name: b.shoot.metadata.name,
              inventory: b.inventory,
            })),
          ),
        );
        const runs = chunk.flatMap((b) => b.runs);
        if (runs.length > 0) maintenanceRuns += await phase("history", () => copyRuns(connection, runs));
        if (options.boss) {
          const boss = options.boss;
          const maintained = chunk
            .filter((b) => b.columns.maintenanceSecondOfDay !== NOT_MAINTAINED)
            .map((b) => ({
              namespace: b.shoot.metadata.namespace ?? "",
              name: b.shoot.metadata.name,
              secondOfDay: b.columns.maintenanceSecondOfDay,
            }));
          await phase("schedules", () => scheduleMaintenance(tx, boss, maintained, options.now));
        }
        done += chunk.length;
        options.onProgress?.(done, input.count);
      }
      if (input.runsAfter.length > 0)
        maintenanceRuns += await phase("history", () => copyRuns(connection, input.runsAfter));
      // Drawn with the shoots: the webhooks list the shoots they blocked.
      await replaceAdmissionRules(tx, input.admissionRules());
      await phase("indexes", () => buildIndexesSetAside(tx, setAside));
      await recordAuditEvent(tx, {
        actor: options.actor,
        action: "landscape.seed",
        target: { kind: "Landscape" },
        changes: [
          { field: "cloudProfiles", before: null, after: landscape.cloudProfiles.length },
          { field: "seeds", before: null, after: landscape.seeds.length },
          { field: "projects", before: null, after: landscape.projects.length },
          { field: "shoots", before: null, after: input.count },
        ],
      });
      // No shoot has forecast facts yet: a worker computes them now rather than the first reader.
      if (options.boss) await requestForecastRefresh(options.boss, tx);
      await notifyChange(tx, { kind: "*" });
      return { maintenanceRuns };
    },
    { timeout: 30 * MINUTE_MS, maxWait: MINUTE_MS },
  );
  forgetCachedCloudProfiles();
  if (!seeded) return undefined;
  noteLocalChange({ kind: "*" });
  // Fresh statistics for the planner, and a visibility map so that counts are index-only scans.
  // Both tables at once, on two connections when the pool has them.
  await phase("vacuum", () =>
    Promise.all([
      db.$executeRawUnsafe("VACUUM (ANALYZE) shoots"),
      db.$executeRawUnsafe("VACUUM (ANALYZE) maintenance_runs"),
    ]),
  );
  options.onPhases?.(phases);
  return {
    cloudProfiles: landscape.cloudProfiles.length,
    seeds: landscape.seeds.length,
    projects: landscape.projects.length,
    shoots: input.count,
    maintenanceRuns: seeded.maintenanceRuns,
  };
}
