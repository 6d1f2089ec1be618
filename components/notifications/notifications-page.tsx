"use client";

// /notifications: the subscriptions the person may see, webhooks and e-mails together, newest
// first: where each sends (a webhook's host, an e-mail's addresses), what it covers, which kinds,
// whether it is on, and how its last delivery fared. Each opens its own page (edit, send a test,
// deliveries); "New subscription" makes one.
import { useQuery } from "@tanstack/react-query";
import { Mail, Plus, Webhook } from "lucide-react";
import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { PageHeader, Panel } from "@/components/ui/page-header";
import { ScrollBox } from "@/components/ui/scroll-box";
import { EmptyState, ErrorState, LoadingBlock, NeedsRoleState, RefreshFailed } from "@/components/ui/states";
import { RelativeTime, useNow } from "@/components/ui/time";
import type { NotificationSubscriptionJson } from "@/lib/api/notifications";
import { isForbidden } from "@/lib/ui/access";
import {
  CHANNEL_WORDS,
  daysText,
  deliveryStateMeta,
  kindMeta,
  kindsTakeDays,
  scopeText,
  subscriptionPage,
  targetText,
} from "@/lib/ui/notification-text";
import { EmailWarning } from "./email-warning";
import { subscriptionsQuery } from "./notification-queries";

export const NEW_SUBSCRIPTION_LINK =
  "inline-flex items-center justify-center gap-1.5 rounded-md bg-accent-600 px-3 py-1.5 text-sm font-medium text-white shadow-sm hover:bg-accent-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent-600";

// Below lg each subscription is a card: its name and channel, then where, what, and the last
// delivery, each named (the column headings stay for screen readers only).
const CARDS_BELOW_LG = [
  "max-lg:block max-lg:[&_thead]:sr-only max-lg:[&_tbody]:block",
  "max-lg:[&_tbody_tr]:grid max-lg:[&_tbody_tr]:grid-cols-2 max-lg:[&_tbody_tr]:gap-x-3 max-lg:[&_tbody_tr]:py-3 max-lg:[&_td]:px-4 max-lg:[&_td]:py-1",
  "max-lg:[&_td:first-child]:col-span-2 max-lg:[&_td:nth-child(4)]:col-span-2",
  "max-lg:[&_td]:before:block max-lg:[&_td]:before:text-xs max-lg:[&_td]:before:font-medium max-lg:[&_td]:before:text-slate-500",
  "max-lg:[&_td:nth-child(2)]:before:content-['Sends_to'] max-lg:[&_td:nth-child(3)]:before:content-['Covers']",
  "max-lg:[&_td:nth-child(4)]:before:content-['Kinds'] max-lg:[&_td:nth-child(5)]:before:content-['State']",
  "max-lg:[&_td:nth-child(6)]:before:content-['Last_delivery']",
].join(" ");

export function NotificationsPage() {
  const subs = useQuery(subscriptionsQuery);
  const create = (
    <Link href="/notifications/new" className={NEW_SUBSCRIPTION_LINK}>
      <Plus aria-hidden className="size-4" /> New subscription
    </Link>
  );
  return (
    <div className="space-y-6">
      <PageHeader
        title="Notifications"
        description="Be told before it happens: a webhook (Slack-compatible JSON, signed) or an e-mail when Gardener will force an update, a version expires, a cluster will be stuck, a maintenance or migration failed, a cluster turned unhealthy or an update run waits. Each event is sent once per subscription, retried when the receiver fails, and every attempt is kept."
        actions={create}
      />
      {subs.isPending ? (
        <Panel>
          <LoadingBlock label="Loading subscriptions" lines={5} />
        </Panel>
      ) : !subs.data ? (
        isForbidden(subs.error) ? (
          <NeedsRoleState title="Your role does not show notification subscriptions." error={subs.error} />
        ) : (
          <ErrorState
            title="The subscriptions could not be loaded"
            error={subs.error}
            onRetry={() => void subs.refetch()}
          />
        )
      ) : subs.data.length === 0 ? (
        <EmptyState title="No subscription yet" action={create}>
          Subscribe a Slack or Teams webhook, an incident tool or an e-mail address to the landscape, a project or one
          cluster, and choose what to be told about.
        </EmptyState>
      ) : (
        <Panel title={`Subscriptions (${subs.data.length})`} id="subscriptions">
          {subs.isRefetchError && (
            <div className="mb-3">
              <RefreshFailed what="the subscriptions" error={subs.error} onRetry={() => void subs.refetch()} />
            </div>
          )}
          <SubscriptionsTable subs={subs.data} />
        </Panel>
      )}
    </div>
  );
}

function SubscriptionsTable({ subs }: { subs: readonly NotificationSubscriptionJson[] }) {
  const now = useNow(30_000);
  return (
    <ScrollBox label="Subscriptions table" className="-mx-4 -my-4 sm:-mx-5 sm:-my-5">
      <table className={`w-full text-left text-sm ${CARDS_BELOW_LG}`}>
        <caption className="sr-only">Notification subscriptions, newest first</caption>
        <thead className="border-b border-slate-200 bg-slate-50 text-xs font-medium uppercase tracking-wide text-slate-500">
          <tr>
            {["Subscription", "Sends to", "Covers", "Kinds", "State", "Last delivery"].map((h) => (
              <th key={h} scope="col" className="whitespace-nowrap px-5 py-2.5">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {subs.map((sub) => (
            <SubscriptionRow key={`${sub.channel}/${sub.id}`} sub={sub} now={now} />
          ))}
        </tbody>
      </table>
    </ScrollBox>
  );
}

export function ChannelIcon({ channel, className = "size-4" }: { channel: string; className?: string }) {
  return channel === "webhook" ? (
    <Webhook aria-hidden className={`${className} text-accent-600`} />
  ) : (
    <Mail aria-hidden className={`${className} text-accent-600`} />
  );
}

/** A subscription's name, or (unnamed) its channel and where it sends. */
export const subscriptionTitle = (sub: NotificationSubscriptionJson) =>
  sub.name || `${CHANNEL_WORDS[sub.channel]} to ${targetText(sub)}`;

function SubscriptionRow({ sub, now }: { sub: NotificationSubscriptionJson; now: number }) {
  const title = subscriptionTitle(sub);
  return (
    <tr className="align-top hover:bg-slate-50" data-subscription={sub.id} data-channel={sub.channel}>
      <td className="px-5 py-3">
        <div className="flex items-center gap-2">
          <ChannelIcon channel={sub.channel} />
          <Link
            href={subscriptionPage(sub)}
            className="break-all font-medium text-slate-900 hover:text-accent-700 hover:underline focus-visible:outline-2 focus-visible:outline-accent-600"
          >
            {title}
          </Link>
        </div>
        <div className="mt-0.5 pl-6 text-xs text-slate-500">
          {CHANNEL_WORDS[sub.channel]}
          {sub.channel === "email" && sub.digest === "daily" ? ", daily digest" : ""} · by {sub.createdBy}
        </div>
        <EmailWarning warning={sub.warning} compact />
      </td>
      <td className="px-5 py-3 text-slate-800">
        <span className="break-all font-mono text-[13px]">{targetText(sub)}</span>
      </td>
      <td className="px-5 py-3 text-slate-800">{scopeText(sub)}</td>
      <td className="px-5 py-3">
        <ul className="flex max-w-md flex-wrap gap-1" aria-label="Kinds">
          {sub.events.map((kind) => (
            <li key={kind}>
              <Badge tone="grey">{kindMeta(kind).label}</Badge>
            </li>
          ))}
        </ul>
        {kindsTakeDays(sub.events) && sub.days.length > 0 && (
          <p className="mt-1 text-xs text-slate-500">{daysText(sub.days)}</p>
        )}
      </td>
      <td className="whitespace-nowrap px-5 py-3">
        {sub.enabled ? <Badge tone="green">Enabled</Badge> : <Badge tone="grey">Disabled</Badge>}
      </td>
      <td className="px-5 py-3">
        <LastDelivery sub={sub} now={now} />
      </td>
    </tr>
  );
}

/** The newest delivery's state and when, as the list answers it. */
function LastDelivery({ sub, now }: { sub: NotificationSubscriptionJson; now: number }) {
  const last = sub.lastDelivery;
  if (!last) return <span className="text-slate-500">None yet</span>;
  const meta = deliveryStateMeta(last.state);
  return (
    <div data-last-delivery={last.state}>
      <Badge tone={meta.tone} title={last.lastError ?? meta.hint}>
        {meta.word}
      </Badge>
      <div className="mt-1 text-xs text-slate-500">
        {last.type ? <>{kindMeta(last.type).label}, </> : null}
        <RelativeTime at={last.at} now={now} />
      </div>
    </div>
  );
}
