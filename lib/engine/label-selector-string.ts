// The string form of a Kubernetes label selector (what `kubectl get -l` takes and
// k8s.io/apimachinery's labels.Parse reads): requirements joined by commas, each `key`, `!key`,
// `key=value` (or `==`), `key!=value`, `key in (a,b)`, `key notin (a,b)`. Parsed into the
// structured form (metav1.LabelSelector's expressions), which label-selector.ts matches with
// Kubernetes' semantics: `=` is In one value, `!=` is NotIn one value (a shoot without the key
// matches it, as in Kubernetes).
import type { LabelSelector } from "../gardener/types.ts";

export type LabelRequirement = {
  readonly key: string;
  readonly operator: "In" | "NotIn" | "Exists" | "DoesNotExist";
  readonly values: readonly string[];
};

export type ParsedLabelSelector =
  | { readonly ok: true; readonly requirements: readonly LabelRequirement[] }
  | { readonly ok: false; readonly error: string };

/** The longest selector the fleet filter takes. */
export const MAX_LABEL_SELECTOR_LENGTH = 2000;

type Token =
  | { readonly kind: "id"; readonly text: string }
  | { readonly kind: "op"; readonly text: "=" | "==" | "!=" | "!" | "(" | ")" | "," | ">" | "<" }
  | { readonly kind: "end" };

// The characters that end an identifier, as apimachinery's lexer has them.
const SPECIAL = new Set(["=", "!", "(", ")", ",", ">", "<"]);

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (/\s/.test(c)) {
      i++;
    } else if (c === "=" || c === "!") {
      const two = text.slice(i, i + 2);
      if (two === "==" || two === "!=") {
        tokens.push({ kind: "op", text: two });
        i += 2;
      } else {
        tokens.push({ kind: "op", text: c });
        i++;
      }
    } else if (SPECIAL.has(c)) {
      tokens.push({ kind: "op", text: c as "(" | ")" | "," | ">" | "<" });
      i++;
    } else {
      let j = i;
      while (j < text.length && !SPECIAL.has(text[j]) && !/\s/.test(text[j])) j++;
      tokens.push({ kind: "id", text: text.slice(i, j) });
      i = j;
    }
  }
  tokens.push({ kind: "end" });
  return tokens;
}

const NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** Why `key` is not a label key (a qualified name: an optional DNS-subdomain prefix and "/"), or null. */
export function labelKeyProblem(key: string): string | null {
  const slash = key.indexOf("/");
  const prefix = slash >= 0 ? key.slice(0, slash) : undefined;
  const name = slash >= 0 ? key.slice(slash + 1) : key;
  if (prefix !== undefined) {
    if (prefix.length === 0) return `label key "${key}": the prefix part must be non-empty`;
    if (prefix.length > 253 || !DNS_SUBDOMAIN.test(prefix))
      return `label key "${key}": the prefix part must be a lowercase DNS subdomain (at most 253 characters)`;
  }
  if (name.length === 0) return `label key "${key}": the name part must be non-empty`;
  if (name.length > 63) return `label key "${key}": the name part must be no more than 63 characters`;
  if (!NAME.test(name))
    return `label key "${key}": the name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character`;
  return null;
}

/** Why `value` is not a label value (empty, or up to 63 characters of a name's kind), or null. */
export function labelValueProblem(value: string): string | null {
  if (value === "") return null;
  if (value.length > 63) return `label value "${value}": must be no more than 63 characters`;
  if (!NAME.test(value))
    return `label value "${value}": must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character`;
  return null;
}

class SelectorError extends Error {}

const describe = (t: Token) => (t.kind === "end" ? "the end" : `"${t.text}"`);

/** Parses a label selector's string form; the empty string selects everything (no requirement). */
export function parseLabelSelector(text: string): ParsedLabelSelector {
  if (text.length > MAX_LABEL_SELECTOR_LENGTH)
    return { ok: false, error: `a label selector must be no more than ${MAX_LABEL_SELECTOR_LENGTH} characters` };
  const tokens = tokenize(text);
  let at = 0;
  const peek = () => tokens[at];
  const next = () => tokens[at++];
  const fail = (message: string): never => {
    throw new SelectorError(message);
  };
  const key = (): string => {
    const t = next();
    if (t.kind !== "id") fail(`found ${describe(t)}, expected a label key`);
    const problem = labelKeyProblem((t as { text: string }).text);
    if (problem) fail(problem);
    return (t as { text: string }).text;
  };
  const value = (v: string): string => {
    const problem = labelValueProblem(v);
    if (problem) fail(problem);
    return v;
  };
  const values = (k: string, op: string): string[] => {
    const open = next();
    if (open.kind !== "op" || open.text !== "(") fail(`found ${describe(open)}, expected "(" after "${k} ${op}"`);
    // Between the parentheses: values separated by commas; an empty place is the empty value
    // ("(a,)" is a and ""), as in Kubernetes, but "()" is no value at all.
    const list: string[] = [];
    let place: string | undefined;
    let places = 0;
    for (;;) {
      const t = next();
      if (t.kind === "id") {
        if (place !== undefined) fail(`found "${t.text}", expected "," or ")" in "${k} ${op} (...)"`);
        place = value(t.text);
      } else if (t.kind === "op" && (t.text === "," || t.text === ")")) {
        places++;
        if (place !== undefined || t.text === "," || places > 1) list.push(place ?? "");
        place = undefined;
        if (t.text === ")") break;
      } else {
        fail(`found ${describe(t)}, expected a value, "," or ")" in "${k} ${op} (...)"`);
      }
    }
    if (list.length === 0) fail(`"${k} ${op} ()": for 'in', 'notin' operators, values set can't be empty`);
    return [...new Set(list)].sort();
  };
  const requirement = (): LabelRequirement => {
    const first = peek();
    if (first.kind === "op" && first.text === "!") {
      next();
      return { key: key(), operator: "DoesNotExist", values: [] };
    }
    const k = key();
    const op = peek();
    if (op.kind === "end" || (op.kind === "op" && op.text === ",")) return { key: k, operator: "Exists", values: [] };
    next();
    if (op.kind === "op" && (op.text === "=" || op.text === "==" || op.text === "!=")) {
      const t = peek();
      let v = "";
      if (t.kind === "id") {
        v = value(t.text);
        next();
      } else if (!(t.kind === "end" || (t.kind === "op" && t.text === ",")))
        fail(`found ${describe(t)}, expected a value after "${k}${op.text}"`);
      return { key: k, operator: op.text === "!=" ? "NotIn" : "In", values: [v] };
    }
    if (op.kind === "id" && (op.text === "in" || op.text === "notin"))
      return { key: k, operator: op.text === "in" ? "In" : "NotIn", values: values(k, op.text) };
    if (op.kind === "op" && (op.text === ">" || op.text === "<"))
      return fail(`"${k} ${op.text}": the fleet filter takes =, ==, !=, in, notin, exists and !key, not > or <`);
    return fail(`found ${describe(op)} after "${k}", expected one of =, ==, !=, in, notin, or "," or the end`);
  };
  try {
    const requirements: LabelRequirement[] = [];
    if (peek().kind === "end") return { ok: true, requirements };
    for (;;) {
      requirements.push(requirement());
      const t = next();
      if (t.kind === "end") break;
      if (t.kind !== "op" || t.text !== ",") fail(`found ${describe(t)}, expected "," or the end`);
    }
    return { ok: true, requirements };
  } catch (error) {
    if (error instanceof SelectorError) return { ok: false, error: error.message };
    throw error;
  }
}

/** The requirements as a structured selector (metav1.LabelSelector), for matchLabelSelector. */
export function asLabelSelector(requirements: readonly LabelRequirement[]): LabelSelector {
  return { matchExpressions: requirements.map((r) => ({ key: r.key, operator: r.operator, values: [...r.values] })) };
}

/** The requirements back in the string form, normalised (`team in (a,b),!legacy`). */
export function formatLabelRequirements(requirements: readonly LabelRequirement[]): string {
  return requirements
    .map((r) => {
      switch (r.operator) {
        case "Exists":
          return r.key;
        case "DoesNotExist":
          return `!${r.key}`;
        case "In":
          return r.values.length === 1 ? `${r.key}=${r.values[0]}` : `${r.key} in (${r.values.join(",")})`;
        case "NotIn":
          return r.values.length === 1 ? `${r.key}!=${r.values[0]}` : `${r.key} notin (${r.values.join(",")})`;
      }
    })
    .join(",");
}
