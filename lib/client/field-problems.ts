// Where a refusal's field problems go in a form. The server names each problem by the path of the
// field it is about (`spec.maintenance.timeWindow.begin`, `spec.provider.workers[1].machine`); a
// form names the paths its fields stand for, and each problem is shown at the field whose path is
// the longest that contains it, so that a problem of the window's begin stands beside the begin
// and not also beside the window as a whole. A problem no field claims is for the form's summary.
import type { FieldProblem } from "../api/problem.ts";

/** Whether `field` is `path` itself or lies under it (`path.x`, `path[0]`). */
export function isUnder(field: string, path: string): boolean {
  return field === path || field.startsWith(`${path}.`) || field.startsWith(`${path}[`);
}

export interface PlacedProblems<K extends string> {
  /** Per form field, the first problem placed there. */
  readonly messages: Partial<Record<K, string>>;
  /** The problems no form field claims, in the server's order. */
  readonly unplaced: readonly FieldProblem[];
}

/** Places each problem at the form field with the longest path that contains it. */
export function placeFieldProblems<K extends string>(
  problems: readonly FieldProblem[],
  fields: Readonly<Record<K, string>>,
): PlacedProblems<K> {
  const messages: Partial<Record<K, string>> = {};
  const unplaced: FieldProblem[] = [];
  const entries = Object.entries(fields) as [K, string][];
  for (const problem of problems) {
    const claims = entries.filter(([, path]) => isUnder(problem.field, path));
    if (claims.length === 0) {
      unplaced.push(problem);
      continue;
    }
    const [key] = claims.reduce((a, b) => (b[1].length > a[1].length ? b : a));
    messages[key] ??= problem.detail;
  }
  return { messages, unplaced };
}
