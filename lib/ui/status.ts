// How each status reads: one word, one icon name and one colour per state. Colour is never the
// only signal (every badge shows the word and the icon too).
import { SHOOT_STATUS_LABELS, type ShootStatusLabel } from "../engine/status-label.ts";
import type { Classification, Condition, LastOperation } from "../gardener/types.ts";

export { CLASSIFICATIONS, type Classification } from "../gardener/types.ts";
export type StatusLabel = ShootStatusLabel;
export type Tone = "green" | "blue" | "amber" | "red" | "grey" | "violet";

// A Record, so that a new label cannot be missing from the page.
const DISPLAY_POSITION: Record<StatusLabel, number> = { unhealthy: 0, progressing: 1, unknown: 2, healthy: 3 };

/** The order the fleet page lists the labels in (tiles, status filter): unhealthy first, healthy last. */
export const STATUS_DISPLAY_ORDER: readonly StatusLabel[] = [...SHOOT_STATUS_LABELS].sort(
  (a, b) => DISPLAY_POSITION[a] - DISPLAY_POSITION[b],
);

export const STATUS_META: Record<StatusLabel, { word: string; tone: Tone; hint: string }> = {
  healthy: { word: "Healthy", tone: "green", hint: "Every condition is True and the last operation succeeded." },
  progressing: { word: "Progressing", tone: "blue", hint: "An operation is running or a condition is still settling." },
  unknown: { word: "Unknown", tone: "grey", hint: "A condition is Unknown: its health check has no answer yet." },
  unhealthy: { word: "Unhealthy", tone: "red", hint: "A condition is False, or the last operation failed." },
};

/**
 * The Health panel's summary sentence: it follows what the panel shows (the label's hint only
 * where it is true), so that "every condition is True" never stands beside no conditions at all
 * or an operation still running.
 */
export function healthSummary(
  label: StatusLabel,
  status: {
    conditions?: readonly Pick<Condition, "status">[];
    lastOperation?: Pick<LastOperation, "type" | "state" | "progress">;
  },
): string {
  const conditions = status.conditions ?? [];
  const op = status.lastOperation;
  const running = op !== undefined && (op.state === "Processing" || op.state === "Pending");
  const opWords = op
    ? running
      ? `The ${op.type} operation is in progress (${op.progress ?? 0}%).`
      : op.state === "Succeeded"
        ? "The last operation succeeded."
        : `The last ${op.type} operation is ${op.state}.`
    : "No operation has run yet.";
  if (conditions.length === 0) return `The gardenlet has not reported any condition yet. ${opWords}`;
  const notTrue = conditions.filter((c) => c.status !== "True").length;
  const condWords =
    notTrue === 0
      ? "Every condition is True."
      : `${notTrue} of ${conditions.length} conditions ${notTrue === 1 ? "is" : "are"} not True.`;
  if (label === "healthy" && notTrue === 0 && op?.state === "Succeeded") return STATUS_META.healthy.hint;
  return `${condWords} ${opWords}`;
}

export const CLASSIFICATION_META: Record<Classification, { word: string; tone: Tone; hint: string }> = {
  preview: { word: "Preview", tone: "violet", hint: "Not yet for production; automatic updates never move to it." },
  supported: { word: "Supported", tone: "green", hint: "Recommended for use." },
  deprecated: {
    word: "Deprecated",
    tone: "amber",
    hint: "Still works; an expiration date may be set. Plan the update.",
  },
  expired: {
    word: "Expired",
    tone: "red",
    hint: "Past its expiration date: the next maintenance window forces an update.",
  },
};

export const CONDITION_SHORT: Record<string, string> = {
  APIServerAvailable: "API",
  ControlPlaneHealthy: "CP",
  ObservabilityComponentsHealthy: "OC",
  EveryNodeReady: "N",
  SystemComponentsHealthy: "SC",
  HibernationPossible: "HP",
  MaintenancePreconditionsSatisfied: "MP",
  CACertificateValiditiesAcceptable: "CA",
  CRDsWithProblematicConversionWebhooks: "CW",
  DualStackNodesMigrationReady: "DS",
};

/** A condition's tone: True healthy, Progressing in progress, False failed, else unknown. */
export function conditionTone(status: string): Tone {
  return status === "True" ? "green" : status === "Progressing" ? "blue" : status === "False" ? "red" : "grey";
}

export function conditionWord(status: string): string {
  return status === "True"
    ? "OK"
    : status === "Progressing"
      ? "Progressing"
      : status === "False"
        ? "Failing"
        : "Unknown";
}

/** Tailwind classes per tone: a soft background, a readable text colour and a ring. */
export const TONE_CLASSES: Record<Tone, string> = {
  green: "bg-emerald-50 text-emerald-800 ring-emerald-600/20",
  blue: "bg-sky-50 text-sky-800 ring-sky-600/20",
  amber: "bg-amber-50 text-amber-900 ring-amber-600/25",
  red: "bg-red-50 text-red-800 ring-red-600/20",
  grey: "bg-slate-100 text-slate-700 ring-slate-500/20",
  violet: "bg-violet-50 text-violet-800 ring-violet-600/20",
};

/** Solid colours for charts and progress bars, per tone: CSS variables, so they follow the theme. */
export const TONE_FILL: Record<Tone, string> = {
  green: "var(--tone-green)",
  blue: "var(--tone-blue)",
  amber: "var(--tone-amber)",
  red: "var(--tone-red)",
  grey: "var(--tone-grey)",
  violet: "var(--tone-violet)",
};
