// The subscription form, pure: what a person fills in (a draft), the request each channel's API
// takes from it, and where the server's 422 problems go (each beside the field it names:
// `events[2]` beside the kinds, `shoot.name` beside the cluster).
import { DEFAULT_DAYS, kindsTakeDays, parseDays, type Channel } from "./notification-text.ts";

/** The whole landscape in the scope choice (a project is named by itself). */
export const LANDSCAPE_SCOPE = "";

export interface SubscriptionDraft {
  readonly channel: Channel;
  readonly name: string;
  /** Webhook: where to POST, and the key that signs the body. */
  readonly url: string;
  readonly secret: string;
  /** E-mail: one address or a comma list, and one mail per event or a daily digest. */
  readonly to: string;
  readonly digest: "each" | "daily";
  /** LANDSCAPE_SCOPE, or a project's name. */
  readonly project: string;
  /** "" (the whole scope), or one cluster as "namespace/name". */
  readonly shoot: string;
  readonly kinds: readonly string[];
  /** The thresholds as typed ("7, 1"). */
  readonly days: string;
}

export const newDraft = (channel: Channel = "webhook", project = LANDSCAPE_SCOPE): SubscriptionDraft => ({
  channel,
  name: "",
  url: "",
  secret: "",
  to: "",
  digest: "each",
  project,
  shoot: "",
  kinds: ["forced-update", "stuck", "maintenance-failed"],
  days: DEFAULT_DAYS.join(", "),
});

/** "garden-dev/api" as a cluster; undefined when it is not "namespace/name". */
export function parseShoot(text: string): { namespace: string; name: string } | undefined {
  const match = /^\s*([^/\s]+)\s*\/\s*([^/\s]+)\s*$/.exec(text);
  return match ? { namespace: match[1]!, name: match[2]! } : undefined;
}

/** The fields the form has, by the name the server's problems use for them. */
export type FormField =
  "name" | "url" | "secret" | "to" | "digest" | "project" | "shoot" | "events" | "days" | "enabled";
const FORM_FIELDS: readonly FormField[] = [
  "name",
  "url",
  "secret",
  "to",
  "digest",
  "project",
  "shoot",
  "events",
  "days",
  "enabled",
];

export interface BuiltRequest {
  readonly body: Record<string, unknown>;
  /** Problems the form finds before asking the server (the server checks everything again). */
  readonly problems: Partial<Record<FormField, string>>;
}

/** The POST body of the draft's channel; the days only when a kind that takes them is chosen. */
export function draftToCreateRequest(draft: SubscriptionDraft): BuiltRequest {
  const problems: Partial<Record<FormField, string>> = {};
  const common: Record<string, unknown> = { events: [...draft.kinds] };
  if (draft.name.trim()) common.name = draft.name.trim();
  if (draft.project !== LANDSCAPE_SCOPE) common.project = draft.project;
  if (draft.shoot.trim()) {
    const shoot = parseShoot(draft.shoot);
    if (shoot) common.shoot = shoot;
    else problems.shoot = 'Name one cluster as "namespace/name", or leave it empty for the whole scope.';
  }
  if (kindsTakeDays(draft.kinds)) {
    const days = parseDays(draft.days);
    if (days.error) problems.days = days.error;
    else common.days = days.days;
  }
  const body =
    draft.channel === "webhook"
      ? { url: draft.url.trim(), secret: draft.secret, ...common }
      : { to: draft.to.trim(), digest: draft.digest, ...common };
  return { body, problems };
}

/** What the settings form of an existing subscription edits. */
export interface SettingsDraft {
  readonly name: string;
  readonly enabled: boolean;
  readonly kinds: readonly string[];
  readonly days: string;
  /** Webhook: "" keeps the secret; anything else replaces it. */
  readonly secret: string;
  /**
   * Webhook: "" keeps the URL (the answer shows it masked, for it may carry a token, and the old
   * one is never echoed back); anything else replaces it. E-mail: the addresses and the digest.
   */
  readonly url: string;
  readonly to: string;
  readonly digest: "each" | "daily";
}

/** The PATCH body: every field the form shows (the URL and the secret only when new ones are typed). */
export function settingsToPatch(channel: Channel, draft: SettingsDraft): BuiltRequest {
  const problems: Partial<Record<FormField, string>> = {};
  const body: Record<string, unknown> = { name: draft.name.trim(), enabled: draft.enabled, events: [...draft.kinds] };
  if (kindsTakeDays(draft.kinds)) {
    const days = parseDays(draft.days);
    if (days.error) problems.days = days.error;
    else body.days = days.days;
  }
  if (channel === "webhook") {
    if (draft.url.trim() !== "") body.url = draft.url.trim();
    if (draft.secret !== "") body.secret = draft.secret;
  } else {
    body.to = draft.to.trim();
    body.digest = draft.digest;
  }
  return { body, problems };
}

/**
 * The server's field problems by form field: a problem's path names its field first
 * (`events[2]`, `shoot.namespace`, `days[0]`); the first per field wins. Those no field shows
 * (`body`, a field this form lacks) are left for the form's summary.
 */
export function problemsByField(fields: Readonly<Record<string, string>>): {
  byField: Partial<Record<FormField, string>>;
  rest: string[];
} {
  const byField: Partial<Record<FormField, string>> = {};
  const rest: string[] = [];
  for (const [path, detail] of Object.entries(fields)) {
    const head = path.split(/[.[]/, 1)[0] as FormField;
    const field = FORM_FIELDS.includes(head) ? head : head === ("kinds" as string) ? "events" : undefined;
    if (field) byField[field] ??= detail;
    else rest.push(path ? `${path}: ${detail}` : detail);
  }
  return { byField, rest };
}

/**
 * What a subscription form says above its buttons: that fields need another look while any shows
 * its own problem, else the server's message with the problems no field shows.
 */
export function formAlertText(
  localProblems: number,
  serverRest: readonly string[],
  message: string | undefined,
): string | undefined {
  if (localProblems > 0) return "Some fields need another look.";
  return serverRest.length > 0 ? `${message ?? ""} ${serverRest.join("; ")}` : message;
}
