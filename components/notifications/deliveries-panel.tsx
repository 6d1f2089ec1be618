"use client";

// A subscription's deliveries, newest first, a page at a time: each event's state (pending, being
// sent, delivered, given up), how many attempts, when the next one is due, and each attempt's
// answer (status, error, the first 1 KB of the response), with local time and UTC. Read every
// second or two while one is still on its way, so a test's outcome appears by itself.
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Panel } from "@/components/ui/page-header";
import { EmptyState, ErrorState, LoadingBlock, RefreshFailed } from "@/components/ui/states";
import { DualTime } from "@/components/ui/time";
import type { DeliveryJson, NotificationSubscriptionJson } from "@/lib/api/notifications";
import { attemptOutcome, attemptSucceeded, deliveryStateMeta, kindMeta } from "@/lib/ui/notification-text";
import { deliveriesQuery } from "./notification-queries";

export function DeliveriesPanel({ sub, highlight }: { sub: NotificationSubscriptionJson; highlight?: string }) {
  // The cursors of the pages shown, in order ("" is the newest).
  const [cursors, setCursors] = useState<readonly string[]>([""]);
  const first = useQuery(deliveriesQuery(sub.channel, sub.id));
  return (
    <Panel title="Deliveries" id="deliveries">
      {first.isPending ? (
        <LoadingBlock label="Loading deliveries" lines={4} />
      ) : !first.data ? (
        <ErrorState
          title="The deliveries could not be loaded"
          error={first.error}
          onRetry={() => void first.refetch()}
        />
      ) : first.data.items.length === 0 ? (
        <EmptyState title="Nothing sent yet">
          Each event this subscription asks for appears here once it is found, with every attempt to deliver it. Send a
          test to check the receiver now.
        </EmptyState>
      ) : (
        <div className="space-y-3">
          {first.isRefetchError && (
            <RefreshFailed what="the deliveries" error={first.error} onRetry={() => void first.refetch()} />
          )}
          <ol className="space-y-3" aria-label="Deliveries, newest first">
            {cursors.map((cursor, i) => (
              <DeliveriesPage
                key={cursor}
                sub={sub}
                cursor={cursor}
                last={i === cursors.length - 1}
                highlight={highlight}
                onMore={(next) => setCursors((c) => [...c, next])}
              />
            ))}
          </ol>
        </div>
      )}
    </Panel>
  );
}

function DeliveriesPage({
  sub,
  cursor,
  last,
  highlight,
  onMore,
}: {
  sub: NotificationSubscriptionJson;
  cursor: string;
  last: boolean;
  highlight?: string;
  onMore: (cursor: string) => void;
}) {
  const page = useQuery(deliveriesQuery(sub.channel, sub.id, cursor));
  if (!page.data) {
    return (
      <li>
        {page.isError ? (
          <ErrorState
            title="Older deliveries could not be loaded"
            error={page.error}
            onRetry={() => void page.refetch()}
          />
        ) : (
          <LoadingBlock label="Loading older deliveries" lines={2} />
        )}
      </li>
    );
  }
  const next = page.data.nextCursor;
  return (
    <>
      {page.data.items.map((delivery) => (
        <Delivery key={delivery.id} delivery={delivery} highlighted={delivery.id === highlight} />
      ))}
      {last && next && (
        <li className="text-center">
          <button
            type="button"
            onClick={() => onMore(next)}
            className="rounded-md px-3 py-1.5 text-sm font-medium text-accent-700 hover:bg-accent-50 focus-visible:outline-2 focus-visible:outline-accent-600"
          >
            Show older deliveries
          </button>
        </li>
      )}
    </>
  );
}

function Delivery({ delivery, highlighted }: { delivery: DeliveryJson; highlighted: boolean }) {
  const meta = deliveryStateMeta(delivery.state);
  const kind = kindMeta(delivery.type);
  return (
    <li
      className={`rounded-lg border p-3 sm:p-4 ${highlighted ? "border-accent-600 bg-accent-50/40" : "border-slate-200"}`}
      data-delivery={delivery.id}
      data-state={delivery.state}
      data-type={delivery.type}
    >
      <div className="flex flex-wrap items-center gap-2">
        <Badge tone={meta.tone} title={meta.hint}>
          {meta.word}
        </Badge>
        <span className="text-sm font-medium text-slate-900">{kind.label}</span>
        {highlighted && <Badge tone="blue">Your test</Badge>}
      </div>
      <p className="mt-1 break-words text-sm text-slate-700">{delivery.summary}</p>
      <dl className="mt-2 grid gap-x-4 gap-y-0.5 text-xs text-slate-700 sm:grid-cols-[auto_1fr]">
        <dt className="text-slate-500">Found</dt>
        <dd>
          <DualTime at={delivery.createdAt} />
        </dd>
        {delivery.deliveredAt && (
          <>
            <dt className="text-slate-500">Delivered</dt>
            <dd>
              <DualTime at={delivery.deliveredAt} />
            </dd>
          </>
        )}
        {delivery.state === "Pending" && delivery.nextAttemptAt && (
          <>
            <dt className="text-slate-500">{delivery.attempts > 0 ? "Next retry" : "Due"}</dt>
            <dd>
              <DualTime at={delivery.nextAttemptAt} />
            </dd>
          </>
        )}
        <dt className="text-slate-500">Attempts</dt>
        <dd>
          {delivery.attempts}
          {delivery.attempts > 0 &&
            (delivery.lastStatus !== undefined || delivery.lastError) &&
            `; the last: ${attemptOutcome({ status: delivery.lastStatus, error: delivery.lastError })}`}
        </dd>
      </dl>
      {delivery.history.length > 0 && (
        <details className="mt-2 text-xs" open={highlighted || delivery.state === "Failed" ? true : undefined}>
          <summary className="cursor-pointer font-medium text-slate-700 hover:text-accent-700 focus-visible:outline-2 focus-visible:outline-accent-600">
            {delivery.history.length === 1 ? "The attempt" : `The ${delivery.history.length} attempts`}
          </summary>
          <ol className="mt-2 space-y-2" aria-label="Attempts, oldest first">
            {delivery.history.map((attempt, i) => (
              <li
                key={`${attempt.at}-${i}`}
                className="rounded-md bg-slate-50 px-3 py-2 ring-1 ring-inset ring-slate-200"
                data-attempt={i + 1}
              >
                <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
                  <span className="font-medium text-slate-800">Attempt {i + 1}</span>
                  <Badge tone={attemptSucceeded(attempt) ? "green" : "red"}>{attemptOutcome(attempt)}</Badge>
                  <span className="text-slate-500">{attempt.durationMs} ms</span>
                  <span className="text-slate-700">
                    <DualTime at={attempt.at} relative={false} />
                  </span>
                </div>
                {attempt.response && (
                  <pre className="mt-1.5 max-h-40 overflow-auto whitespace-pre-wrap break-all rounded bg-white p-2 font-mono text-[11px] text-slate-800 ring-1 ring-inset ring-slate-200">
                    {attempt.response}
                  </pre>
                )}
              </li>
            ))}
          </ol>
        </details>
      )}
    </li>
  );
}
