// The API reference page's reading of the OpenAPI document (GET /api/v1/openapi.json): its
// operations grouped by tag, who may call each, and each JSON Schema as rows of fields a person
// can read ("integer, 1 to 500, default 50"). Only what lib/server/openapi-document.ts writes is
// read; a schema it does not know how to word reads as "any JSON".

export interface JsonSchema {
  readonly $ref?: string;
  readonly type?: string | readonly string[];
  readonly enum?: readonly unknown[];
  readonly const?: unknown;
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly required?: readonly string[];
  readonly additionalProperties?: boolean | JsonSchema;
  readonly items?: JsonSchema;
  readonly anyOf?: readonly JsonSchema[];
  readonly oneOf?: readonly JsonSchema[];
  readonly minimum?: number;
  readonly maximum?: number;
  readonly exclusiveMinimum?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly pattern?: string;
  readonly format?: string;
  readonly default?: unknown;
  readonly description?: string;
}

export interface ApiAccess {
  readonly role: "public" | "signed-in" | "viewer" | "operator" | "admin";
  readonly on?: "project" | "any-project" | "landscape";
}

interface Parameter {
  readonly name: string;
  readonly in: "path" | "query" | "header";
  readonly required: boolean;
  readonly description?: string;
  readonly schema: JsonSchema;
}

interface Response {
  readonly description: string;
  readonly headers?: Readonly<Record<string, { readonly description?: string }>>;
  readonly content?: Readonly<Record<string, { readonly schema?: JsonSchema }>>;
}

interface Operation {
  readonly operationId: string;
  readonly tags: readonly string[];
  readonly summary: string;
  readonly description?: string;
  readonly "x-almanac-access": ApiAccess;
  readonly parameters?: readonly Parameter[];
  readonly requestBody?: { readonly content: Readonly<Record<string, { readonly schema: JsonSchema }>> };
  readonly responses: Readonly<Record<string, Response>>;
}

export interface OpenApiDocument {
  readonly openapi: string;
  readonly info: { readonly title: string; readonly version: string; readonly description?: string };
  readonly tags: readonly { readonly name: string; readonly description?: string }[];
  readonly paths: Readonly<Record<string, Readonly<Record<string, Operation>>>>;
  readonly components: { readonly schemas: Readonly<Record<string, JsonSchema>> };
}

/** A piece of a type's words: text, or the name of a schema the page lists (a link). */
export type TypePart = { readonly text: string } | { readonly schema: string };

export interface FieldRow {
  /** The field's path below the schema, e.g. `maintenance.timeWindow.begin`; `[]` marks list items. */
  readonly path: string;
  readonly depth: number;
  readonly type: readonly TypePart[];
  readonly required: boolean;
  /** Limits and defaults in words ("1 to 500", "default 50"). */
  readonly notes: readonly string[];
  readonly description?: string;
}

export interface ReferenceOperation {
  readonly id: string;
  readonly method: string;
  readonly path: string;
  readonly summary: string;
  readonly description?: string;
  readonly access: string;
  readonly parameters: readonly {
    readonly name: string;
    readonly in: string;
    readonly required: boolean;
    readonly type: readonly TypePart[];
    readonly notes: readonly string[];
    readonly description?: string;
  }[];
  readonly body?: { readonly mediaTypes: readonly string[]; readonly fields: readonly FieldRow[] };
  readonly answers: readonly {
    readonly status: string;
    readonly description: string;
    readonly media: readonly { readonly type: string; readonly schema: readonly TypePart[] }[];
    readonly headers: readonly string[];
  }[];
}

export interface ReferenceSection {
  readonly tag: string;
  readonly description?: string;
  readonly operations: readonly ReferenceOperation[];
}

const COMPONENT = "#/components/schemas/";
const MAX_DEPTH = 4;

/** The component a `$ref` names, or undefined for other references. */
export const refName = (ref: string): string | undefined =>
  ref.startsWith(COMPONENT) ? ref.slice(COMPONENT.length) : undefined;

/** Who may call an operation, in words. */
export function accessWords(access: ApiAccess): string {
  if (access.role === "public") return "public";
  if (access.role === "signed-in") return "anyone signed in";
  const on = { project: "on the project", "any-project": "on any project", landscape: "landscape-wide" }[
    access.on ?? "landscape"
  ];
  return `${access.role} ${on}`;
}

function join(parts: readonly (readonly TypePart[])[], separator: string): TypePart[] {
  return parts.flatMap((p, i) => (i === 0 ? [...p] : [{ text: separator }, ...p]));
}

/** A schema's type in a few words, with links to the named schemas it is made of. */
export function typeParts(schema: JsonSchema): TypePart[] {
  if (schema.$ref) {
    const name = refName(schema.$ref);
    return [name ? { schema: name } : { text: schema.$ref }];
  }
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return join(alternatives.map(typeParts), " or ");
  if (schema.const !== undefined) return [{ text: JSON.stringify(schema.const) }];
  if (schema.enum) return [{ text: schema.enum.map((v) => JSON.stringify(v)).join(" | ") }];
  const types = typeof schema.type === "string" ? [schema.type] : (schema.type ?? []);
  if (types.length > 1)
    return join(
      types.map((type) => typeParts({ ...schema, type })),
      " or ",
    );
  switch (types[0]) {
    case "array":
      return schema.items ? [{ text: "list of " }, ...typeParts(schema.items)] : [{ text: "list" }];
    case "object":
      if (typeof schema.additionalProperties === "object" && !schema.properties)
        return [{ text: "map of " }, ...typeParts(schema.additionalProperties)];
      return [{ text: "object" }];
    case undefined:
      return [{ text: "any JSON" }];
    default:
      return [{ text: schema.format ? `${types[0]} (${schema.format})` : types[0] }];
  }
}

const SAFE_LIMIT = 2 ** 53 - 1;

/** A schema's limits and default, in words. */
export function schemaNotes(schema: JsonSchema): string[] {
  const notes: string[] = [];
  const range = (min: number | undefined, max: number | undefined, unit = "") => {
    const lo = min !== undefined && Math.abs(min) < SAFE_LIMIT ? min : undefined;
    const hi = max !== undefined && Math.abs(max) < SAFE_LIMIT ? max : undefined;
    if (lo !== undefined && hi !== undefined) notes.push(`${lo} to ${hi}${unit}`);
    else if (lo !== undefined) notes.push(`at least ${lo}${unit}`);
    else if (hi !== undefined) notes.push(`at most ${hi}${unit}`);
  };
  range(schema.minimum ?? schema.exclusiveMinimum, schema.maximum);
  range(schema.minLength, schema.maxLength, " characters");
  range(schema.minItems, schema.maxItems, " items");
  if (schema.pattern) notes.push(`matches ${schema.pattern}`);
  if (schema.default !== undefined) notes.push(`default ${JSON.stringify(schema.default)}`);
  return notes;
}

/** The object schema among a nullable or single alternative, whose fields are worth listing. */
function inlineObject(schema: JsonSchema): JsonSchema | undefined {
  if (schema.properties) return schema;
  const alternatives = (schema.anyOf ?? schema.oneOf ?? []).filter((s) => s.type !== "null");
  if (alternatives.length === 1) return inlineObject(alternatives[0]);
  if (schema.type === "array" || (Array.isArray(schema.type) && schema.type.includes("array")))
    return schema.items && !schema.items.$ref ? inlineObject(schema.items) : undefined;
  return undefined;
}

/** The fields of an object schema, nested objects' fields below their own (a few levels deep). */
export function fieldRows(schema: JsonSchema, prefix = "", depth = 0): FieldRow[] {
  const object = inlineObject(schema);
  if (!object?.properties || depth >= MAX_DEPTH) return [];
  const listItems = object !== schema && (schema.type === "array" || schema.items !== undefined);
  const base = listItems ? `${prefix}[]` : prefix;
  return Object.entries(object.properties).flatMap(([name, field]) => {
    const path = base ? `${base}.${name}` : name;
    return [
      {
        path,
        depth,
        type: typeParts(field),
        required: object.required?.includes(name) ?? false,
        notes: schemaNotes(field),
        ...(field.description ? { description: field.description } : {}),
      },
      ...fieldRows(field, path, depth + 1),
    ];
  });
}

const METHOD_ORDER = ["get", "post", "put", "patch", "delete"];

/** The document's operations by tag, in the tags' order, each as the page shows it. */
export function referenceSections(document: OpenApiDocument): ReferenceSection[] {
  const operations = Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .sort(([a], [b]) => METHOD_ORDER.indexOf(a) - METHOD_ORDER.indexOf(b))
      .map(([method, op]) => ({ path, method, op })),
  );
  return document.tags
    .map((tag) => ({
      tag: tag.name,
      ...(tag.description ? { description: tag.description } : {}),
      operations: operations
        .filter(({ op }) => op.tags.includes(tag.name))
        .map(({ path, method, op }): ReferenceOperation => {
          const body = op.requestBody ? Object.entries(op.requestBody.content) : [];
          return {
            id: op.operationId,
            method: method.toUpperCase(),
            path,
            summary: op.summary,
            ...(op.description ? { description: op.description } : {}),
            access: accessWords(op["x-almanac-access"]),
            parameters: (op.parameters ?? []).map((p) => ({
              name: p.name,
              in: p.in,
              required: p.required,
              type: typeParts(p.schema),
              notes: schemaNotes(p.schema),
              ...(p.description ? { description: p.description } : {}),
            })),
            ...(body.length > 0
              ? { body: { mediaTypes: body.map(([type]) => type), fields: fieldRows(body[0][1].schema) } }
              : {}),
            answers: Object.entries(op.responses).map(([status, answer]) => ({
              status,
              description: answer.description,
              media: Object.entries(answer.content ?? {}).map(([type, { schema }]) => ({
                type,
                schema: schema ? typeParts(schema) : [],
              })),
              headers: Object.keys(answer.headers ?? {}),
            })),
          };
        }),
    }))
    .filter((section) => section.operations.length > 0);
}
