// Freeze periods (issue 29, item 4): times in which Almanac starts no bulk action and no update
// run stage, for the whole landscape or for one project. Gardener has no such notion (a Shoot's
// maintenance window is a daily begin/end and nothing more), so a freeze cannot stop Gardener's
// maintenance from forcing the update of an expired version: it only stops what Almanac starts.
// Pure: the server's refusals (lib/server/freeze-blocking.ts), the forecast's marks and the page
// decide with these functions.
import type { FieldError } from "./field-error.ts";
import { DAY_MS } from "./time-units.ts";

export interface FreezePeriod {
  readonly id: string;
  /** Epoch milliseconds; the freeze holds from `start` (included) to `end` (excluded). */
  readonly start: number;
  readonly end: number;
  readonly reason: string;
  /** The project it covers; undefined: the whole landscape. */
  readonly project?: string;
}

/** Whether `freeze` applies to a shoot of `project` (a landscape-wide one applies to every project). */
export const freezeAppliesTo = (freeze: Pick<FreezePeriod, "project">, project: string | undefined): boolean =>
  freeze.project === undefined || freeze.project === project;

/** Whether `at` lies inside `freeze` (start included, end excluded). */
export const freezeHolds = (freeze: Pick<FreezePeriod, "start" | "end">, at: number): boolean =>
  freeze.start <= at && at < freeze.end;

// When several freezes cover one moment, the answer names the one that lasts longest from it
// (the reason to wait for), then the earliest made up (start, then id), so it is always the same.
const preferred = (a: FreezePeriod, b: FreezePeriod): number =>
  b.end - a.end || a.start - b.start || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * The freeze that covers moment `at` for a shoot of `project` (undefined: asking for the whole
 * landscape, which only landscape-wide freezes cover), or undefined when none does.
 */
export function freezeCovering(
  freezes: readonly FreezePeriod[],
  at: number,
  project: string | undefined,
): FreezePeriod | undefined {
  return freezes.filter((f) => freezeHolds(f, at) && freezeAppliesTo(f, project)).sort(preferred)[0];
}

/** The freezes that overlap [from, to) for `project`, by start. */
export function freezesDuring(
  freezes: readonly FreezePeriod[],
  from: number,
  to: number,
  project: string | undefined,
): FreezePeriod[] {
  return freezes
    .filter((f) => f.start < to && from < f.end && freezeAppliesTo(f, project))
    .sort((a, b) => a.start - b.start || preferred(a, b));
}

// RFC 3339's date-time with its offset required (Z or ±hh:mm): a time without one would be read
// in whichever time zone the server runs in.
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|[+-](\d{2}):(\d{2}))$/;

/** The moment an RFC 3339 date-time with an offset names, or undefined when it is not one. */
export function parseRfc3339(text: string): number | undefined {
  const match = RFC3339.exec(text);
  if (!match) return undefined;
  const [, y, mo, d, h, mi, s, , , oh, om] = match;
  const [year, month, day, hour, minute, second] = [y, mo, d, h, mi, s].map(Number);
  // Date.parse would roll 30 February over into March: the fields must name a real moment.
  const local = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  if (
    local.getUTCFullYear() !== year ||
    local.getUTCMonth() !== month - 1 ||
    local.getUTCDate() !== day ||
    local.getUTCHours() !== hour ||
    local.getUTCMinutes() !== minute ||
    local.getUTCSeconds() !== second ||
    (oh !== undefined && (Number(oh) > 23 || Number(om) > 59))
  )
    return undefined;
  const ms = Date.parse(text.toUpperCase().replace(" ", "T"));
  return Number.isNaN(ms) ? undefined : ms;
}

/** What a new freeze asks for, as sent (strings not yet read). */
export interface FreezeRequest {
  readonly start?: string;
  readonly end?: string;
  readonly reason?: string;
}

export const FREEZE_REASON_MAX = 500;
const EXAMPLE = "e.g. 2026-12-20T00:00:00+01:00";

/**
 * The field errors of a new freeze at `now`, each naming its field: start and end must be RFC 3339
 * date-times with an offset, end after start, at most `maxDays` apart and not in the past; the
 * reason must say something. Empty when it may be made (its project is the server's to check).
 */
export function freezeRequestErrors(request: FreezeRequest, now: number, maxDays: number): FieldError[] {
  const errors: FieldError[] = [];
  const moment = (field: "start" | "end"): number | undefined => {
    const text = request[field];
    if (text === undefined || text.trim() === "") {
      errors.push({
        field,
        type: "Required",
        detail: `the ${field} of the freeze, RFC 3339 with an offset (${EXAMPLE})`,
      });
      return undefined;
    }
    const ms = parseRfc3339(text.trim());
    if (ms === undefined)
      errors.push({
        field,
        type: "Invalid",
        value: text,
        detail: `not an RFC 3339 date-time with an offset (${EXAMPLE})`,
      });
    return ms;
  };
  const start = moment("start");
  const end = moment("end");
  if (start !== undefined && end !== undefined) {
    if (end <= start) errors.push({ field: "end", type: "Invalid", value: request.end, detail: "must be after start" });
    else if (end - start > maxDays * DAY_MS)
      errors.push({
        field: "end",
        type: "Invalid",
        value: request.end,
        detail: `a freeze lasts at most ${maxDays} days (ALMANAC_FREEZE_MAX_DAYS); split a longer one`,
      });
  }
  if (end !== undefined && end <= now)
    errors.push({
      field: "end",
      type: "Invalid",
      value: request.end,
      detail: "is in the past: the freeze would be over",
    });
  const reason = request.reason?.trim() ?? "";
  if (reason === "")
    errors.push({ field: "reason", type: "Required", detail: "say why nothing may change (people read it)" });
  else if (reason.length > FREEZE_REASON_MAX)
    errors.push({ field: "reason", type: "Invalid", detail: `at most ${FREEZE_REASON_MAX} characters` });
  return errors;
}
