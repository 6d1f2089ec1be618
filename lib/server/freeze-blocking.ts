// Whether a freeze stops Almanac from starting something at a moment: the bulk actions
// (lib/server/*bulk*) and the update runs' stages ask before they act, and answer 409 naming the
// freeze. Gardener's own maintenance is not Almanac's to stop (the forecast marks what it will
// force inside a freeze).
import { conflict, type Refusal } from "../api/refusal.ts";
import { db as serverDb, type Db } from "../db/client.ts";
import { freezeCovering, type FreezePeriod } from "../engine/freezes.ts";
import { formatTime } from "../engine/time-format.ts";
import { listFreezes } from "../store/freezes.ts";
import { freezeMark, freezePeriod, freezeScopeWords } from "./freeze-view.ts";

export interface FreezeBlock {
  /** The freeze that holds (the one lasting longest when several do). */
  readonly freeze: FreezePeriod;
  /** The project it stops (undefined: a landscape-wide freeze stops them all). */
  readonly project?: string;
  /** 409, naming the freeze: the refusal to answer (its extensions carry `freeze`). */
  readonly refusal: Refusal;
}

/**
 * The freeze that holds at `at` (epoch ms) for any of `projects` (the projects of the clusters
 * acted on; landscape-wide freezes hold for all), or undefined when none does.
 */
export async function freezeBlocking(
  { at, projects }: { at: number; projects: readonly string[] },
  database: Db = serverDb(),
): Promise<FreezeBlock | undefined> {
  const at0 = new Date(at);
  const freezes = (await listFreezes(database, { from: at0, to: new Date(at + 1) })).map(freezePeriod);
  if (freezes.length === 0) return undefined;
  const candidates = [undefined, ...new Set(projects)];
  const found = candidates
    .map((project) => ({ project, freeze: freezeCovering(freezes, at, project) }))
    .filter((c): c is { project: string | undefined; freeze: FreezePeriod } => c.freeze !== undefined)
    // Landscape-wide first (it stops everything), then the one that lasts longest.
    .sort(
      (a, b) =>
        Number(a.freeze.project !== undefined) - Number(b.freeze.project !== undefined) || b.freeze.end - a.freeze.end,
    )[0];
  if (!found) return undefined;
  const { freeze } = found;
  const refusal = conflict(
    `The freeze "${freeze.reason}" (${freezeScopeWords(freeze)}, ${formatTime(freeze.start)} to ${formatTime(freeze.end)}, id ${freeze.id}) holds at ${formatTime(at)}: Almanac starts no bulk action or update run stage in it. Wait until it ends, or remove it (DELETE /api/v1/freezes/${freeze.id}).`,
    { extensions: { freeze: freezeMark(freeze) } },
  );
  return { freeze, ...(freeze.project !== undefined ? { project: freeze.project } : {}), refusal };
}
