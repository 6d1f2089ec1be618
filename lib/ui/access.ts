// What the accounts and tokens pages compute: how roles and scopes read, which refusals mean "you
// are not an admin", field problems by field, and a token's state.
import type { ApiRole, ApiTokenJson } from "./api-types.ts";
import { RequestError } from "./api.ts";

export const ROLE_CHOICES: readonly { value: ApiRole; label: string; help: string }[] = [
  { value: "viewer", label: "Viewer", help: "Reads shoots, forecasts, cloud profiles and the audit log." },
  {
    value: "operator",
    label: "Operator",
    help: "Also edits maintenance windows and auto-updates, updates versions, maintains now, hibernates.",
  },
  {
    value: "admin",
    label: "Admin",
    help: "Also migrates and deletes clusters; on the whole landscape, also manages accounts and tokens.",
  },
];

export const LANDSCAPE = "*";

/** "Whole landscape" for "*", else "Project <name>". */
export const scopeLabel = (scope: string) => (scope === LANDSCAPE ? "Whole landscape" : `Project ${scope}`);

/** The API refused because the caller's role does not reach (403). */
export const isForbidden = (error: unknown) => error instanceof RequestError && error.status === 403;

/** TanStack Query's retry: a refusal (401, 403, 404) will not change by asking again. */
export const retryUnlessRefused = (failures: number, error: unknown) =>
  !(error instanceof RequestError && [401, 403, 404].includes(error.status)) && failures < 2;

/** Field problems by field (the first per field), and the message for the form as a whole. */
export function formProblems(error: unknown): { fields: Record<string, string>; message: string | undefined } {
  if (!(error instanceof RequestError)) {
    return {
      fields: {},
      message: error ? "Almanac could not be reached. Check the connection and try again." : undefined,
    };
  }
  const fields: Record<string, string> = {};
  for (const problem of error.errors) fields[problem.field] ??= problem.detail;
  return { fields, message: error.errors.length > 0 ? "Some fields need another look." : error.message };
}

export type TokenState = "active" | "expired" | "revoked";

export function tokenState(token: ApiTokenJson, now: number): TokenState {
  if (token.revoked !== null) return "revoked";
  if (token.expires !== null && Date.parse(token.expires) <= now) return "expired";
  return "active";
}

/** The expiry choices of a new token, in days (null: never). */
export const EXPIRY_CHOICES: readonly { days: number | null; label: string }[] = [
  { days: 7, label: "7 days" },
  { days: 30, label: "30 days" },
  { days: 90, label: "90 days" },
  { days: 365, label: "1 year" },
  { days: null, label: "Never" },
];
