// Subscriptions and deliveries as the API answers them: never a secret (`hasSecret` says one is
// kept), never a webhook's full URL (Slack, Teams and Discord carry their token in the path, and
// every reader of the subscription sees the answer: maskedWebhookUrl), times in ISO 8601.
import type {
  DeliveryJson,
  DeliveryState,
  NotificationEventKind,
  NotificationKind,
  NotificationLastDelivery,
  NotificationSubscriptionJson,
} from "../api/notifications.ts";
import type { DeliveryHistoryRow, LastDeliveryRow, SubscriptionRow } from "../store/notifications.ts";

const iso = (at: string | Date) => new Date(at).toISOString();

export interface SubscriptionExtras {
  /** E-mail: why its mails cannot go out now (emailNotConfigured). */
  readonly warning?: string;
  /** The list's: its newest delivery (null: none yet). */
  readonly lastDelivery?: LastDeliveryRow | null;
}

export function lastDeliveryJson(row: LastDeliveryRow): NotificationLastDelivery {
  return {
    state: row.state as DeliveryState,
    at: iso(row.at),
    type: row.kind as NotificationEventKind,
    ...(row.lastStatus !== null ? { lastStatus: row.lastStatus } : {}),
    ...(row.lastError !== null ? { lastError: row.lastError } : {}),
  };
}

// A URL's rest shorter than this shows no characters at all (four of a short path tell too much).
const MASK_SHOWS_TAIL_FROM = 12;

/**
 * A webhook URL as readers may see it: scheme, host and port, then the path masked, ending with its
 * last four characters so two hooks can be told apart (https://hooks.slack.com/services/…/XXXX).
 * A path of three or more segments keeps its first (a service's fixed prefix: services, api,
 * webhookb2); a user, password, query or fragment is never shown.
 */
export function maskedWebhookUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "…";
  }
  const origin = `${parsed.protocol}//${parsed.host}`;
  const segments = parsed.pathname.split("/").filter((x) => x !== "");
  const extra = parsed.search !== "" || parsed.hash !== "" ? "?…" : "";
  if (segments.length === 0) return `${origin}/${extra}`;
  const lead = segments.length >= 3 ? `/${segments[0]}` : "";
  const rest = (segments.length >= 3 ? segments.slice(1) : segments).join("/");
  const tail = rest.length >= MASK_SHOWS_TAIL_FROM ? `/${rest.slice(-4)}` : "";
  return `${origin}${lead}/…${tail}${extra}`;
}

export function subscriptionJson(row: SubscriptionRow, extras: SubscriptionExtras = {}): NotificationSubscriptionJson {
  return {
    id: row.id,
    channel: row.channel,
    name: row.name,
    ...(row.channel === "webhook" ? { url: maskedWebhookUrl(row.url ?? ""), hasSecret: row.secret !== null } : {}),
    ...(row.channel === "email" ? { to: row.emailTo ?? "" } : {}),
    digest: row.digest,
    events: row.kinds as NotificationKind[],
    days: [...row.days],
    project: row.project,
    shoot: row.shootNamespace && row.shootName ? { namespace: row.shootNamespace, name: row.shootName } : null,
    enabled: row.enabled,
    createdBy: row.createdBy,
    created: row.createdAt.toISOString(),
    updated: row.updatedAt.toISOString(),
    ...(extras.warning ? { warning: extras.warning } : {}),
    ...(extras.lastDelivery ? { lastDelivery: lastDeliveryJson(extras.lastDelivery) } : {}),
  };
}

export function deliveryJson(row: DeliveryHistoryRow): DeliveryJson {
  return {
    id: row.id,
    eventId: row.eventId,
    type: row.kind as NotificationEventKind,
    summary: row.summary,
    state: row.state as DeliveryState,
    attempts: row.attempts,
    ...(row.lastStatus !== null ? { lastStatus: row.lastStatus } : {}),
    ...(row.lastError !== null ? { lastError: row.lastError } : {}),
    ...(row.deliveredAt ? { deliveredAt: iso(row.deliveredAt) } : {}),
    ...(row.state === "Pending" ? { nextAttemptAt: iso(row.nextAttemptAt) } : {}),
    createdAt: iso(row.createdAt),
    history: row.history.map((a) => ({
      at: iso(a.at),
      durationMs: a.duration_ms,
      ...(a.status !== null ? { status: a.status } : {}),
      ...(a.error !== null ? { error: a.error } : {}),
      ...(a.response !== null ? { response: a.response } : {}),
    })),
  };
}

/** The deliveries list's cursor: the page's last (createdAt, id). */
export const deliveryCursor = (row: { createdAt: Date; id: string }): string => `${row.createdAt.getTime()}.${row.id}`;

export function parseDeliveryCursor(cursor: string): { createdAt: Date; id: string } | undefined {
  const match = /^(\d{1,15})\.([0-9a-f-]{36})$/i.exec(cursor);
  return match ? { createdAt: new Date(Number(match[1])), id: match[2] } : undefined;
}
