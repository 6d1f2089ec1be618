// gardener-apiserver's structural validation of a shoot's spec.tolerations (core validation,
// ValidateTolerations, which the shoot's validation runs on every create and update; Almanac checks
// a user's change only where it changes the list, see validateTolerations): each
// toleration has a key that is a valid label name, an optional value that is a valid label value,
// and no toleration repeats one before it. Whether the project may use them is the
// ShootTolerationRestriction's business (toleration-restriction.ts).
import type { Toleration } from "../gardener/types.ts";
import type { FieldError } from "./field-error.ts";

/** utils.IDForKeyWithOptionalValue: "key" or "key=value", how Gardener compares tolerations. */
export const tolerationId = (t: Toleration): string => (t.value === undefined ? t.key : `${t.key}=${t.value}`);

// apimachinery's qualified name: an optional DNS-subdomain prefix and "/", then a name of at most
// 63 characters of alphanumerics, '-', '_' and '.', starting and ending with an alphanumeric.
const NAME = /^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** Why `key` is not a valid label name (metav1validation.ValidateLabelName), or undefined. */
export function labelNameProblem(key: string): string | undefined {
  const parts = key.split("/");
  if (parts.length > 2) return "a qualified name must consist of an optional prefix and a name, separated by '/'";
  const name = parts.length === 2 ? parts[1] : parts[0];
  if (parts.length === 2) {
    const prefix = parts[0];
    if (prefix === "") return "prefix part must be non-empty";
    if (prefix.length > 253 || !DNS_SUBDOMAIN.test(prefix))
      return "prefix part must be a lowercase DNS subdomain (e.g. 'example.com'), at most 253 characters";
  }
  if (name === "") return "name part must be non-empty";
  if (name.length > 63) return "name part must be no more than 63 characters";
  if (!NAME.test(name))
    return "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
  return undefined;
}

/** Why `value` is not a valid label value (validation.IsValidLabelValue), or undefined. An empty value is valid. */
export function labelValueProblem(value: string): string | undefined {
  if (value === "") return undefined;
  if (value.length > 63) return "must be no more than 63 characters";
  if (!NAME.test(value))
    return "a valid label value must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
  return undefined;
}

/**
 * ValidateTolerations: a key is required and a valid label name, a value a valid label value; a
 * toleration is a Duplicate when one before it has the same key and value, or the same key and no
 * value (so "k" then "k=v" is a duplicate, "k=v" then "k" is not, and "k=a" then "k=b" is not:
 * Gardener's own rule, asymmetric as it is).
 *
 * With `admitted` (the list the shoot had before a user's change), Almanac does not re-judge what
 * the garden once admitted: an unchanged list has no problems (so its maintenance window can still
 * be changed), and in a changed list the key and value formats are checked only on the tolerations
 * that are new; a missing key and a duplicate are checked on the whole changed list. Gardener
 * itself re-validates every update, but a garden may have admitted what this copy of its rules
 * would refuse.
 */
export function validateTolerations(
  tolerations: readonly Toleration[],
  path = "spec.tolerations",
  admitted?: readonly Toleration[],
): FieldError[] {
  const before = admitted?.map(tolerationId);
  if (before && before.length === tolerations.length && tolerations.every((t, i) => tolerationId(t) === before[i]))
    return [];
  const known = new Set(before);
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  tolerations.forEach((toleration, i) => {
    const at = `${path}[${i}]`;
    const id = tolerationId(toleration);
    const isNew = !known.has(id);
    if (toleration.key === "") {
      errors.push({ type: "Required", field: `${at}.key`, detail: "cannot be empty" });
    } else if (isNew) {
      const problem = labelNameProblem(toleration.key);
      if (problem) errors.push({ type: "Invalid", field: `${at}.key`, value: toleration.key, detail: problem });
    }
    if (toleration.value !== undefined && isNew) {
      const problem = labelValueProblem(toleration.value);
      if (problem) errors.push({ type: "Invalid", field: `${at}.value`, value: toleration.value, detail: problem });
    }
    if (seen.has(id) || seen.has(toleration.key))
      errors.push({ type: "Duplicate", field: at, value: id, detail: `Duplicate value: "${id}"` });
    seen.add(id);
  });
  return errors;
}

/** "key" or "key=value" as a toleration (for settings and forms); throws why it is not one. */
export function parseTolerationEntry(entry: string): Toleration {
  const at = entry.indexOf("=");
  const toleration: Toleration = at < 0 ? { key: entry } : { key: entry.slice(0, at), value: entry.slice(at + 1) };
  const problem =
    labelNameProblem(toleration.key) ??
    (toleration.value === undefined ? undefined : labelValueProblem(toleration.value));
  if (problem) throw new Error(problem);
  return toleration;
}
