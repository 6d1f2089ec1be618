// A notification channel (issue 30): how a claimed batch of deliveries of ONE subscription goes
// out. The worker (lib/server/notification-worker.ts) claims, calls the channel, and keeps every
// attempt and its outcome; the channel only sends. Webhooks: notification-webhook.ts; e-mail:
// notification-mail.ts.
import type { NotificationEventRow, SubscriptionRow } from "../store/notifications.ts";

export type { NotificationEventRow, SubscriptionRow } from "../store/notifications.ts";

export interface ClaimedDelivery {
  readonly id: string;
  /** This attempt's number, from 1. */
  readonly attempt: number;
  /** When the delivery was made: a daily digest's delivery waits from then for its moment. */
  readonly createdAt: Date;
  /** With its secret (the webhook signs with it). */
  readonly subscription: SubscriptionRow;
  readonly event: NotificationEventRow;
}

export type DeliveryOutcome =
  /** Delivered (the receiver's status and the first 1 KB of its answer, when there is one). */
  | { readonly ok: true; readonly status?: number; readonly response?: string; readonly durationMs?: number }
  /** Not delivered: `retry` false gives up at once (e.g. a target refused by the SSRF guard). */
  | {
      readonly ok: false;
      readonly status?: number;
      readonly error: string;
      readonly response?: string;
      readonly retry: boolean;
      /** How long the attempt took (default: the batch's time shared out). */
      readonly durationMs?: number;
    }
  /** Not an attempt: the channel wants it later (the daily digest). */
  | { readonly deferUntil: Date };

export interface NotificationChannel {
  readonly channel: "webhook" | "email";
  /**
   * Sends the deliveries of ONE subscription, claimed together (an e-mail digest sends them as
   * one mail), and says how each fared, by delivery id. A delivery missing from the answer counts
   * as a failed attempt that is retried.
   */
  deliver(batch: readonly ClaimedDelivery[], now: Date): Promise<ReadonlyMap<string, DeliveryOutcome>>;
}
