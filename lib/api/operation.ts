// One endpoint of /api/v1, said once: its method and path, who may call it, the zod schemas of
// its query and body, its answers and the words the OpenAPI document shows. The route handler
// (lib/http/route.ts), the OpenAPI document (lib/server/openapi-document.ts) and the browser's
// call() (lib/ui/call.ts) are all made from it; docs/api-contract.md says how to add one.
import type { z } from "zod";
import type { Permission } from "./roles.ts";

export const API_TAGS = [
  { name: "Shoots", description: "The fleet's clusters: lists, one shoot, its changes and its maintenance." },
  { name: "Forecast", description: "What maintenance will force in the coming days." },
  {
    name: "Freezes",
    description:
      "Periods in which Almanac starts no bulk action and no update run stage (Gardener still forces expired versions).",
  },
  { name: "Migrations", description: "Moving a shoot's control plane to another seed." },
  { name: "Calendars", description: "Maintenance windows and forced updates as iCalendar feeds." },
  { name: "Bulk actions", description: "One change asked of many shoots: previewed, then run as jobs." },
  {
    name: "Update runs",
    description:
      "Many shoots moved to a target in ordered stages, with soak times, health gates and approvals: previewed, then run as jobs.",
  },
  {
    name: "Notifications",
    description:
      "Webhooks and e-mail subscriptions to forced updates ahead, expiring versions, failures and update runs: each event delivered once, retried, every attempt kept.",
  },
  { name: "Audit", description: "Who changed what, newest first." },
  { name: "Landscape", description: "Cloud profiles, seeds and projects, as the garden has them." },
  { name: "Events", description: "Server-sent events naming what changed." },
  { name: "Access", description: "Who calls, the accounts that may sign in and the API tokens." },
  { name: "Jobs", description: "Background jobs that failed for good." },
  { name: "Setup", description: "The first admin, from the setup link." },
  { name: "Document", description: "This description of the API." },
] as const;
export type ApiTag = (typeof API_TAGS)[number]["name"];

/**
 * Who may call: `need` is the permission, checked on the project of the path's namespace when
 * `project` is "namespace" (a shoot's routes), on any project when it is "any" (the landscape's
 * configuration, which every project's pages read, and the fleet-wide lists, whose use cases then
 * answer only what the caller may read, lib/server/fleet-scope.ts), else on the whole landscape.
 * "signed-in": anyone signed in, whatever their roles; "public": nobody needs to be known (the
 * first-admin setup, whose one-time token is its credential).
 */
export interface Access {
  readonly need: Permission | "signed-in" | "public";
  readonly project?: "namespace" | "any";
}

export interface Answer {
  readonly status: number;
  readonly description: string;
  /** A JSON body of this schema. */
  readonly json?: z.ZodType;
  /** Other media types, each with an optional JSON schema of its body (JSON) or a description of its text. */
  readonly media?: Readonly<
    Record<string, { readonly arrayOf?: z.ZodType; readonly text?: string; readonly object?: string }>
  >;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface Body<S extends z.ZodType = z.ZodType> {
  readonly schema: S;
  readonly mediaTypes: readonly string[];
  /** The problem's detail when the body does not fit the schema (each field is named in `errors`). */
  readonly invalid: string;
  /** The detail when the body is JSON but not an object, if it differs from `invalid` (and names no field). */
  readonly notAnObject?: string;
}

export interface OperationSpec {
  readonly method: "get" | "post" | "put" | "patch" | "delete";
  /** The path as OpenAPI writes it, with `{param}` for each dynamic segment. */
  readonly path: string;
  readonly operationId: string;
  readonly tag: ApiTag;
  readonly summary: string;
  readonly description?: string;
  readonly access: Access;
  readonly query?: z.ZodObject;
  /** Words for query parameters whose schema cannot say it (a list of values, a format). */
  readonly queryWords?: Readonly<Record<string, string>>;
  readonly body?: Body;
  readonly requestHeaders?: readonly ("If-Match" | "If-None-Match")[];
  readonly answers: readonly Answer[];
  /** The problem answers (application/problem+json) it may give besides 401 and 403. */
  readonly problems: readonly number[];
}

/** The names of a path's `{param}` segments, as an object type of strings. */
export type PathParams<P extends string> = P extends `${string}{${infer Name}}${infer Rest}`
  ? { readonly [K in Name]: string } & PathParams<Rest>
  : unknown;

/** What the query schema makes of a query string (defaults and transforms applied). */
export type QueryOf<O extends OperationSpec> = O["query"] extends z.ZodObject ? z.output<O["query"]> : undefined;
/** What a client may send as the query (before defaults and transforms). */
export type QueryInput<O extends OperationSpec> = O["query"] extends z.ZodObject ? z.input<O["query"]> : undefined;
export type BodyOf<O extends OperationSpec> = O["body"] extends Body<infer S> ? z.output<S> : undefined;
export type BodyInput<O extends OperationSpec> = O["body"] extends Body<infer S> ? z.input<S> : undefined;

/** The JSON of the operation's successful answer (200, 201 or 202), as its schema says. */
export type AnswerOf<O extends OperationSpec> =
  Extract<O["answers"][number], { status: 200 | 201 | 202; json: z.ZodType }> extends { json: infer S }
    ? S extends z.ZodType
      ? z.output<S>
      : never
    : never;

export type Operation<O extends OperationSpec = OperationSpec> = O & { readonly pathParams: readonly string[] };

/** An operation of /api/v1, with the names of its path's parameters. */
export function operation<const O extends OperationSpec>(spec: O): Operation<O> {
  const pathParams = [...spec.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => name);
  return Object.freeze({ ...spec, pathParams });
}

/** The path of `op` with each `{param}` replaced by its value, escaped. */
export function pathOf(op: OperationSpec, params: Readonly<Record<string, string>> = {}): string {
  return op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${op.operationId} needs the path parameter ${name}.`);
    return encodeURIComponent(value);
  });
}
