// Errors a use case raises on purpose; lib/http/route.ts turns them into RFC 9457 problem
// responses. Anything else that escapes is a bug and becomes a 500 (or 503 when the database
// is unreachable).
import type { FieldProblem } from "../api/problem.ts";

export type { FieldProblem } from "../api/problem.ts";

export class ApiError extends Error {
  readonly status: number;
  readonly title: string;
  readonly errors: readonly FieldProblem[];
  /** Extra members of the problem object (e.g. currentResourceVersion). */
  readonly extensions: Readonly<Record<string, unknown>>;
  readonly headers: Readonly<Record<string, string>>;

  constructor(
    status: number,
    title: string,
    detail: string,
    options: {
      errors?: readonly FieldProblem[];
      extensions?: Record<string, unknown>;
      headers?: Record<string, string>;
    } = {},
  ) {
    super(detail);
    this.status = status;
    this.title = title;
    this.errors = options.errors ?? [];
    this.extensions = options.extensions ?? {};
    this.headers = options.headers ?? {};
  }
}

export const badRequest = (detail: string, errors?: readonly FieldProblem[]) =>
  new ApiError(400, "Bad Request", detail, { errors });
export const unauthorized = (detail: string) =>
  new ApiError(401, "Unauthorized", detail, { headers: { "www-authenticate": 'Bearer realm="almanac"' } });
export const forbidden = (detail: string) => new ApiError(403, "Forbidden", detail);
export const notFound = (detail: string) => new ApiError(404, "Not Found", detail);
export const conflict = (detail: string, extensions?: Record<string, unknown>, headers?: Record<string, string>) =>
  new ApiError(409, "Conflict", detail, { extensions, headers });
export const unprocessable = (detail: string, errors: readonly FieldProblem[]) =>
  new ApiError(422, "Unprocessable Content", detail, { errors });
export const payloadTooLarge = (detail: string) => new ApiError(413, "Content Too Large", detail);
export const unsupportedMediaType = (detail: string) => new ApiError(415, "Unsupported Media Type", detail);
