"use client";

// /notifications/{webhooks|email-subscriptions}/{id}: one subscription. What it is (where it
// sends, what it covers, who made it), "Send a test" (202; the test delivery's outcome appears as
// the worker reports it), its settings (kinds, days, on or off, name, where it sends; a new secret
// replaces the old one, which is never shown), delete (confirmed), and its deliveries, newest
// first, each with every attempt's answer.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { ArrowLeft, Send, Trash2 } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmRemovalDialog } from "@/components/ui/confirm-removal-dialog";
import { FormAlert } from "@/components/ui/form-field";
import { PageHeader, Panel } from "@/components/ui/page-header";
import { ErrorState, LoadingBlock, NeedsRoleState } from "@/components/ui/states";
import { DualTime } from "@/components/ui/time";
import type { NotificationSubscriptionJson } from "@/lib/api/notifications";
import { formProblems, isForbidden } from "@/lib/ui/access";
import { RequestError } from "@/lib/ui/api";
import { attemptOutcome, CHANNEL_WORDS, deliveryStateMeta, scopeText, type Channel } from "@/lib/ui/notification-text";
import { DeliveriesPanel } from "./deliveries-panel";
import { EmailWarning } from "./email-warning";
import {
  deleteSubscription,
  deliveriesQuery,
  notificationKeys,
  subscriptionQuery,
  useSendTest,
} from "./notification-queries";
import { ChannelIcon, subscriptionTitle } from "./notifications-page";
import { SettingsPanel } from "./settings-panel";

const BACK_LINK =
  "inline-flex items-center gap-1 text-sm text-slate-600 hover:text-accent-700 focus-visible:outline-2 focus-visible:outline-accent-600";

export function SubscriptionPage({ channel, id }: { channel: Channel; id: string }) {
  const sub = useQuery(subscriptionQuery(channel, id));
  const back = (
    <Link href="/notifications" className={BACK_LINK}>
      <ArrowLeft aria-hidden className="size-4" /> Notifications
    </Link>
  );
  if (sub.isPending) {
    return (
      <div className="space-y-6">
        <PageHeader eyebrow={back} title="Subscription" />
        <Panel>
          <LoadingBlock label="Loading the subscription" lines={6} />
        </Panel>
      </div>
    );
  }
  if (sub.isError) {
    const gone = sub.error instanceof RequestError && sub.error.status === 404;
    return (
      <div className="space-y-6">
        <PageHeader eyebrow={back} title="Subscription" />
        {isForbidden(sub.error) ? (
          <NeedsRoleState title="Your role does not show this subscription." error={sub.error} />
        ) : (
          <ErrorState
            title={
              gone ? "There is no such subscription (it may have been deleted)" : "The subscription could not be loaded"
            }
            error={sub.error}
            onRetry={gone ? undefined : () => void sub.refetch()}
          />
        )}
      </div>
    );
  }
  return <Subscription sub={sub.data} back={back} />;
}

function Subscription({ sub, back }: { sub: NotificationSubscriptionJson; back: React.ReactNode }) {
  const router = useRouter();
  const client = useQueryClient();
  const [deleting, setDeleting] = useState<NotificationSubscriptionJson>();
  const test = useSendTest(sub.channel, sub.id);
  return (
    <div className="space-y-6" data-subscription-page={sub.id}>
      <PageHeader
        eyebrow={back}
        title={
          <span className="inline-flex min-w-0 items-center gap-2">
            <ChannelIcon channel={sub.channel} className="size-6 shrink-0" />
            <span className="break-all">{subscriptionTitle(sub)}</span>
          </span>
        }
        description={
          <>
            {CHANNEL_WORDS[sub.channel]}
            {sub.channel === "email" && sub.digest === "daily" ? " (daily digest)" : ""} for{" "}
            {scopeText(sub).toLowerCase()}, made by {sub.createdBy}.{" "}
            {sub.enabled ? (
              <Badge tone="green">Enabled</Badge>
            ) : (
              <Badge tone="grey" title="Nothing is sent until it is enabled again.">
                Disabled
              </Badge>
            )}
          </>
        }
        actions={
          <>
            <Button variant="primary" onClick={() => test.mutate()} disabled={test.isPending}>
              <Send aria-hidden className="size-4" /> {test.isPending ? "Sending…" : "Send a test"}
            </Button>
            <Button variant="danger-secondary" onClick={() => setDeleting(sub)}>
              <Trash2 aria-hidden className="size-4" /> Delete
            </Button>
          </>
        }
      />
      {(test.data || test.error) && (
        <TestOutcome sub={sub} deliveryId={test.data?.deliveryId} error={test.error} onDismiss={() => test.reset()} />
      )}
      <EmailWarning warning={sub.warning} />
      <Panel title="About" id="about">
        <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[auto_1fr]">
          <dt className="text-slate-500">{sub.channel === "webhook" ? "URL" : "Addresses"}</dt>
          <dd className="break-all font-mono text-[13px] text-slate-900">
            {sub.channel === "webhook" ? sub.url : sub.to}
          </dd>
          {sub.channel === "webhook" && (
            <>
              <dt className="text-slate-500">Secret</dt>
              <dd className="text-slate-800" data-testid="secret-state">
                {sub.hasSecret ? "Set. It is never shown again; set a new one below to replace it." : "None"}
              </dd>
            </>
          )}
          <dt className="text-slate-500">Covers</dt>
          <dd className="text-slate-800">
            {scopeText(sub)}
            <span className="block text-xs text-slate-500">
              To cover something else, make a new subscription and delete this one.
            </span>
          </dd>
          <dt className="text-slate-500">Made</dt>
          <dd className="text-slate-800">
            <DualTime at={sub.created} /> by <span className="break-all">{sub.createdBy}</span>
          </dd>
          {sub.updated !== sub.created && (
            <>
              <dt className="text-slate-500">Changed</dt>
              <dd className="text-slate-800">
                <DualTime at={sub.updated} />
              </dd>
            </>
          )}
        </dl>
        {sub.channel === "webhook" && <VerifyNote />}
      </Panel>
      <SettingsPanel sub={sub} />
      <DeliveriesPanel sub={sub} highlight={test.data?.deliveryId} />
      <ConfirmRemovalDialog
        item={deleting}
        onClose={() => setDeleting(undefined)}
        title="Delete this subscription?"
        confirmLabel="Delete subscription"
        pendingLabel="Deleting…"
        remove={deleteSubscription}
        onRemoved={() => {
          client.removeQueries({ queryKey: notificationKeys.subscription(sub.channel, sub.id) });
          void client.invalidateQueries({ queryKey: notificationKeys.list });
          router.push("/notifications");
        }}
      >
        {(s) => (
          <>
            <p>
              <span className="font-medium text-slate-900">{subscriptionTitle(s)}</span> ({CHANNEL_WORDS[s.channel]} for{" "}
              {scopeText(s).toLowerCase()}).
            </p>
            <p>
              Nothing more is sent to it, and its deliveries and their attempts are deleted with it. The audit log keeps
              who made and who deleted it.
            </p>
          </>
        )}
      </ConfirmRemovalDialog>
    </div>
  );
}

/** How a receiver checks what it gets: the signature, the timestamp, the delivery's id. */
function VerifyNote() {
  return (
    <details className="mt-4 rounded-md bg-slate-50 px-3 py-2 text-sm text-slate-700 ring-1 ring-inset ring-slate-200">
      <summary className="cursor-pointer font-medium text-slate-800 focus-visible:outline-2 focus-visible:outline-accent-600">
        How the receiver checks a request
      </summary>
      <ul className="mt-2 list-disc space-y-1 pl-5">
        <li>
          <span className="font-mono text-xs">X-Almanac-Signature</span> is{" "}
          <span className="font-mono text-xs">sha256=</span> and the hex HMAC-SHA256 of the raw body with the secret:
          compute it over the bytes received and compare in constant time.
        </li>
        <li>
          <span className="font-mono text-xs">X-Almanac-Timestamp</span> (Unix seconds) and the body&apos;s{" "}
          <span className="font-mono text-xs">timestamp</span> say when it was sent: refuse old ones against replays.
        </li>
        <li>
          <span className="font-mono text-xs">X-Almanac-Delivery</span> is the same on every retry: handle each once.
          Answer 2xx within the time limit; anything else is tried again later.
        </li>
      </ul>
    </details>
  );
}

/** The test just sent: pending until the worker reports it, then its outcome. */
function TestOutcome({
  sub,
  deliveryId,
  error,
  onDismiss,
}: {
  sub: NotificationSubscriptionJson;
  deliveryId?: string;
  error: unknown;
  onDismiss: () => void;
}) {
  const deliveries = useQuery(deliveriesQuery(sub.channel, sub.id));
  const delivery = deliveryId ? deliveries.data?.items.find((d) => d.id === deliveryId) : undefined;
  if (error) {
    return (
      <div className="space-y-2">
        <FormAlert message={`The test was not sent: ${formProblems(error).message ?? String(error)}`} />
      </div>
    );
  }
  const meta = delivery ? deliveryStateMeta(delivery.state) : undefined;
  const last = delivery?.history.at(-1);
  return (
    <div
      role="status"
      aria-live="polite"
      data-testid="test-outcome"
      data-state={delivery?.state ?? "Pending"}
      className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-slate-200 bg-white px-4 py-3 text-sm shadow-sm"
    >
      <p className="flex flex-wrap items-center gap-2 text-slate-800">
        <Send aria-hidden className="size-4 text-accent-600" />
        <span className="font-medium">Test sent.</span>
        {!delivery || delivery.state === "Pending" || delivery.state === "Sending" ? (
          <span>
            {delivery?.attempts
              ? `Attempt ${delivery.attempts} failed; trying again`
              : "Waiting for the receiver's answer"}
            …
          </span>
        ) : (
          <>
            <Badge tone={meta!.tone}>{meta!.word}</Badge>
            <span>
              {last ? attemptOutcome(last) : ""}
              {last ? ` in ${last.durationMs} ms` : ""}
              {delivery.state === "Failed" ? ": see its attempts below." : "."}
            </span>
          </>
        )}
      </p>
      <Button variant="ghost" onClick={onDismiss}>
        Dismiss
      </Button>
    </div>
  );
}
