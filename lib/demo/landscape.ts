// A deterministic demo Gardener landscape: cloud profiles, seeds, projects, shoots and their
// maintenance history, all relative to a given `now`. It exists so that every page of the
// dashboard has something worth showing without a real garden cluster: versions that expired or
// expire soon, shoots in every health state, tainted and broken seeds, windows in several time
// zones, and maintenance runs that explain how the shoots got to their current versions: each
// shoot's versions are what the engine's nightly maintenance made of its initial ones (history.ts),
// and versions released hours before now (releases.ts) are pending for the shoots whose window
// has not come since, so "maintain now" updates most shoots that have an update pending.
//
// The generator is pure: no clock, no Math.random(). The same options give byte-identical
// output. Each shoot draws from its own PRNG stream (seeded from the seed option and its index),
// and every "mix" (status, version expiry, project) is spread by index, so shoot i is the same
// whatever the total count, and even the default 64 shoots cover every case.
//
// This file checks the options and assembles the landscape from the builders beside it. The
// order in which it draws from the shared stream (profiles, then seeds, then projects) is part of
// the output, so it stays in one place.
import type { GardenAdmissionRule } from "../engine/garden-admission.ts";
import type { CloudProfile, NamespacedCloudProfile, Project, Seed, Shoot } from "../gardener/types.ts";
import { buildCatalogue } from "./catalogue.ts";
import { buildCloudProfile } from "./cloud-profiles.ts";
import { buildHistory, type DemoMaintenanceRun } from "./history.ts";
import { PROJECT_CYCLE, categoryOf, type Category } from "./mixes.ts";
import { moveOntoNamespacedProfile, namespacedProfilesOf } from "./namespaced-profiles.ts";
import { buildProject } from "./projects.ts";
import { profileAt } from "./releases.ts";
import { createRng } from "./random.ts";
import { buildSeed } from "./seeds.ts";
import { buildShoot, type Context, type ShootDraft } from "./shoots.ts";
import { PROFILE_DEFS, PROJECT_DEFS, SEED_DEFS } from "./tables.ts";
import { MINUTE, iso } from "./time.ts";

export type { DemoMaintenanceChange, DemoMaintenanceRun } from "./history.ts";

export interface LandscapeOptions {
  /** epoch ms; every date in the landscape is relative to it. */
  now: number;
  /** Number of shoots, default 64, at most 100000. */
  shoots?: number;
  /** PRNG seed, default 1. */
  seed?: number;
}

export interface Landscape {
  cloudProfiles: CloudProfile[];
  /** Projects' extensions of the cloud profiles (none in hand-made landscapes). */
  namespacedCloudProfiles?: NamespacedCloudProfile[];
  seeds: Seed[];
  projects: Project[];
  shoots: Shoot[];
  maintenanceHistory: DemoMaintenanceRun[];
  /** The garden's admission webhooks: they reject updates of shoots whose maintenance the history shows rejected. */
  admissionRules: GardenAdmissionRule[];
}

export const DEFAULT_SHOOT_COUNT = 64;
export const MAX_SHOOT_COUNT = 100_000;

function checkOptions(options: LandscapeOptions): { now: number; count: number; seed: number } {
  const count = options.shoots ?? DEFAULT_SHOOT_COUNT;
  const seed = options.seed ?? 1;
  if (!Number.isFinite(options.now)) throw new RangeError("now must be a finite epoch-milliseconds value");
  if (!Number.isInteger(count) || count < 0 || count > MAX_SHOOT_COUNT) {
    throw new RangeError(`shoots must be an integer between 0 and ${MAX_SHOOT_COUNT}, got ${count}`);
  }
  if (!Number.isInteger(seed)) throw new RangeError(`seed must be an integer, got ${seed}`);
  return { now: options.now, count, seed };
}

/** Generates the demo landscape. Pure: the same options always give the same output. */
export function generateLandscape(options: LandscapeOptions): Landscape {
  const drawn = drawLandscape(options);
  const shoots: Shoot[] = [];
  const maintenanceHistory: DemoMaintenanceRun[] = [];
  for (const { shoot, runs } of drawn.shoots) {
    shoots.push(shoot);
    maintenanceHistory.push(...runs);
  }
  const { cloudProfiles, namespacedCloudProfiles, seeds, projects } = drawn;
  return {
    cloudProfiles,
    namespacedCloudProfiles,
    seeds,
    projects,
    shoots,
    maintenanceHistory,
    admissionRules: drawn.admissionRules(),
  };
}

/** One shoot of a drawn landscape, with its maintenance history (oldest first). */
export interface DrawnShoot {
  readonly shoot: Shoot;
  readonly runs: readonly DemoMaintenanceRun[];
}

/**
 * The demo landscape drawn a shoot at a time, so that a consumer (the seed) writes each shoot
 * while the next ones are drawn instead of holding them all: generateLandscape collects exactly
 * this. The configuration comes first; the admission rules list the shoots their webhooks
 * blocked, so they are complete only once every shoot was drawn.
 */
export interface DrawnLandscape {
  readonly cloudProfiles: CloudProfile[];
  readonly namespacedCloudProfiles: NamespacedCloudProfile[];
  readonly seeds: Seed[];
  readonly projects: Project[];
  /** How many shoots `shoots` yields. */
  readonly count: number;
  /** The shoots in order, each drawn when asked for (iterate once). */
  readonly shoots: Iterable<DrawnShoot>;
  /** The garden's admission webhooks; throws until `shoots` was iterated to its end. */
  admissionRules(): GardenAdmissionRule[];
}

/** The demo landscape, its shoots drawn one at a time as they are iterated. Pure, as generateLandscape. */
export function drawLandscape(options: LandscapeOptions): DrawnLandscape {
  const { now, count, seed } = checkOptions(options);
  const fixedRng = createRng(seed, 0x1a4d);
  const cloudProfiles = PROFILE_DEFS.map((def) => buildCloudProfile(def, now, fixedRng));
  const seeds = SEED_DEFS.map((def) => buildSeed(def, now, fixedRng));
  const projects = PROJECT_DEFS.map((def) => buildProject(def, now, fixedRng));
  // It moves some shoots onto a project's own profile, each after its history was made (its own
  // PRNG stream: the profile is the same whenever it is drawn).
  const namespacedCloudProfiles = namespacedProfilesOf(cloudProfiles, now, createRng(seed, 0x4e43));

  const ctx: Context = {
    now,
    seed,
    catalogues: new Map(
      cloudProfiles.map((p, i) => [
        p.metadata.name,
        buildCatalogue(p, PROFILE_DEFS[i], now, profileAt(p, now, Number.NEGATIVE_INFINITY)),
      ]),
    ),
    seedChoices: new Map(),
  };
  const blocked = new Map<string, { rule: Pick<GardenAdmissionRule, "webhook" | "action">; shoots: string[] }>();
  let started = false;
  let drawn = false;
  function* shoots(): Generator<DrawnShoot> {
    // The shoots share the draw's state (the blocked shoots, the seed choices): drawn once.
    if (started) throw new Error("a drawn landscape's shoots are iterated once");
    started = true;
    const perProject = PROJECT_DEFS.map(() => 0);
    const perCategory = new Map<Category, number>();
    for (let index = 0; index < count; index++) {
      const projectIndex = PROJECT_CYCLE[index % PROJECT_CYCLE.length];
      const category = categoryOf(index);
      const categoryCount = perCategory.get(category) ?? 0;
      perCategory.set(category, categoryCount + 1);
      const draft = buildShoot(
        ctx,
        index,
        category,
        categoryCount,
        PROJECT_DEFS[projectIndex],
        perProject[projectIndex]++,
      );
      const runs = maintained(draft, index);
      if (namespacedCloudProfiles.length > 0) moveOntoNamespacedProfile(draft.shoot);
      yield { shoot: draft.shoot, runs };
    }
    drawn = true;
  }

  // Shoots that exist have been maintained every night since their creation: their history, and
  // what it made of the draft (in place).
  function maintained(draft: ShootDraft, index: number): DemoMaintenanceRun[] {
    const historyRng = createRng(seed, 0x4853, index);
    if (draft.category === "creating" || draft.category === "createFailed") return [];
    const replayed = buildHistory(draft, now, seed, index);
    draft.shoot.spec = replayed.spec;
    if (replayed.blockedBy) {
      const { webhook } = replayed.blockedBy;
      if (!blocked.has(webhook)) blocked.set(webhook, { rule: replayed.blockedBy, shoots: [] });
      blocked.get(webhook)!.shoots.push(`${draft.shoot.metadata.namespace}/${draft.shoot.metadata.name}`);
    }
    const status = draft.shoot.status!;
    if (replayed.lastMaintenance) status.lastMaintenance = replayed.lastMaintenance;
    const last = replayed.runs[replayed.runs.length - 1];
    if (!last) return replayed.runs;
    // A successful maintenance triggers a reconcile: a shoot that is otherwise quiet
    // (hibernated, or healthy but last reconciled earlier) shows that reconcile.
    const op = status.lastOperation!;
    if (last.state === "Succeeded" && op.state === "Succeeded" && Date.parse(op.lastUpdateTime!) < last.finishedAt) {
      op.lastUpdateTime = iso(Math.min(last.finishedAt + historyRng.int(3, 20) * MINUTE, now - MINUTE));
    }
    return replayed.runs;
  }

  return {
    cloudProfiles,
    namespacedCloudProfiles,
    seeds,
    projects,
    count,
    shoots: { [Symbol.iterator]: shoots },
    admissionRules: () => {
      if (!drawn) throw new Error("the admission rules are known once every shoot was drawn");
      return [...blocked.values()]
        .map(({ rule, shoots: keys }): GardenAdmissionRule => ({ ...rule, match: { shoots: keys } }))
        .sort((a, b) => (a.webhook < b.webhook ? -1 : a.webhook > b.webhook ? 1 : 0));
    },
  };
}
