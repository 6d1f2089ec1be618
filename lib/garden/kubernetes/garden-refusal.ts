// What the garden's answer to a refused request means for the write port: client-node 2.x throws
// ApiException with the HTTP status (`code`) and the body as the garden sent it (a Status object
// as JSON text; a 401 may have none), or a network error when nothing answered.
import { ApiException } from "@kubernetes/client-node";
import type { ShootRefusal } from "../shoot-writes.ts";

/** What Almanac asked of the garden, to word its refusal. */
export interface GardenRequest {
  /** Kubernetes' verb: "patch", "delete". */
  readonly verb: string;
  /** The resource as RBAC names it: "shoots", "shoots/binding". */
  readonly resource: string;
  /** The caller's resourceVersion (a 409's "yours"). */
  readonly yours: string;
  /** Almanac's resourceVersion of the row the change was decided on (a 409's "current"). */
  readonly current: number;
  /** Whether the request carried the person's own credentials (their token), not Almanac's. */
  readonly ownCredentials: boolean;
  /** The seed a shoots/binding request names, to word the garden's refusal of it. */
  readonly destination?: string;
}

export interface Status {
  readonly message?: string;
  readonly reason?: string;
  /** details.causes */
  readonly causes?: readonly Cause[];
}

export interface Cause {
  readonly field?: string;
  readonly reason?: string;
  readonly message: string;
}

const text = (value: unknown) => (typeof value === "string" ? value : undefined);

export function statusOf(body: unknown): Status {
  if (typeof body === "string") {
    try {
      return statusOf(JSON.parse(body));
    } catch {
      return body.trim() ? { message: body.trim() } : {};
    }
  }
  if (body && typeof body === "object") {
    const { message, reason, details } = body as {
      message?: unknown;
      reason?: unknown;
      details?: { causes?: unknown };
    };
    const causes: Cause[] = Array.isArray(details?.causes)
      ? details.causes.flatMap((c: Record<string, unknown>) => {
          const message = text(c?.message);
          if (message === undefined) return [];
          const [field, reason] = [text(c.field), text(c.reason)];
          return [{ message, ...(field ? { field } : {}), ...(reason ? { reason } : {}) }];
        })
      : [];
    return {
      ...(typeof message === "string" ? { message } : {}),
      ...(typeof reason === "string" ? { reason } : {}),
      ...(causes.length > 0 ? { causes } : {}),
    };
  }
  return {};
}

// The deletion confirmation plugin's refusal under a project's dualApprovalForDeletion.
const SAME_SUBJECT = /another subject must perform the deletion/;
const RBAC_DENIAL = / is forbidden: User "[^"]*" cannot /;
// evanphx/json-patch's words for a `test` that failed: the value differs, or the path's parent is
// gone (a worker pool removed, or moved past the list's end), or its index is no longer valid.
const FAILED_TEST = /^testing value .* failed|^test operation does not apply: is missing path|^error in test for path/;
// gardener-apiserver's shoot validator refuses a binding to the seed the shoot is on already with
// a plain error (admission.go), which the API server answers as 500 InternalError: a refusal of
// the request, not a garden in trouble (the mirror had not yet seen the shoot arrive there).
const SAME_SEED = /shoot is already assigned to the same seed/;
const NETWORK_CODE = /^(E[A-Z]+|UND_ERR_[A-Z_]+|ABORT_ERR)$/;

/** A failure to reach the garden at all (refused, reset, timed out, TLS), not a bug of ours. */
export function unreachable(error: unknown, depth = 0): string | undefined {
  if (!error || typeof error !== "object" || depth > 4) return undefined;
  const e = error as { name?: unknown; code?: unknown; message?: unknown; cause?: unknown };
  if (e.name === "AbortError" || e.name === "TimeoutError") return "the request timed out";
  if (typeof e.code === "string" && NETWORK_CODE.test(e.code)) return `${e.code}${e.message ? `: ${e.message}` : ""}`;
  return unreachable(e.cause, depth + 1) ?? (e.message === "fetch failed" ? "fetch failed" : undefined);
}

/**
 * Whether the request surely never reached the garden: its connection was never made (refused,
 * the name not found). Anything else without an answer (a timeout, a reset) may have been applied.
 */
export function neverSent(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== "object" || depth > 4) return false;
  const e = error as { code?: unknown; cause?: unknown };
  if (typeof e.code === "string" && NEVER_CONNECTED.has(e.code)) return true;
  return neverSent(e.cause, depth + 1);
}

const NEVER_CONNECTED = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "UND_ERR_CONNECT_TIMEOUT"]);

/** The refusal a garden's error answer means; undefined when it is not the garden's answer (a bug: rethrow it). */
export function gardenRefusal(error: unknown, request: GardenRequest): ShootRefusal | undefined {
  if (!(error instanceof ApiException)) {
    const why = unreachable(error);
    return why === undefined ? undefined : { code: "GardenUnavailable", message: `(${why})` };
  }
  const status = statusOf(error.body);
  const message = status.message ?? `HTTP ${error.code}`;
  const code = error.code as number;
  if (code === 409) return { code: "Stale", yours: request.yours, current: request.current };
  if (code === 404) return { code: "NotFound" };
  // A JSON patch's `test` of a worker pool's place failed: the garden's shoot has moved on (the
  // API server puts json-patch's error in the Status' causes, patch.go applyJSPatch).
  if (
    code === 422 &&
    [status.message ?? "", ...(status.causes ?? []).map((c) => c.message)].some((m) => FAILED_TEST.test(m))
  )
    return { code: "Stale", yours: request.yours, current: request.current };
  // RBAC's refusal names the user. Gardener's admission plugins and admission webhooks answer
  // 403 too (e.g. a deletion without its confirmation, a webhook's denial): that is the garden
  // refusing the change, not the person's rights.
  if (code === 403 && SAME_SUBJECT.test(message)) return { code: "DeletionNeedsAnotherSubject", message };
  if (code === 403 && RBAC_DENIAL.test(message))
    return { code: "GardenForbidden", verb: request.verb, resource: request.resource, message };
  if (code === 401)
    return request.ownCredentials
      ? { code: "SignInAgain", message: `The garden did not accept your company sign-in (${message}).` }
      : { code: "GardenCredentialsRefused", message };
  if (code >= 400 && code < 500) {
    // Kubernetes' field causes (reason "FieldValueInvalid" for field.Error's "Invalid"), so that a
    // form shows each beside its field.
    const problems = (status.causes ?? []).flatMap((c) =>
      c.field ? [{ field: c.field, type: c.reason?.replace(/^FieldValue/, "") || "Invalid", detail: c.message }] : [],
    );
    return { code: "GardenRefused", status: code, reason: status.reason ?? "", message, problems };
  }
  if (code === 500 && SAME_SEED.test(message))
    return {
      code: "MigrationRefused",
      destination: request.destination ?? "",
      refusals: [{ field: "spec.seedName", type: "Invalid", detail: message }],
    };
  return { code: "GardenUnavailable", message: `(HTTP ${code}: ${message})` };
}
