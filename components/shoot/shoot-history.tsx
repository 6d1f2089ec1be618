"use client";

// What happened to this cluster, newest first: maintenance runs (in the window or "maintain
// now") with every change and its reason, and the audit log's changes by people and controllers.
import { Bot, ClipboardList, UserRound, Wrench } from "lucide-react";
import Link from "next/link";
import { useMemo } from "react";
import { Badge } from "@/components/ui/badge";
import { Panel } from "@/components/ui/page-header";
import { EmptyState, ErrorState, LoadingBlock } from "@/components/ui/states";
import { toneIcon } from "@/components/ui/status-badges";
import { RelativeTime } from "@/components/ui/time";
import type { Shoot } from "@/lib/ui/api-types";
import { historyEntries, type HistoryEntry } from "@/lib/ui/history-entries";
import { HISTORY_LIMIT, useShootHistory } from "./use-lifecycle-data";

export function ShootHistory({ shoot }: { shoot: Shoot }) {
  const history = useShootHistory(shoot);
  const entries = useMemo(() => (history.data ? historyEntries(history.data.items) : undefined), [history.data]);
  const auditLink = `/audit?namespace=${encodeURIComponent(shoot.metadata.namespace ?? "")}&name=${encodeURIComponent(shoot.metadata.name)}`;
  return (
    <Panel
      id="history"
      title="History"
      actions={
        <Link
          href={auditLink}
          className="text-xs font-medium text-accent-700 hover:underline focus-visible:outline-2 focus-visible:outline-accent-600"
        >
          Open in the audit log
        </Link>
      }
    >
      {history.error ? (
        <ErrorState
          title="The history could not be loaded"
          error={history.error}
          onRetry={() => void history.refetch()}
        />
      ) : !entries ? (
        <LoadingBlock label="Loading the history" lines={5} />
      ) : entries.length === 0 ? (
        <EmptyState title="Nothing has happened to this cluster yet">
          Maintenance runs and changes made through Almanac appear here as they happen.
        </EmptyState>
      ) : (
        <>
          <ol className="relative space-y-0">
            {entries.map((entry, i) => (
              <EntryItem key={entry.id} entry={entry} last={i === entries.length - 1} />
            ))}
          </ol>
          {history.data && history.data.items.length >= HISTORY_LIMIT && (
            <p className="mt-3 text-xs text-slate-500">
              Showing the latest {HISTORY_LIMIT} records; the audit log has everything.
            </p>
          )}
        </>
      )}
    </Panel>
  );
}

function ActorIcon({ entry }: { entry: HistoryEntry }) {
  const cls = "size-4";
  if (entry.source === "maintenance") return <Wrench aria-hidden className={cls} />;
  if (entry.actor.startsWith("system:")) return <Bot aria-hidden className={cls} />;
  if (entry.actor === "anonymous") return <ClipboardList aria-hidden className={cls} />;
  return <UserRound aria-hidden className={cls} />;
}

function EntryItem({ entry, last }: { entry: HistoryEntry; last: boolean }) {
  return (
    <li className="relative flex gap-3 pb-4">
      {!last && <span aria-hidden className="absolute left-[15px] top-8 bottom-0 w-px bg-slate-200" />}
      <span className="relative z-[1] mt-0.5 flex size-8 shrink-0 items-center justify-center rounded-full bg-slate-100 text-slate-600 ring-4 ring-white">
        <ActorIcon entry={entry} />
      </span>
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
          <p className="text-sm">
            <span className="font-medium text-slate-900">{entry.title}</span>
            <span className="text-slate-500"> by </span>
            <span className="text-slate-700">{entry.actor}</span>
          </p>
          <span className="flex items-center gap-2 text-xs text-slate-500">
            <Badge tone={entry.tone} icon={toneIcon(entry.tone)}>
              {entry.state}
            </Badge>
            <RelativeTime at={entry.at} className="whitespace-nowrap" />
          </span>
        </div>
        {entry.changes.length > 0 && (
          <ul className="mt-1.5 space-y-1 text-sm">
            {entry.changes.map((c, i) => (
              <li key={i} className="flex flex-wrap items-baseline gap-x-2">
                <span className="text-slate-600">{c.label}</span>
                <span className="min-w-0 font-mono text-[13px] text-slate-900 [overflow-wrap:anywhere]">
                  {c.from} <span aria-label="changed to">→</span> {c.to}
                </span>
                {c.reason && <span className="text-xs text-slate-500">{c.reason}</span>}
              </li>
            ))}
          </ul>
        )}
        {entry.changes.length === 0 && !entry.note && entry.source === "maintenance" && (
          <p className="mt-1 text-sm text-slate-500">No version had to change.</p>
        )}
        {entry.note && (
          <p className={`mt-1 break-words text-sm ${entry.tone === "red" ? "text-red-800" : "text-slate-600"}`}>
            {entry.note}
          </p>
        )}
      </div>
    </li>
  );
}
