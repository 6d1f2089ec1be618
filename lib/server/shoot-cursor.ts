// The fleet list's page cursor: opaque to clients (base64url JSON), carrying the sort it was made
// for, the last row's sort key and identity, and for sort=nextMaintenance the second of the day
// the order started from. Everything in it is checked before it reaches SQL.
import type { ShootSort } from "../api/shoot-sorts.ts";
import { DAY_SECONDS } from "../engine/time-units.ts";
import { SORT_KEY_TYPES } from "../store/shoot-page.ts";
import { invalid } from "../api/refusal.ts";

export interface ShootCursor {
  /** The sort as given, e.g. "-expiry". */
  readonly sort: string;
  readonly after: readonly [string, string, string];
  readonly origin: number;
}

const badCursor = (detail: string) =>
  invalid("The cursor is not one this server handed out.", [{ field: "query.cursor", type: "Invalid", detail }]);

// As PostgreSQL prints a timestamptz: 2026-12-01 10:00:00.123+00.
const TIMESTAMP =
  /^(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01]) ([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,6})?[+-]\d{2}(:\d{2})?$/;

function validKey(type: (typeof SORT_KEY_TYPES)[ShootSort], key: string): boolean {
  switch (type) {
    case "smallint":
      return /^[0-3]$/.test(key);
    case "int":
      return /^\d{1,5}$/.test(key) && Number(key) <= DAY_SECONDS;
    case "timestamptz": {
      const m = TIMESTAMP.exec(key);
      return m !== null && Number(m[1]) >= 1;
    }
    case "text":
      return key.length <= 600 && !key.includes("\0");
  }
}

export function encodeCursor(cursor: ShootCursor): string {
  return Buffer.from(JSON.stringify({ s: cursor.sort, k: cursor.after, o: cursor.origin })).toString("base64url");
}

export function decodeCursor(text: string, sort: string, field: ShootSort): ShootCursor {
  let raw: { s?: unknown; k?: unknown; o?: unknown };
  try {
    raw = JSON.parse(Buffer.from(text, "base64url").toString("utf8"));
  } catch {
    throw badCursor("not a cursor from a previous page");
  }
  const k = raw?.k;
  const isName = (v: unknown) => typeof v === "string" && v.length > 0 && v.length <= 253 && !v.includes("\0");
  if (!Array.isArray(k) || k.length !== 3 || typeof k[0] !== "string" || !isName(k[1]) || !isName(k[2])) {
    throw badCursor("not a cursor from a previous page");
  }
  if (raw.s !== sort) throw badCursor(`cursor was made for sort "${String(raw.s)}", not "${sort}"`);
  if (!validKey(SORT_KEY_TYPES[field], k[0])) throw badCursor("not a cursor from a previous page");
  const origin = raw.o;
  if (typeof origin !== "number" || !Number.isInteger(origin) || origin < 0 || origin >= DAY_SECONDS)
    throw badCursor("not a cursor from a previous page");
  return { sort, after: [k[0], k[1], k[2]], origin };
}
