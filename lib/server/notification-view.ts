// Subscriptions and deliveries as the API answers them: never a secret (`hasSecret` says one is
// kept), times in ISO 8601.
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

export function subscriptionJson(row: SubscriptionRow, extras: SubscriptionExtras = {}): NotificationSubscriptionJson {
  return {
    id: row.id,
    channel: row.channel,
    name: row.name,
    ...(row.channel === "webhook" ? { url: row.url ?? "", hasSecret: row.secret !== null } : {}),
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
