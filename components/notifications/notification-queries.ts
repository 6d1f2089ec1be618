"use client";

// The notifications pages' data: the subscriptions of both channels (webhooks and e-mails, read
// together), one subscription, its deliveries a page at a time (polled while one is still on its
// way), and the changes (create, edit, delete, send a test), after which what they touch is read
// again.
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type {
  DeliveryListAnswer,
  NotificationSubscriptionJson,
  NotificationSubscriptionListAnswer,
  TestDeliveryAnswer,
} from "@/lib/api/notifications";
import { retryUnlessRefused } from "@/lib/ui/access";
import { apiGet, apiSend } from "@/lib/ui/api";
import { CHANNEL_PATH, isOpenDelivery, type Channel } from "@/lib/ui/notification-text";

const itemPath = (channel: Channel, id: string) => `/${CHANNEL_PATH[channel]}/${encodeURIComponent(id)}`;

export const notificationKeys = {
  all: ["notifications"] as const,
  list: ["notifications", "list"] as const,
  subscription: (channel: Channel, id: string) => ["notifications", channel, id] as const,
  deliveries: (channel: Channel, id: string, cursor: string) =>
    ["notifications", channel, id, "deliveries", cursor] as const,
};

/** How often deliveries still on their way are read again; a quiet subscription's, every half minute. */
export const DELIVERY_POLL_MS = 1_500;
const QUIET_POLL_MS = 30_000;

/**
 * Both channels' subscriptions, newest first. A person who may read neither collection sees that
 * (403); one failing channel fails the list, so it never looks shorter than it is.
 */
export const subscriptionsQuery = queryOptions({
  queryKey: notificationKeys.list,
  queryFn: async ({ signal }): Promise<NotificationSubscriptionJson[]> => {
    const [webhooks, emails] = await Promise.all([
      apiGet<NotificationSubscriptionListAnswer>(`/${CHANNEL_PATH.webhook}`, signal),
      apiGet<NotificationSubscriptionListAnswer>(`/${CHANNEL_PATH.email}`, signal),
    ]);
    return [...webhooks.items, ...emails.items].sort((a, b) => b.created.localeCompare(a.created));
  },
  // Each row's last delivery comes with the list: read it often while one is on its way.
  refetchInterval: (q) =>
    q.state.data?.some((s) => s.lastDelivery && isOpenDelivery(s.lastDelivery.state))
      ? DELIVERY_POLL_MS * 2
      : QUIET_POLL_MS,
  retry: retryUnlessRefused,
});

export const subscriptionQuery = (channel: Channel, id: string) =>
  queryOptions({
    queryKey: notificationKeys.subscription(channel, id),
    queryFn: ({ signal }) => apiGet<NotificationSubscriptionJson>(itemPath(channel, id), signal),
    retry: retryUnlessRefused,
  });

/** One page of a subscription's deliveries ("" is the newest), read often while one is on its way. */
export const deliveriesQuery = (channel: Channel, id: string, cursor = "") =>
  queryOptions({
    queryKey: notificationKeys.deliveries(channel, id, cursor),
    queryFn: ({ signal }) =>
      apiGet<DeliveryListAnswer>(
        `${itemPath(channel, id)}/deliveries${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ""}`,
        signal,
      ),
    refetchInterval: (q) =>
      q.state.data?.items.some((d) => isOpenDelivery(d.state)) ? DELIVERY_POLL_MS : QUIET_POLL_MS,
    retry: retryUnlessRefused,
  });

/** POST /api/v1/{webhooks|email-subscriptions}: 201 with the subscription (never its secret). */
export function useCreateSubscription() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ channel, body }: { channel: Channel; body: Record<string, unknown> }) =>
      apiSend<NotificationSubscriptionJson>("POST", `/${CHANNEL_PATH[channel]}`, body),
    onSuccess: (sub) => {
      client.setQueryData(notificationKeys.subscription(sub.channel, sub.id), sub);
      void client.invalidateQueries({ queryKey: notificationKeys.list });
    },
  });
}

/** PATCH: the subscription as it now stands, shown at once. */
export function useUpdateSubscription(channel: Channel, id: string) {
  const client = useQueryClient();
  return useMutation({
    // The fields given change: a merge patch (apiSend's Content-Type for PATCH).
    mutationFn: (body: Record<string, unknown>) =>
      apiSend<NotificationSubscriptionJson>("PATCH", itemPath(channel, id), body),
    onSuccess: (sub) => {
      client.setQueryData(notificationKeys.subscription(channel, id), sub);
      void client.invalidateQueries({ queryKey: notificationKeys.list });
    },
  });
}

/** DELETE (204). */
export const deleteSubscription = (sub: { channel: Channel; id: string }) =>
  apiSend<unknown>("DELETE", itemPath(sub.channel, sub.id));

/** POST …/test: 202 with the test delivery's id; the deliveries are read again at once. */
export function useSendTest(channel: Channel, id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => apiSend<TestDeliveryAnswer>("POST", `${itemPath(channel, id)}/test`),
    onSuccess: () => void client.invalidateQueries({ queryKey: [...notificationKeys.subscription(channel, id)] }),
  });
}
