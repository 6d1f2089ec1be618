// What a bulk action asks, checked before anything is read or written: the action and its
// parameters become one change (a merge patch, or "maintain now"), and the selection becomes the
// shoots' keys (a fleet-list filter, parsed and scoped exactly as GET /api/v1/shoots does it, or a
// list). Bad input is 422 naming the field.
import { summaryParams, listShootsParams } from "../api/operations/shoots.ts";
import {
  BULK_ACTIONS,
  type BulkActionName,
  type BulkActionRequest,
  bulkShootKeySchema,
  MAX_BULK_SHOOTS,
} from "../api/bulk-actions.ts";
import { parseQuery } from "../api/parse-query.ts";
import type { FieldProblem } from "../api/problem.ts";
import { Refusal, unprocessable } from "../api/refusal.ts";
import { zodProblems } from "../api/zod-problems.ts";
import type { Db } from "../db/client.ts";
import type { ShootPatch } from "../engine/shoot-patch.ts";
import { validateTimeWindow } from "../engine/time-window.ts";
import type { ShootKey } from "../garden/shoot-writes.ts";
import { cachedCloudProfiles } from "../store/cloud-profiles.ts";
import { listShootPage } from "../store/shoot-page.ts";
import { type FleetScope, refuseUnreadable, scopedNamespaces } from "./fleet-scope.ts";
import { shootFilterOf } from "./list-shoots.ts";

/** What is done to each shoot: maintenance now, or a merge patch (as PATCH .../shoots/{name} takes it). */
export type BulkChange = { readonly kind: "maintain" } | { readonly kind: "patch"; readonly patch: ShootPatch };

const refuse = (detail: string, errors: readonly FieldProblem[]): never => {
  throw unprocessable(detail, errors);
};

function noParams(params: Readonly<Record<string, unknown>>, action: string): void {
  const extra = Object.keys(params);
  if (extra.length > 0)
    refuse(
      `The action "${action}" takes no parameters.`,
      extra.map((k) => ({ field: `params.${k}`, type: "Unknown", detail: `"${action}" takes no parameters` })),
    );
}

function onlyKeys(params: Readonly<Record<string, unknown>>, allowed: readonly string[], action: string): void {
  const extra = Object.keys(params).filter((k) => !allowed.includes(k));
  if (extra.length > 0)
    refuse(
      `The action "${action}" takes only ${allowed.join(", ")}.`,
      extra.map((k) => ({
        field: `params.${k}`,
        type: "Unknown",
        detail: `unknown parameter; "${action}" takes ${allowed.join(", ")}`,
      })),
    );
}

function booleanParam(params: Readonly<Record<string, unknown>>, key: string): boolean | undefined {
  const value = params[key];
  if (value === undefined) return undefined;
  if (typeof value !== "boolean")
    refuse(`params.${key} must be true or false.`, [
      { field: `params.${key}`, type: "TypeMismatch", detail: "must be true or false" },
    ]);
  return value as boolean;
}

/** The action's change on every shoot, from its name and parameters. */
export function bulkChangeOf(action: string, params: Readonly<Record<string, unknown>> = {}): BulkChange {
  if (!(BULK_ACTIONS as readonly string[]).includes(action))
    refuse(`Unknown action "${action}"; use one of ${BULK_ACTIONS.join(", ")}.`, [
      { field: "action", type: "NotSupported", detail: `supported values: ${BULK_ACTIONS.join(", ")}` },
    ]);
  switch (action as BulkActionName) {
    case "maintain":
      noParams(params, action);
      return { kind: "maintain" };
    case "hibernate":
    case "wake":
      noParams(params, action);
      return { kind: "patch", patch: { spec: { hibernation: { enabled: action === "hibernate" } } } };
    case "set-window": {
      onlyKeys(params, ["begin", "end"], action);
      const { begin, end } = params;
      const problems = validateTimeWindow({ begin, end }, "params").map((p) => ({
        field: p.field.replace(/^params\.timeWindow/, "params"),
        type: p.type,
        detail: p.detail,
      }));
      if (typeof begin !== "string" || typeof end !== "string" || problems.length > 0)
        refuse(
          problems.map((p) => `${p.field}: ${p.detail}`).join("; ") ||
            'set-window needs {"begin": "HHMMSS+HHMM", "end": "HHMMSS+HHMM"}.',
          problems.length > 0
            ? problems
            : [{ field: "params", type: "Required", detail: "begin and end, like 220000+0000" }],
        );
      return {
        kind: "patch",
        patch: { spec: { maintenance: { timeWindow: { begin: begin as string, end: end as string } } } },
      };
    }
    case "set-auto-update": {
      onlyKeys(params, ["kubernetesVersion", "machineImageVersion"], action);
      const kubernetesVersion = booleanParam(params, "kubernetesVersion");
      const machineImageVersion = booleanParam(params, "machineImageVersion");
      if (kubernetesVersion === undefined && machineImageVersion === undefined)
        refuse("set-auto-update needs kubernetesVersion or machineImageVersion (true or false).", [
          { field: "params", type: "Required", detail: "kubernetesVersion and/or machineImageVersion" },
        ]);
      return {
        kind: "patch",
        patch: {
          spec: {
            maintenance: {
              autoUpdate: {
                ...(kubernetesVersion !== undefined ? { kubernetesVersion } : {}),
                ...(machineImageVersion !== undefined ? { machineImageVersion } : {}),
              },
            },
          },
        },
      };
    }
    case "set-confine-rollout": {
      onlyKeys(params, ["confineSpecUpdateRollout"], action);
      const confine = booleanParam(params, "confineSpecUpdateRollout");
      if (confine === undefined)
        refuse("set-confine-rollout needs confineSpecUpdateRollout (true or false).", [
          { field: "params.confineSpecUpdateRollout", type: "Required", detail: "true or false" },
        ]);
      return { kind: "patch", patch: { spec: { maintenance: { confineSpecUpdateRollout: confine } } } };
    }
  }
}

/** The filter object as the list's query string: values as their text, a list joined with commas. */
function filterQuery(filter: Readonly<Record<string, unknown>>): URLSearchParams {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(filter)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) search.append(key, value.map(String).join(","));
    else if (typeof value === "object")
      refuse(`filter.${key} must be a text, a number or a list.`, [
        { field: `filter.${key}`, type: "TypeMismatch", detail: "must be a text, a number or a list" },
      ]);
    else search.append(key, String(value));
  }
  return search;
}

/** The list's 400 for a bad parameter, as this body's 422 naming `filter.<parameter>`. */
function asFilterProblem(error: unknown): never {
  if (error instanceof Refusal && error.code === "invalid")
    throw unprocessable(
      error.message.replace(/query parameters?/g, "filter's parameter"),
      error.errors.map((p) => ({ ...p, field: p.field.replace(/^query\./, "filter.") })),
    );
  throw error;
}

/** The keys a filter selects within what the caller may read, in name order; at most MAX_BULK_SHOOTS. */
async function filteredShoots(
  db: Db,
  filter: Readonly<Record<string, unknown>>,
  scope: FleetScope,
  now: number,
): Promise<ShootKey[]> {
  // The list's own parameters (its sort, page size and cursor mean nothing here: all are taken).
  let params;
  try {
    parseQuery(listShootsParams, filterQuery(filter));
    const { sort: _sort, limit: _limit, cursor: _cursor, ...rest } = filter;
    params = parseQuery(summaryParams, filterQuery(rest));
  } catch (error) {
    asFilterProblem(error);
  }
  await refuseUnreadable(db, scope, params!);
  const profiles = await cachedCloudProfiles(db, now);
  const shootFilter = shootFilterOf(params!, profiles, now, scopedNamespaces(scope));
  const keys: ShootKey[] = [];
  let after: readonly [string, string, string] | undefined;
  for (;;) {
    const rows = await listShootPage(db, {
      filter: shootFilter,
      sort: "name",
      descending: false,
      limit: 1_000,
      now: new Date(now),
      origin: 0,
      after,
    });
    for (const row of rows) keys.push({ namespace: row.namespace, name: row.name });
    if (keys.length > MAX_BULK_SHOOTS)
      refuse(`The filter selects more than ${MAX_BULK_SHOOTS} shoots; one bulk action takes at most that many.`, [
        { field: "filter", type: "TooMany", detail: `selects more than ${MAX_BULK_SHOOTS} shoots` },
      ]);
    const last = rows.at(-1);
    if (rows.length < 1_000 || !last) break;
    after = [last.sortKey, last.namespace, last.name];
  }
  if (keys.length === 0)
    refuse("The filter selects no shoot (of those you may read).", [
      { field: "filter", type: "Empty", detail: "selects no shoot" },
    ]);
  return keys;
}

function listedShoots(shoots: readonly unknown[]): ShootKey[] {
  if (shoots.length === 0)
    refuse("The list of shoots is empty.", [{ field: "shoots", type: "Empty", detail: "name at least one shoot" }]);
  const seen = new Set<string>();
  const keys: ShootKey[] = [];
  const problems: FieldProblem[] = [];
  shoots.forEach((entry, i) => {
    const parsed = bulkShootKeySchema.safeParse(entry);
    if (!parsed.success) {
      problems.push(...zodProblems(parsed.error, `shoots[${i}]`));
      return;
    }
    const id = `${parsed.data.namespace}/${parsed.data.name}`;
    if (seen.has(id)) return;
    seen.add(id);
    keys.push(parsed.data);
  });
  if (problems.length > 0) refuse('Each shoot must be {"namespace", "name"}.', problems);
  return keys;
}

/** The shoots a request selects: exactly one of `filter` and `shoots`. */
export async function selectedShoots(
  db: Db,
  body: Pick<BulkActionRequest, "filter" | "shoots">,
  scope: FleetScope,
  now: number,
): Promise<ShootKey[]> {
  if ((body.filter === undefined) === (body.shoots === undefined))
    refuse("Name the shoots with either filter or shoots (one of them).", [
      {
        field: body.filter === undefined ? "filter" : "shoots",
        type: body.filter === undefined ? "Required" : "Forbidden",
        detail: "give either filter or shoots",
      },
    ]);
  return body.shoots !== undefined ? listedShoots(body.shoots) : filteredShoots(db, body.filter!, scope, now);
}
