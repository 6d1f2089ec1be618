// What a notification mail says: its subject, a plain-text body and a simple HTML body, for one
// event or for a daily digest of many. Pure text work (no clock, no I/O), so it is tested alone;
// lib/server/notification-mail.ts sends what this writes. Every text that came from the garden
// (names, reasons, a webhook's words in `data`) is escaped before it goes into the HTML, and
// line breaks are taken out of the subject, where they would start a header of their own.

/** An event as a mail shows it (the columns of notification_events that matter here). */
export interface MailEvent {
  readonly kind: string;
  readonly summary: string;
  readonly occurredAt: Date;
  readonly projects: readonly string[];
  readonly shoot?: { readonly namespace: string; readonly name: string } | null;
  readonly days?: number | null;
  readonly data: Readonly<Record<string, unknown>>;
}

export interface RenderedMail {
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}

export interface MailTextOptions {
  /** ALMANAC_PUBLIC_URL: links to the page of what the event is about, and to the subscriptions. */
  readonly publicUrl?: string;
}

// The kinds in the order a digest lists them (the contract's subscribable kinds, then the test),
// each with a title for one event and for several.
const KIND_TITLES: Record<string, readonly [one: string, many: string]> = {
  "forced-update": ["Forced update", "Forced updates"],
  "version-expiring": ["Version expiring", "Versions expiring"],
  stuck: ["Cluster that will be stuck", "Clusters that will be stuck"],
  "maintenance-failed": ["Maintenance failed", "Maintenance runs failed"],
  "migration-failed": ["Migration failed", "Migrations failed"],
  "migration-finished": ["Migration finished", "Migrations finished"],
  "shoot-unhealthy": ["Shoot unhealthy", "Shoots unhealthy"],
  "update-run-waiting": ["Update run waiting for approval", "Update runs waiting for approval"],
  "update-run-paused": ["Update run paused", "Update runs paused"],
  test: ["Test", "Tests"],
};
const KIND_ORDER = Object.keys(KIND_TITLES);

/** The kind in words (an unknown kind as it is). */
export function kindTitle(kind: string, count = 1): string {
  const titles = KIND_TITLES[kind];
  if (!titles) return kind;
  return count === 1 ? titles[0] : titles[1];
}

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** `text` safe inside HTML, as element content and as a quoted attribute's value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
}

// RFC 5322 allows 998 characters a line; a subject much longer than a screen is not read anyway.
const SUBJECT_MAX = 200;

function oneLine(text: string): string {
  return text.replace(/[\r\n\t\v\f\u0085\u2028\u2029]+/g, " ").trim();
}

function subjectOf(text: string): string {
  const line = `[Almanac] ${oneLine(text)}`;
  return line.length <= SUBJECT_MAX ? line : `${line.slice(0, SUBJECT_MAX - 1)}…`;
}

/** A moment as the mails write it: in UTC, to the minute ("2026-12-01 03:00 UTC"). */
export function utcMinute(at: Date): string {
  return `${at.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

function base(publicUrl: string | undefined): string | undefined {
  return publicUrl?.replace(/\/+$/, "");
}

/**
 * The page of what the event is about, when ALMANAC_PUBLIC_URL is set: an update run's page for
 * the update run kinds (data.runId), else the shoot's page, else the forecast for the kinds it
 * shows; undefined when there is no such page or no public URL.
 */
export function eventLink(event: MailEvent, publicUrl: string | undefined): string | undefined {
  const root = base(publicUrl);
  if (!root) return undefined;
  const runId = event.data.runId;
  if (event.kind.startsWith("update-run-") && typeof runId === "string" && runId)
    return `${root}/update-runs/${encodeURIComponent(runId)}`;
  if (event.shoot)
    return `${root}/shoots/${encodeURIComponent(event.shoot.namespace)}/${encodeURIComponent(event.shoot.name)}`;
  if (["forced-update", "version-expiring", "stuck"].includes(event.kind)) return `${root}/forecast`;
  return undefined;
}

/** Where a person manages their subscriptions, when ALMANAC_PUBLIC_URL is set. */
function subscriptionsLink(publicUrl: string | undefined): string | undefined {
  const root = base(publicUrl);
  return root ? `${root}/notifications` : undefined;
}

// A value of `data` in one line: scalars as they are, a list of scalars joined, the rest as JSON.
function factValue(value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (value instanceof Date) return utcMinute(value);
  if (typeof value === "string") return oneLine(value);
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value) && value.every((v) => ["string", "number", "boolean"].includes(typeof v)))
    return value.join(", ");
  return JSON.stringify(value);
}

/** The facts of an event, label and value, in the order a mail lists them. */
export function eventFacts(event: MailEvent): [label: string, value: string][] {
  const facts: [string, string][] = [
    ["Kind", kindTitle(event.kind)],
    ["When", utcMinute(event.occurredAt)],
  ];
  if (event.shoot) facts.push(["Shoot", `${event.shoot.namespace}/${event.shoot.name}`]);
  if (event.projects.length > 0)
    facts.push([event.projects.length === 1 ? "Project" : "Projects", event.projects.join(", ")]);
  if (event.days !== undefined && event.days !== null)
    facts.push(["Within", `${event.days} day${event.days === 1 ? "" : "s"}`]);
  for (const [key, value] of Object.entries(event.data)) {
    const shown = factValue(value);
    if (shown !== undefined && shown !== "") facts.push([key, shown]);
  }
  return facts;
}

const FOOTER = "Sent by Almanac because of a notification subscription.";

function textFooter(publicUrl: string | undefined): string {
  const manage = subscriptionsLink(publicUrl);
  return manage ? `--\n${FOOTER}\nManage subscriptions: ${manage}\n` : `--\n${FOOTER}\n`;
}

function htmlFooter(publicUrl: string | undefined): string {
  const manage = subscriptionsLink(publicUrl);
  const link = manage ? ` <a href="${escapeHtml(manage)}">Manage subscriptions</a>.` : "";
  return `<p style="color:#666;font-size:12px">${escapeHtml(FOOTER)}${link}</p>`;
}

function htmlPage(title: string, body: string): string {
  return [
    "<!doctype html>",
    `<html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>`,
    `<body style="font-family:sans-serif;line-height:1.4">${body}</body></html>`,
    "",
  ].join("\n");
}

/** The mail of one event ("each"): the summary as subject and heading, the facts, a link. */
export function eventMail(event: MailEvent, options: MailTextOptions = {}): RenderedMail {
  const link = eventLink(event, options.publicUrl);
  const facts = eventFacts(event);
  const summary = oneLine(event.summary);
  const text = [
    summary,
    "",
    ...facts.map(([label, value]) => `${label}: ${value}`),
    ...(link ? ["", `Open in Almanac: ${link}`] : []),
    "",
    textFooter(options.publicUrl),
  ].join("\n");
  const rows = facts
    .map(
      ([label, value]) =>
        `<tr><th align="left" style="padding-right:1em">${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`,
    )
    .join("");
  const html = htmlPage(
    summary,
    [
      `<p><strong>${escapeHtml(summary)}</strong></p>`,
      `<table>${rows}</table>`,
      link ? `<p><a href="${escapeHtml(link)}">Open in Almanac</a></p>` : "",
      htmlFooter(options.publicUrl),
    ].join(""),
  );
  return { subject: subjectOf(summary), text, html };
}

export interface DigestOptions extends MailTextOptions {
  /** How many events of each kind the digest lists; the rest are "and K more" (default 20). */
  readonly perKind?: number;
  /** The digest's day as its reader knows it ("2026-11-28"), for the subject. */
  readonly day?: string;
}

/** The events grouped by kind: known kinds in the contract's order, then unknown ones by name; each in time order. */
export function eventsByKind<E extends MailEvent>(events: readonly E[]): [kind: string, events: E[]][] {
  const groups = new Map<string, E[]>();
  for (const event of events) {
    const group = groups.get(event.kind);
    if (group) group.push(event);
    else groups.set(event.kind, [event]);
  }
  const rank = (kind: string) => {
    const known = KIND_ORDER.indexOf(kind);
    return known === -1 ? KIND_ORDER.length : known;
  };
  return [...groups.entries()]
    .sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b))
    .map(([kind, group]) => [kind, [...group].sort((x, y) => x.occurredAt.getTime() - y.occurredAt.getTime())]);
}

/**
 * The daily digest of many events as ONE mail: per kind (in a fixed order) its count, the first
 * `perKind` events by time with their links, and "and K more".
 */
export function digestMail(events: readonly MailEvent[], options: DigestOptions = {}): RenderedMail {
  const perKind = Math.max(1, options.perKind ?? 20);
  const groups = eventsByKind(events);
  const counts = groups.map(([kind, group]) => `${group.length} ${kindTitle(kind, group.length).toLowerCase()}`);
  const total = `${events.length} notification${events.length === 1 ? "" : "s"}`;
  const title = `Daily digest${options.day ? ` for ${options.day}` : ""}: ${total}`;
  const textParts = [title, "", counts.join(", "), ""];
  const htmlParts = [`<p><strong>${escapeHtml(title)}</strong></p>`, `<p>${escapeHtml(counts.join(", "))}</p>`];
  for (const [kind, group] of groups) {
    const heading = `${kindTitle(kind, group.length)} (${group.length})`;
    const shown = group.slice(0, perKind);
    const more = group.length - shown.length;
    textParts.push(heading);
    const items: string[] = [];
    for (const event of shown) {
      const link = eventLink(event, options.publicUrl);
      const summary = oneLine(event.summary);
      textParts.push(`- ${summary}${link ? `\n  ${link}` : ""}`);
      items.push(`<li>${escapeHtml(summary)}${link ? ` <a href="${escapeHtml(link)}">open</a>` : ""}</li>`);
    }
    if (more > 0) {
      textParts.push(`  and ${more} more`);
      items.push(`<li>and ${more} more</li>`);
    }
    textParts.push("");
    htmlParts.push(`<h3>${escapeHtml(heading)}</h3><ul>${items.join("")}</ul>`);
  }
  textParts.push(textFooter(options.publicUrl));
  htmlParts.push(htmlFooter(options.publicUrl));
  return { subject: subjectOf(title), text: textParts.join("\n"), html: htmlPage(title, htmlParts.join("")) };
}
