// The one place a refusal's code becomes HTTP: its status, title and headers. Use cases and
// authorization say what went wrong (lib/api/refusal.ts); how that reads on the wire is the edge's.
import { STATUS_CODES } from "node:http";
import type { FieldProblem } from "../api/problem.ts";
import type { Refusal, RefusalCode } from "../api/refusal.ts";

/** What a problem answer says, before the request's path and id are added. */
export interface ProblemAnswer {
  readonly status: number;
  readonly title: string;
  readonly detail: string;
  readonly errors: readonly FieldProblem[];
  readonly extensions: Readonly<Record<string, unknown>>;
  readonly headers: Readonly<Record<string, string>>;
}

/** The status a client's abort is counted under (nginx's "client closed request"); nobody reads the answer. */
export const CLIENT_CLOSED_REQUEST = 499;

/** Each code's status and title ("garden-refused" passes on the garden's status). docs/authorization.md prints it. */
export const REFUSAL_STATUS: Readonly<
  Record<Exclude<RefusalCode, "garden-refused">, { status: number; title: string }>
> = {
  invalid: { status: 400, title: "Bad Request" },
  unauthenticated: { status: 401, title: "Unauthorized" },
  forbidden: { status: 403, title: "Forbidden" },
  "not-found": { status: 404, title: "Not Found" },
  conflict: { status: 409, title: "Conflict" },
  "too-large": { status: 413, title: "Content Too Large" },
  "unsupported-media-type": { status: 415, title: "Unsupported Media Type" },
  unprocessable: { status: 422, title: "Unprocessable Content" },
  "client-gone": { status: CLIENT_CLOSED_REQUEST, title: "Client Closed Request" },
  "upstream-failed": { status: 502, title: "Bad Gateway" },
  unavailable: { status: 503, title: "Service Unavailable" },
};

/** The status a refusal is answered with. */
export function statusOf(refusal: Refusal): number {
  if (refusal.code === "garden-refused") return refusal.gardenStatus ?? 400;
  return REFUSAL_STATUS[refusal.code].status;
}

export function refusalAnswer(refusal: Refusal): ProblemAnswer {
  const status = statusOf(refusal);
  const title =
    refusal.code === "garden-refused"
      ? (STATUS_CODES[status] ?? "Refused by the garden")
      : REFUSAL_STATUS[refusal.code].title;
  const headers: Record<string, string> = {};
  if (refusal.code === "unauthenticated") headers["www-authenticate"] = 'Bearer realm="almanac"';
  if (refusal.retryAfterSeconds !== undefined) headers["retry-after"] = String(refusal.retryAfterSeconds);
  if (refusal.currentVersion !== undefined) headers.etag = `"${refusal.currentVersion}"`;
  return { status, title, detail: refusal.message, errors: refusal.errors, extensions: refusal.extensions, headers };
}
