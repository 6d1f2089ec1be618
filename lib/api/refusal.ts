// Why a request is refused, in the words of what was asked rather than of HTTP: use cases
// (lib/server), the write port's wording (lib/server/shoot-refusal.ts), authorization
// (lib/auth/authorize.ts) and the query parsing (parse-query.ts) throw or return a Refusal; only
// the HTTP edge (lib/http/refusal-answer.ts) turns its code into a status, a title and headers of
// an application/problem+json answer. Anything else a use case throws is a bug (a 500).
// It lives in lib/api because it is the contract's vocabulary beside the problem document and its
// field problems (problem.ts), and every layer that refuses (auth, garden, server) may import
// lib/api while lib/http sits above them all; a layer of its own would be one file.
import type { FieldProblem } from "./problem.ts";

export type RefusalCode =
  /** The request itself is malformed: an unknown or bad parameter, a body that is not JSON. */
  | "invalid"
  /** Nobody is signed in, or the credentials are no longer good. */
  | "unauthenticated"
  /** The caller is known, but their roles (or the garden's RBAC) do not reach. */
  | "forbidden"
  | "not-found"
  /** The state changed since the caller read it, or forbids this now. */
  | "conflict"
  | "too-large"
  | "unsupported-media-type"
  /** Well-formed, but what it asks breaks a rule (field problems say which). */
  | "unprocessable"
  /** The client went away while sending; nobody reads the answer. */
  | "client-gone"
  /** The garden refused Almanac's own credentials: nothing the caller can fix. */
  | "upstream-failed"
  /** Something needed (the database, the garden) does not answer now; asking again may help. */
  | "unavailable"
  /** The garden refused with an answer of its own that no other code says (its status passes on). */
  | "garden-refused";

export interface RefusalOptions {
  readonly errors?: readonly FieldProblem[];
  /** Extra members of the problem object (e.g. currentResourceVersion, rbac). */
  readonly extensions?: Readonly<Record<string, unknown>>;
  /** "unavailable": after how many seconds asking again may help. */
  readonly retryAfterSeconds?: number;
  /** "conflict" of a shoot's change: the version it has now (its ETag). */
  readonly currentVersion?: string;
  /** "garden-refused": the status of the garden's answer. */
  readonly gardenStatus?: number;
  /** What went wrong underneath, for the log. */
  readonly cause?: unknown;
}

export class Refusal extends Error {
  readonly code: RefusalCode;
  readonly errors: readonly FieldProblem[];
  readonly extensions: Readonly<Record<string, unknown>>;
  readonly retryAfterSeconds?: number;
  readonly currentVersion?: string;
  readonly gardenStatus?: number;

  /** `detail` is the sentence for people, the problem's detail. */
  constructor(code: RefusalCode, detail: string, options: RefusalOptions = {}) {
    super(detail, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "Refusal";
    this.code = code;
    this.errors = options.errors ?? [];
    this.extensions = options.extensions ?? {};
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.currentVersion = options.currentVersion;
    this.gardenStatus = options.gardenStatus;
  }
}

export const invalid = (detail: string, errors?: readonly FieldProblem[]) => new Refusal("invalid", detail, { errors });
export const unauthenticated = (detail: string) => new Refusal("unauthenticated", detail);
export const forbidden = (detail: string, options?: Pick<RefusalOptions, "extensions">) =>
  new Refusal("forbidden", detail, options);
export const notFound = (detail: string) => new Refusal("not-found", detail);
export const conflict = (detail: string, options?: Pick<RefusalOptions, "errors" | "extensions" | "currentVersion">) =>
  new Refusal("conflict", detail, options);
export const unprocessable = (detail: string, errors: readonly FieldProblem[]) =>
  new Refusal("unprocessable", detail, { errors });
export const tooLarge = (detail: string) => new Refusal("too-large", detail);
export const unsupportedMediaType = (detail: string) => new Refusal("unsupported-media-type", detail);
/** Asking again after `retryAfterSeconds` may help (the database or the garden is back). */
export const unavailable = (detail: string, retryAfterSeconds = 5) =>
  new Refusal("unavailable", detail, { retryAfterSeconds });
