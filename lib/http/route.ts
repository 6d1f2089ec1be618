// The wrapper every route handler goes through: a request id, who asks and whether they may
// (401 for nobody; lib/auth/authorize.ts decides the rest: too small a role or a namespace the
// garden does not let them read), cross-site writes refused, and refusals and errors turned into
// application/problem+json (refusal-answer.ts; 503 when the database cannot be reached, or the
// garden cannot say what the caller may read). Handlers stay thin: parse, call one use case, answer.
import { randomUUID } from "node:crypto";
import type {
  Access as OperationAccess,
  BodyOf,
  Operation,
  OperationSpec,
  PathParams,
  QueryOf,
} from "../api/operation.ts";
import { bulkActionOfRequest } from "../api/bulk-actions.ts";
import type { Problem } from "../api/problem.ts";
import { forbidden, invalid, Refusal, unauthenticated, unavailable, unsupportedMediaType } from "../api/refusal.ts";
import { authorize, refusalByRole } from "../auth/authorize.ts";
import { gardenIdentityOf, type GardenIdentity } from "../auth/garden-identity.ts";
import { actorOf, identify, type Principal } from "../auth/principal.ts";
import type { Permission } from "../auth/roles.ts";
import { db } from "../db/client.ts";
import { errorCodes, isDatabaseUnavailable } from "../db/database-errors.ts";
import { redactSecrets } from "../engine/redact-secrets.ts";
import { gardenAccess } from "../garden/garden.ts";
import { logger } from "../observability/logger.ts";
import { setActor, withRequest } from "../observability/request-context.ts";
import { requestAnswered } from "../observability/request-log.ts";
import { parseQuery } from "../api/parse-query.ts";
import { zodProblems } from "../api/zod-problems.ts";
import { type ProblemAnswer, refusalAnswer } from "./refusal-answer.ts";
import { MAX_BODY_BYTES, readCappedBody } from "./request-body.ts";

export { MAX_BODY_BYTES } from "./request-body.ts";

/** Who may call a handler, as an operation says it (lib/api/operation.ts); "public" has publicRoute. */
export type Access = Omit<OperationAccess, "need"> & { readonly need: Exclude<OperationAccess["need"], "public"> };

export interface RequestContext {
  readonly request: Request;
  readonly requestId: string;
  readonly principal: Principal;
  /** Who acts, as the audit log records it: the person's email or the token's name. */
  readonly actor: string;
  /** Who the request acts as in a live garden (lib/auth/garden-identity.ts). */
  readonly identity: GardenIdentity;
  /** Refuses with 403 unless the caller may also `permission` here (a PATCH that deletes). */
  readonly require: (permission: Permission) => void;
}

type Handler<P> = (ctx: RequestContext, params: P) => Promise<Response>;

/** What an operation's handler is handed: the request's context and its input, parsed and typed. */
export interface OperationInput<O extends OperationSpec> extends RequestContext {
  readonly params: PathParams<O["path"]>;
  readonly query: QueryOf<O>;
  readonly body: BodyOf<O>;
}

/** What a public operation's handler is handed: no caller is known. */
export interface PublicInput<O extends OperationSpec> {
  readonly request: Request;
  readonly requestId: string;
  readonly params: PathParams<O["path"]>;
  readonly query: QueryOf<O>;
  readonly body: BodyOf<O>;
}

type NextHandler<P> = (request: Request, context: { params: Promise<P> }) => Promise<Response>;

/** A route handler made from an operation: it carries the operation, so tests can ask what is served. */
export type OperationHandler = NextHandler<Record<string, string>> & { readonly operation: Operation };

/** The operation `handler` was made from, if it was (route(op, ...) or publicRoute(op, ...)). */
export function operationOf(handler: unknown): Operation | undefined {
  return typeof handler === "function" ? (handler as Partial<OperationHandler>).operation : undefined;
}

const isOperation = (value: unknown): value is Operation =>
  typeof value === "object" && value !== null && "operationId" in value;

/**
 * The operation's query and body, parsed with its schemas: 400 naming each field (query.x for the
 * query), 415 for another media type, 413 for a body over 1 MiB.
 */
async function parsedInput(op: Operation, request: Request): Promise<{ query: unknown; body: unknown }> {
  const query = op.query ? parseQuery(op.query, new URL(request.url).searchParams) : undefined;
  if (!op.body) return { query, body: undefined };
  const json = await readJsonBody(request, op.body.mediaTypes);
  if (op.body.notAnObject && (typeof json !== "object" || json === null || Array.isArray(json)))
    throw invalid(op.body.notAnObject);
  const parsed = op.body.schema.safeParse(json);
  if (!parsed.success) throw invalid(op.body.invalid, zodProblems(parsed.error));
  return { query, body: parsed.data };
}

const REQUEST_ID = /^[\w.:-]{1,128}$/;
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * A state-changing request must come from Almanac's own pages or from a client that is not a
 * browser: another site's form or script is refused (the browser says where it comes from).
 */
function refuseCrossSite(request: Request): void {
  if (SAFE_METHODS.has(request.method)) return;
  const site = request.headers.get("sec-fetch-site");
  if (site !== null && site !== "same-origin" && site !== "none") {
    throw forbidden(`A ${request.method} from another site (Sec-Fetch-Site: ${site}) is refused.`);
  }
  const origin = request.headers.get("origin");
  if (origin === null) return;
  const host = request.headers.get("x-forwarded-host") ?? request.headers.get("host") ?? new URL(request.url).host;
  let originHost: string | undefined;
  try {
    originHost = new URL(origin).host;
  } catch {
    originHost = undefined;
  }
  if (originHost !== host)
    throw forbidden(`A ${request.method} from origin ${origin.slice(0, 200)} is refused; it must come from ${host}.`);
}

/** An unexpected error for the log: its stack (or text), and its causes' (a few, as they may loop). */
const describe = (error: unknown, depth = 0): string =>
  error instanceof Error && depth < 4
    ? `${error.stack ?? error.message}${error.cause ? `\ncaused by: ${describe(error.cause, depth + 1)}` : ""}`
    : String(error);

function problemResponse(error: ProblemAnswer, ctx: { requestId: string; request: Request }): Response {
  const body: Problem = {
    type: "about:blank",
    title: error.title,
    status: error.status,
    detail: error.detail,
    instance: new URL(ctx.request.url).pathname,
    requestId: ctx.requestId,
    ...(error.errors.length > 0 ? { errors: error.errors } : {}),
    ...error.extensions,
  };
  return new Response(JSON.stringify(body), {
    status: error.status,
    headers: { "content-type": "application/problem+json", "x-request-id": ctx.requestId, ...error.headers },
  });
}

/**
 * A value the database refused as data (SQLSTATE class 22: out of range, bad date, NUL byte...):
 * the request was wrong, not the server. Validation should catch these first; this is the net.
 */
function isBadValue(error: unknown): boolean {
  return errorCodes(error).some((c) => /^(22[0-9A-Z]{3}|P2007|P2020|P2023|P2033)$/.test(c));
}

/** Path segments are names of objects: a NUL character or a name longer than 253 can't be one. */
function checkPathParams(params: unknown): void {
  for (const [key, value] of Object.entries((params ?? {}) as Record<string, string | string[]>)) {
    for (const text of Array.isArray(value) ? value : [value]) {
      if (typeof text === "string" && (text.includes("\0") || text.length > 253)) {
        throw invalid(`The path segment "${key}" is not a valid name.`, [
          { field: `path.${key}`, type: "Invalid", detail: "at most 253 characters, no NUL characters" },
        ]);
      }
    }
  }
}

/**
 * The request id, the path checks and the mapping of errors to problems, around `run`; every line
 * logged meanwhile carries the request's id and actor, and its end is logged and measured.
 */
function handled<P>(run: (request: Request, requestId: string, params: P) => Promise<Response>) {
  const answer = problems(run);
  return async (request: Request, context: { params: Promise<P> }): Promise<Response> => {
    const given = request.headers.get("x-request-id");
    // A bulk action's own request ids tie audit events to it: a client may not claim one.
    const requestId = given && REQUEST_ID.test(given) && !bulkActionOfRequest(given) ? given : randomUUID();
    return withRequest(requestId, async () => {
      const startedAt = performance.now();
      const response = await answer(request, requestId, context);
      requestAnswered(request.method, response.status, startedAt);
      return response;
    });
  };
}

/** The path checks and the mapping of errors to problems, around `run`. */
function problems<P>(run: (request: Request, requestId: string, params: P) => Promise<Response>) {
  return async (request: Request, requestId: string, context: { params: Promise<P> }): Promise<Response> => {
    const ctx = { request, requestId };
    try {
      const params = await context.params;
      checkPathParams(params);
      refuseCrossSite(request);
      const response = await run(request, requestId, params);
      response.headers.set("x-request-id", requestId);
      // Answers carry people, tokens, the audit log and the fleet: no cache keeps them unless a
      // handler says otherwise (the OpenAPI document; the event stream's no-cache).
      if (!response.headers.has("cache-control")) response.headers.set("cache-control", "no-store");
      return response;
    } catch (error) {
      // A refusal (among them the garden not saying what the caller may read: a read fails closed,
      // never shows all) is answered as its code says.
      if (error instanceof Refusal) {
        const answer = refusalAnswer(error);
        // A client that went away: nothing to answer, and nothing wrong here (not logged as a refusal).
        // Otherwise why a request was refused, for whoever debugs a client (the client has it too).
        if (error.code !== "client-gone") logger().debug({ status: answer.status, detail: answer.detail }, "problem");
        return problemResponse(answer, ctx);
      }
      if (isBadValue(error)) {
        logger().warn(
          { url: request.url, reason: (error as Error).message },
          `${request.method}: a value reached the database unchecked`,
        );
        return problemResponse(refusalAnswer(invalid("A value in the request is malformed or out of range.")), ctx);
      }
      if (isDatabaseUnavailable(error)) {
        return problemResponse(refusalAnswer(unavailable("The database is not reachable; try again shortly.", 5)), ctx);
      }
      // The URL's query and the error's text may carry a token or a database password.
      logger().error(`${request.method} ${redactSecrets(request.url)}: ${redactSecrets(describe(error))}`);
      return problemResponse(
        {
          status: 500,
          title: "Internal Server Error",
          detail: `Unexpected error; the server log has the details under request id ${requestId}.`,
          errors: [],
          extensions: {},
          headers: {},
        },
        ctx,
      );
    }
  };
}

/**
 * The route handler of an operation: the caller must have what `op.access` asks (401 for nobody,
 * 403 for too small a role), then its path parameters, query and body are handed to `handler`
 * parsed and typed.
 */
export function route<const O extends Operation>(
  op: O & { readonly access: { readonly need: Exclude<O["access"]["need"], "public"> } },
  handler: (input: OperationInput<O>) => Promise<Response>,
): OperationHandler;
/** A route handler for callers who may `access.need`: 401 for nobody, 403 for too small a role. */
export function route<P = Record<string, never>>(access: Access, handler: Handler<P>): NextHandler<P>;
export function route(
  accessOrOp: Access | Operation,
  handler: Handler<Record<string, string>> | ((input: OperationInput<Operation>) => Promise<Response>),
) {
  if (!isOperation(accessOrOp)) return guarded(accessOrOp, handler as Handler<Record<string, string>>);
  const op = accessOrOp;
  const run = handler as (input: OperationInput<Operation>) => Promise<Response>;
  const served = guarded<Record<string, string>>(op.access as Access, async (ctx, params) =>
    run({ ...ctx, params, ...(await parsedInput(op, ctx.request)) } as OperationInput<Operation>),
  );
  return Object.assign(served, { operation: op });
}

function guarded<P>(access: Access, handler: Handler<P>) {
  return handled<P>(async (request, requestId, params) => {
    const principal = await identify(db, request.headers);
    if (!principal) throw unauthenticated("Sign in, or send an API token as Authorization: Bearer <token>.");
    setActor(actorOf(principal));
    const namespace = (params as { namespace?: unknown } | undefined)?.namespace;
    const authorization = await authorize(
      principal,
      {
        need: access.need,
        namespace: access.project === "namespace" && typeof namespace === "string" ? namespace : undefined,
        anyProject: access.project === "any",
      },
      gardenAccess(),
    );
    if (!authorization.ok) throw authorization.refusal;
    const { project } = authorization;
    const require = (permission: Permission) => {
      const refusal = refusalByRole(principal, permission, project);
      if (refusal) throw refusal;
    };
    const identity = gardenIdentityOf(principal);
    return handler({ request, requestId, principal, actor: actorOf(principal), identity, require }, params);
  });
}

/**
 * A route handler anyone may call: the first-admin setup, whose one-time token is its credential,
 * and /metrics, which checks its own callers (an admin or an allowed address). Everything else the
 * wrapper does (request id, problems, no cross-site writes, the request log) holds.
 */
export function publicRoute<const O extends Operation>(
  op: O,
  handler: (input: PublicInput<O>) => Promise<Response>,
): OperationHandler;
export function publicRoute<P = Record<string, never>>(
  handler: (ctx: { request: Request; requestId: string }, params: P) => Promise<Response>,
): NextHandler<P>;
export function publicRoute(
  opOrHandler: Operation | ((ctx: { request: Request; requestId: string }, params: unknown) => Promise<Response>),
  handler?: (input: PublicInput<Operation>) => Promise<Response>,
) {
  if (!isOperation(opOrHandler)) {
    return handled<unknown>((request, requestId, params) => opOrHandler({ request, requestId }, params));
  }
  const op = opOrHandler;
  const served = handled<Record<string, string>>(async (request, requestId, params) =>
    handler!({ request, requestId, params, ...(await parsedInput(op, request)) } as PublicInput<Operation>),
  );
  return Object.assign(served, { operation: op });
}

export function json(body: unknown, init: { status?: number; headers?: Record<string, string> } = {}): Response {
  return jsonText(JSON.stringify(body), init);
}

/**
 * An answer of JSON text, or of its UTF-8 bytes, sent as bytes: handed a string, Response would
 * copy it to make it well-formed and then encode it, two passes over the whole text in JavaScript
 * where Buffer.from is one native one, with the same bytes (a fleet page is ~100 KB). Handed the
 * bytes, it would copy them once more; a stream of the one chunk is what it makes of them anyway
 * (Next sends either in chunked encoding).
 */
export function jsonText(
  text: string | Buffer<ArrayBuffer>,
  init: { status?: number; headers?: Record<string, string> } = {},
): Response {
  return new Response(oneChunk(typeof text === "string" ? Buffer.from(text) : text), {
    status: init.status ?? 200,
    headers: { "content-type": "application/json", ...init.headers },
  });
}

/** A stream of `bytes` as they are, not copied. */
function oneChunk(bytes: Buffer<ArrayBuffer>): ReadableStream<Uint8Array<ArrayBuffer>> {
  return new ReadableStream({
    start(controller) {
      controller.enqueue(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
      controller.close();
    },
  });
}

/**
 * Reads a JSON body of at most 1 MiB. `types` are the accepted media types (JSON merge patch
 * for PATCH). Refuses a missing or other Content-Type with 415, a bigger body with 413, and
 * anything that is not JSON with 400.
 */
export async function readJsonBody(
  request: Request,
  types: readonly string[] = ["application/json"],
): Promise<unknown> {
  const contentType = (request.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
  if (!types.includes(contentType)) {
    throw unsupportedMediaType(
      `Content-Type must be ${types.join(" or ")}${contentType ? `, not ${contentType}` : ""}.`,
    );
  }
  const text = (await readCappedBody(request, MAX_BODY_BYTES)).toString("utf8");
  if (text.trim() === "") throw invalid("The request body is empty; send a JSON object.");
  try {
    return JSON.parse(text);
  } catch (error) {
    throw invalid(`The request body is not valid JSON: ${(error as Error).message}`);
  }
}
