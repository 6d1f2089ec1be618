// How audit events read: a few words per action, and field values short enough for a table cell
// (the full value is one hover away).
import type { Tone } from "./status.ts";

export interface ActionMeta {
  readonly word: string;
  readonly tone: Tone;
}

const ACTIONS: Record<string, ActionMeta> = {
  "shoot.update": { word: "Spec changed", tone: "blue" },
  "shoot.maintain": { word: "Maintained in window", tone: "grey" },
  "shoot.maintain-now.request": { word: "Maintenance requested", tone: "blue" },
  "shoot.maintain-now": { word: "Maintained now", tone: "grey" },
  "shoot.migrate": { word: "Migration started", tone: "blue" },
  "shoot.migrate.succeeded": { word: "Migration succeeded", tone: "green" },
  "shoot.migrate.failed": { word: "Migration failed", tone: "red" },
  "shoot.delete": { word: "Deletion requested", tone: "amber" },
  "shoot.deleted": { word: "Deleted", tone: "amber" },
  "landscape.seed": { word: "Landscape created", tone: "grey" },
  "auth.sign-in": { word: "Signed in", tone: "grey" },
  "auth.sign-in-failed": { word: "Sign-in failed", tone: "red" },
  "account.create": { word: "Account created", tone: "blue" },
  "account.delete": { word: "Account deleted", tone: "amber" },
  "role.change": { word: "Roles changed", tone: "blue" },
  "token.create": { word: "API token created", tone: "blue" },
  "token.revoke": { word: "API token revoked", tone: "amber" },
  "update-run.create": { word: "Update run started", tone: "blue" },
  "update-run.approve": { word: "Update run stage approved", tone: "blue" },
  "update-run.pause": { word: "Update run paused", tone: "amber" },
  "update-run.resume": { word: "Update run resumed", tone: "blue" },
  "update-run.cancel": { word: "Update run cancelled", tone: "amber" },
  "update-run.stage-start": { word: "Update run stage started", tone: "blue" },
  "update-run.stage-finish": { word: "Update run stage finished", tone: "grey" },
  "update-run.gate-pause": { word: "Update run held by its health gate", tone: "amber" },
  "update-run.finish": { word: "Update run ended", tone: "grey" },
};

/** A live garden's write whose answer nobody saw (lib/garden/kubernetes/write-intents.ts). */
const OUTCOME_UNKNOWN = ".outcome-unknown";

export function actionMeta(action: string): ActionMeta {
  if (action.endsWith(OUTCOME_UNKNOWN)) {
    const asked = ACTIONS[action.slice(0, -OUTCOME_UNKNOWN.length)]?.word ?? action.slice(0, -OUTCOME_UNKNOWN.length);
    return { word: `${asked} (outcome unknown)`, tone: "amber" };
  }
  return ACTIONS[action] ?? { word: action, tone: "grey" };
}

/** "none" for an absent value, the text of strings, numbers and booleans, else compact JSON. */
export function formatAuditValue(value: unknown, max = 80): string {
  if (value === null || value === undefined) return "none";
  const text =
    typeof value === "string"
      ? value
      : typeof value === "number" || typeof value === "boolean"
        ? String(value)
        : JSON.stringify(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** The full value, for a tooltip. */
export function fullAuditValue(value: unknown): string {
  if (value === null || value === undefined) return "none";
  return typeof value === "string" ? value : JSON.stringify(value, null, 2);
}
