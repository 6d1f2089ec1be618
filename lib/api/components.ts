// The named schemas of /api/v1's answers: the OpenAPI document lists each once under
// components.schemas and refers to it wherever it appears (lib/server/openapi-document.ts).
import { z } from "zod";

export const apiComponents = z.registry<{ id: string }>();

/** `schema`, listed in the document as `id`. */
export function component<S extends z.ZodType>(id: string, schema: S): S {
  apiComponents.add(schema, { id });
  return schema;
}
