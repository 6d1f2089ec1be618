// Query parameters checked against a zod schema; unknown or bad ones are refused as "invalid", naming them.
// An empty value counts as not given (forms send `?status=&q=`); a repeated one is refused.
import type { z } from "zod";
import { invalid } from "./refusal.ts";
import { zodProblems } from "./zod-problems.ts";

export function parseQuery<S extends z.ZodObject>(schema: S, search: URLSearchParams): z.infer<S> {
  const raw: Record<string, string> = Object.create(null);
  const seen = new Set<string>();
  const known = new Set(Object.keys(schema.shape));
  for (const [key, value] of search) {
    // Checked here as well as by the strict schema, which passes over names like __proto__.
    if (!known.has(key)) {
      throw invalid(`Unknown query parameter "${key}".`, [
        { field: `query.${key}`, type: "Unknown", detail: `unknown parameter; use ${[...known].join(", ")}` },
      ]);
    }
    if (seen.has(key))
      throw invalid(`The query parameter "${key}" is given twice.`, [
        { field: `query.${key}`, type: "Duplicate", detail: "give each parameter once" },
      ]);
    seen.add(key);
    if (value.includes("\0"))
      throw invalid(`The query parameter "${key}" contains a NUL character.`, [
        { field: `query.${key}`, type: "Invalid", detail: "must not contain NUL characters" },
      ]);
    if (value !== "") raw[key] = value;
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw invalid("The query parameters are not valid.", zodProblems(parsed.error, "query"));
  return parsed.data;
}
