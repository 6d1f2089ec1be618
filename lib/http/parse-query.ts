// Query parameters checked against a zod schema; unknown or bad ones are a 400 naming them.
import type { z } from "zod";
import { badRequest } from "./api-error.ts";
import { zodProblems } from "./zod-problems.ts";

export function parseQuery<S extends z.ZodType>(schema: S, search: URLSearchParams): z.infer<S> {
  const raw: Record<string, string> = {};
  for (const [key, value] of search) {
    if (key in raw) throw badRequest(`The query parameter "${key}" is given twice.`, [{ field: `query.${key}`, type: "Duplicate", detail: "give each parameter once" }]);
    raw[key] = value;
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw badRequest("The query parameters are not valid.", zodProblems(parsed.error, "query"));
  return parsed.data;
}
