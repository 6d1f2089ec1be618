// GET /api/v1/openapi.json: the OpenAPI 3.1 document of /api/v1, made by mapping over the operations
// (lib/api/operations) and their zod schemas with zod's own JSON Schema output (draft 2020-12,
// OpenAPI 3.1's dialect). Answers are output schemas, queries and bodies input schemas (what a
// client sends, before defaults and transforms). Made once per process: it changes with the code.
import { createHash } from "node:crypto";
import { z } from "zod";
import { apiComponents } from "../api/components.ts";
import { problemSchema } from "../api/problem.ts";
import { type Access, API_TAGS, type Operation } from "../api/operation.ts";
import { API_OPERATIONS } from "../api/operations/index.ts";
import { roleFor } from "../api/roles.ts";

type JsonSchema = Record<string, unknown>;

const COMPONENT_PREFIX = "#/components/schemas/";
const PROBLEM_MEDIA_TYPE = "application/problem+json";

const STATUS_WORDS: Record<number, string> = {
  400: "The query or body is not valid; `errors` names each field.",
  401: "Nobody is signed in, or the token is not valid.",
  403: "The caller's role does not allow it (the problem names the role held and the one needed).",
  404: "Not found.",
  409: "In conflict with the object's state (changed since read, being deleted, an operation under way).",
  413: "The body is larger than 1 MiB.",
  415: "The body's media type is not one of those accepted.",
  422: "Refused by the rules: Gardener's validation or admission, the garden, or a project that does not exist.",
  502: "The garden refused Almanac's own credentials.",
  503: "The database or the garden does not answer; try again.",
};

const PATH_PARAMETERS: Record<string, string> = {
  namespace: "The project's namespace, e.g. garden-dev.",
  name: "The object's name.",
  id: "The id from the list.",
};

/** JSON Schema of a zod schema; the $schema member is the document's (OpenAPI 3.1 default). */
function jsonSchema(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const id = io === "output" ? apiComponents.get(schema)?.id : undefined;
  if (id) return { $ref: `${COMPONENT_PREFIX}${id}` };
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    target: "draft-2020-12",
    io,
    unrepresentable: "any",
  }) as JsonSchema;
  return rest;
}

function componentSchemas(): Record<string, JsonSchema> {
  const { schemas } = z.toJSONSchema(apiComponents, {
    target: "draft-2020-12",
    io: "output",
    uri: (id) => `${COMPONENT_PREFIX}${id}`,
  });
  return Object.fromEntries(
    Object.entries(schemas).map(([id, schema]) => {
      const { $schema: _dialect, $id: _id, ...rest } = schema as JsonSchema;
      return [id, rest];
    }),
  );
}

/**
 * Who may call, as the document says it: nobody needs to be known (public), anyone signed in, or
 * a role on the shoot's project (the path's namespace), on any project (the answer then holds only
 * what the caller's projects may read), or on the whole landscape.
 */
export type ApiAccess =
  | { readonly role: "public" | "signed-in" }
  | { readonly role: "viewer" | "operator" | "admin"; readonly on: "project" | "any-project" | "landscape" };

export function documentedAccess(access: Access): ApiAccess {
  if (access.need === "public" || access.need === "signed-in") return { role: access.need };
  const on = access.project === "namespace" ? "project" : access.project === "any" ? "any-project" : "landscape";
  return { role: roleFor(access.need), on };
}

function accessWords(access: ApiAccess): string {
  if (!("on" in access)) return access.role === "public" ? "Public." : "Anyone signed in.";
  const where = {
    project: "on the shoot's project (the path's namespace)",
    "any-project": "on any project; the answer holds only what the caller's projects may read",
    landscape: "on the whole landscape",
  }[access.on];
  return `Needs the ${access.role} role ${where}.`;
}

function parameters(op: Operation): JsonSchema[] {
  const inPath = [...op.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
    name,
    in: "path",
    required: true,
    description: PATH_PARAMETERS[name],
    schema: { type: "string" },
  }));
  const query: JsonSchema[] = [];
  if (op.query) {
    const object = jsonSchema(op.query, "input") as { properties: Record<string, JsonSchema>; required?: string[] };
    for (const [name, schema] of Object.entries(object.properties)) {
      const words = op.queryWords?.[name] ?? (schema.description as string | undefined);
      query.push({
        name,
        in: "query",
        required: object.required?.includes(name) ?? false,
        ...(words ? { description: words } : {}),
        schema,
      });
    }
  }
  const headers = (op.requestHeaders ?? []).map((name) => ({
    name,
    in: "header",
    required: false,
    description:
      name === "If-Match"
        ? "The ETag of the shoot as read: the change is refused with 409 if it changed since."
        : "The ETag of what the caller has: 304 when it is still current.",
    schema: { type: "string" },
  }));
  return [...inPath, ...query, ...headers];
}

function answers(op: Operation): Record<string, JsonSchema> {
  const result: Record<string, JsonSchema> = {};
  for (const answer of op.answers) {
    const content: Record<string, JsonSchema> = {};
    if (answer.json) content["application/json"] = { schema: jsonSchema(answer.json, "output") };
    for (const [mediaType, body] of Object.entries(answer.media ?? {})) {
      content[mediaType] = {
        schema: body.arrayOf
          ? { type: "array", items: jsonSchema(body.arrayOf, "output") }
          : body.object
            ? { type: "object", description: body.object }
            : { type: "string", ...(body.text ? { description: body.text } : {}) },
      };
    }
    result[String(answer.status)] = {
      description: answer.description,
      ...(answer.headers
        ? {
            headers: Object.fromEntries(
              Object.entries(answer.headers).map(([name, description]) => [
                name,
                { description, schema: { type: "string" } },
              ]),
            ),
          }
        : {}),
      ...(Object.keys(content).length > 0 ? { content } : {}),
    };
  }
  const problems = op.access.need === "public" ? op.problems : [401, 403, ...op.problems];
  for (const status of [...new Set(problems)].sort()) {
    result[String(status)] = {
      description: STATUS_WORDS[status] ?? "A problem.",
      content: { [PROBLEM_MEDIA_TYPE]: { schema: jsonSchema(problemSchema, "output") } },
    };
  }
  return result;
}

function operation(op: Operation): JsonSchema {
  const params = parameters(op);
  const access = documentedAccess(op.access);
  return {
    operationId: op.operationId,
    tags: [op.tag],
    summary: op.summary,
    description: [accessWords(access), op.description].filter(Boolean).join("\n\n"),
    "x-almanac-access": access,
    ...(access.role === "public" ? { security: [] } : {}),
    ...(params.length > 0 ? { parameters: params } : {}),
    ...(op.body
      ? {
          requestBody: {
            required: true,
            content: Object.fromEntries(
              op.body.mediaTypes.map((type) => [type, { schema: jsonSchema(op.body!.schema, "input") }]),
            ),
          },
        }
      : {}),
    responses: answers(op),
  };
}

export function buildOpenApiDocument(operations: readonly Operation[] = API_OPERATIONS): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const op of operations) (paths[op.path] ??= {})[op.method] = operation(op);
  return {
    openapi: "3.1.1",
    info: {
      title: "Almanac API",
      version: "1",
      summary: "The lifecycle of Gardener shoot clusters: versions, maintenance, forecasts, migrations.",
      description:
        "Every answer is JSON unless said otherwise; errors are application/problem+json (RFC 9457) with a " +
        "requestId. Times are ISO 8601 text. Call with `Authorization: Bearer <API token>` or a browser session.",
    },
    servers: [{ url: "/" }],
    tags: API_TAGS.map((t) => ({ ...t })),
    security: [{ bearerToken: [] }, { session: [] }],
    paths,
    components: {
      securitySchemes: {
        bearerToken: {
          type: "http",
          scheme: "bearer",
          description: "An API token (made at /tokens) or the admin token (ALMANAC_ADMIN_TOKEN).",
        },
        session: {
          type: "apiKey",
          in: "cookie",
          name: "almanac.session_token",
          description: "The browser session after signing in at /sign-in (`__Secure-` in front over HTTPS).",
        },
      },
      schemas: componentSchemas(),
    },
  };
}

let built: { text: string; etag: string } | undefined;

/** The document as JSON text with its ETag, made on first use. */
export function openApiDocumentText(): { text: string; etag: string } {
  if (!built) {
    const text = JSON.stringify(buildOpenApiDocument());
    built = { text, etag: `"${createHash("sha256").update(text).digest("base64url").slice(0, 27)}"` };
  }
  return built;
}
