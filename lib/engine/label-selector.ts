// Kubernetes label selectors (metav1.LabelSelector) as Gardener's admission uses them for a cloud
// profile's seed selector: LabelSelectorAsSelector, then Matches on the seed's labels.
import type { LabelSelector } from "../gardener/types.ts";

export type SelectorResult =
  { readonly ok: true; readonly matches: boolean } | { readonly ok: false; readonly error: string };

/**
 * Go's %v of a metav1.LabelSelector, e.g. `{map[domain:foo] [{zone In [a b]}]}` (map keys sorted, as
 * Go prints them).
 */
export function formatLabelSelector(selector: LabelSelector): string {
  const labels = Object.entries(selector.matchLabels ?? {})
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}:${v}`)
    .join(" ");
  const expressions = (selector.matchExpressions ?? [])
    .map((e) => `{${e.key} ${e.operator} [${(e.values ?? []).join(" ")}]}`)
    .join(" ");
  return `{map[${labels}] [${expressions}]}`;
}

/**
 * Whether `labels` match `selector` (every matchLabels pair, every expression: In, NotIn, Exists,
 * DoesNotExist), or the error LabelSelectorAsSelector answers for a selector it cannot convert.
 */
export function matchLabelSelector(selector: LabelSelector, labels: Readonly<Record<string, string>>): SelectorResult {
  for (const e of selector.matchExpressions ?? []) {
    const values = e.values ?? [];
    switch (e.operator) {
      case "In":
      case "NotIn":
        if (values.length === 0) return { ok: false, error: "for 'in', 'notin' operators, values set can't be empty" };
        break;
      case "Exists":
      case "DoesNotExist":
        if (values.length > 0) return { ok: false, error: "values set must be empty for exists and does not exist" };
        break;
      default:
        return { ok: false, error: `"${e.operator}" is not a valid label selector operator` };
    }
  }
  const has = (k: string) => Object.prototype.hasOwnProperty.call(labels, k);
  const matches =
    Object.entries(selector.matchLabels ?? {}).every(([k, v]) => has(k) && labels[k] === v) &&
    (selector.matchExpressions ?? []).every((e) => {
      const values = e.values ?? [];
      switch (e.operator) {
        case "In":
          return has(e.key) && values.includes(labels[e.key]);
        case "NotIn":
          return !has(e.key) || !values.includes(labels[e.key]);
        case "Exists":
          return has(e.key);
        default:
          return !has(e.key);
      }
    });
  return { ok: true, matches };
}
