// GET /api/v1/forecast with freezes: the forecast's answer (lib/server/fleet-forecast.ts) with each
// forced update that falls inside a freeze covering its cluster marked (`freeze` on the item), and
// the summary's count of them (`forcedInFreezes`). Gardener cannot be stopped from forcing an
// expired version's update, so a freeze does not remove them; the mark says which to move first.
// Added at read time from the freezes (a handful of rows): with none overlapping the forecast the
// answer is the forecast's own text, untouched and as fast; with some, a page's few items are
// marked and the count is a range walk of the stored items' (at, …) index per freeze.
import type { ForecastAnswer, ForecastAnswerItem } from "../api/forecast.ts";
import type { ForecastParams } from "../api/operations/forecast.ts";
import type { Db } from "../db/client.ts";
import { freezeCovering, type FreezePeriod } from "../engine/freezes.ts";
import { DAY_MS } from "../engine/time-units.ts";
import { type FrozenStretch, forcedUpdatesInside, listFreezes, projectNamespaces } from "../store/freezes.ts";
import { fleetForecastJson, type ForecastJson } from "./fleet-forecast.ts";
import { type FleetScope, scopedNamespaces } from "./fleet-scope.ts";
import { freezeMark, freezePeriod } from "./freeze-view.ts";

/** The freezes that overlap a forecast, and how to tell which covers an item. */
interface ForecastFreezes {
  readonly periods: readonly FreezePeriod[];
  /** The project whose namespace this is, for the projects the freezes name. */
  readonly projectOf: ReadonlyMap<string, string>;
  /** Each freeze's stretch inside the forecast, in its project's namespace (none: landscape-wide). */
  readonly stretches: readonly FrozenStretch[];
}

async function freezesOver(db: Db, now: number, to: number): Promise<ForecastFreezes | undefined> {
  const stored = await listFreezes(db, { from: new Date(now), to: new Date(to) });
  if (stored.length === 0) return undefined;
  const periods = stored.map(freezePeriod);
  const namespaceOf = await projectNamespaces(db, [
    ...new Set(periods.flatMap((p) => (p.project === undefined ? [] : [p.project]))),
  ]);
  const stretches = periods.flatMap((p): FrozenStretch[] => {
    const from = new Date(Math.max(p.start, now));
    // The forecast holds items up to `to` included; a stretch ends before its end.
    const end = new Date(Math.min(p.end, to + 1));
    if (p.project === undefined) return [{ from, to: end }];
    const namespace = namespaceOf.get(p.project);
    return namespace === undefined ? [] : [{ from, to: end, namespace }];
  });
  return { periods, projectOf: new Map([...namespaceOf].map(([project, ns]) => [ns, project])), stretches };
}

/** The item with the freeze that covers it, when it is forced (not a held rollout) inside one. */
function marked(item: ForecastAnswerItem, freezes: ForecastFreezes): ForecastAnswerItem {
  if (item.held) return item;
  const freeze = freezeCovering(freezes.periods, Date.parse(item.at), freezes.projectOf.get(item.namespace));
  return freeze === undefined ? item : { ...item, freeze: freezeMark(freeze) };
}

function markedText(text: string, freezes: ForecastFreezes): string {
  const item = JSON.parse(text) as ForecastAnswerItem;
  const mark = marked(item, freezes);
  return mark === item ? text : JSON.stringify(mark);
}

/**
 * The forecast as fleetForecastJson answers it (same parameters, scope and caching), with the
 * items inside freezes marked and, with `summary`, the count of the selected forced updates inside
 * freezes: stored facts, which a read has just brought up to date for the shoots it found stale
 * (unless storing them failed or a write came since).
 */
export async function forecastWithFreezes(
  db: Db,
  params: ForecastParams,
  scope: FleetScope,
  gardenRevision: number | undefined,
  now: number,
): Promise<string | ForecastJson> {
  const body = await fleetForecastJson(db, params, scope, gardenRevision, now);
  const freezes = await freezesOver(db, now, now + params.days * DAY_MS);
  if (freezes === undefined) return body;
  if (typeof body !== "string") {
    const pages = body.itemPages;
    return {
      ...body,
      itemPages: (async function* () {
        for await (const page of pages) yield page.map((text) => markedText(text, freezes));
      })(),
    };
  }
  const answer = JSON.parse(body) as ForecastAnswer;
  const items = answer.items.map((item) => marked(item, freezes));
  const namespaces = params.namespace !== undefined ? [params.namespace] : scopedNamespaces(scope);
  // A page holding every selected item counts its own marks (exact even while facts computed by
  // this read are still being stored); a longer forecast counts the stored items.
  const whole = answer.total !== undefined && answer.total <= answer.items.length;
  const summary =
    answer.summary === undefined
      ? undefined
      : {
          ...answer.summary,
          forcedInFreezes: whole
            ? items.filter((item) => item.freeze !== undefined).length
            : (
                await forcedUpdatesInside(db, {
                  stretches: freezes.stretches,
                  ...(namespaces !== undefined ? { namespaces } : {}),
                  until: new Date(now + params.days * DAY_MS),
                  narrowing: {
                    ...(params.kind !== undefined ? { kind: params.kind } : {}),
                    ...(params.stuck ? { stuck: true } : {}),
                    ...(params.atRisk ? { atRisk: true } : {}),
                  },
                  ...(params.name !== undefined ? { name: params.name } : {}),
                  ...(params.cloudProfile !== undefined ? { cloudProfile: params.cloudProfile } : {}),
                  first: 0,
                  shoots: false,
                })
              ).total,
        };
  return JSON.stringify({
    ...answer,
    items,
    ...(summary !== undefined ? { summary } : {}),
  } satisfies ForecastAnswer);
}
