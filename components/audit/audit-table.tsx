"use client";

// The audit events as a table: when (relative, local and UTC on hover), who, what, on which
// object (a shoot links to its page), and each changed field as before → after.
import Link from "next/link";
import { ArrowRight, Bot, User } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { RelativeTime, useNow } from "@/components/ui/time";
import type { AuditEvent } from "@/lib/ui/api-types";
import { actionMeta, formatAuditValue, fullAuditValue } from "@/lib/ui/audit-format";
import { shootPage } from "@/lib/ui/page-links";
import { formatBoth, formatLocalShort } from "@/lib/ui/time";
import { ScrollBox } from "@/components/ui/scroll-box";

const SHOWN_CHANGES = 4;

// Below lg each event is a card: when and who, what and on what (in two columns on a phone, four
// from sm up), then the changes (the column headings stay for screen readers only).
const CARDS_BELOW_LG = [
  "max-lg:block max-lg:[&_thead]:sr-only max-lg:[&_tbody]:block",
  "max-lg:[&_tbody_tr]:grid max-lg:[&_tbody_tr]:grid-cols-2 max-lg:[&_tbody_tr]:py-2 sm:max-lg:[&_tbody_tr]:grid-cols-4",
  "max-lg:[&_td]:min-w-0 max-lg:[&_td]:py-1 max-lg:[&_td]:[overflow-wrap:anywhere] max-lg:[&_td:last-child]:col-span-full",
].join(" ");

export function AuditTable({ events }: { events: readonly AuditEvent[] }) {
  const now = useNow(30_000);
  return (
    <ScrollBox label="Audit events table" className="rounded-xl border border-slate-200 bg-white shadow-sm">
      <table className={`w-full text-left text-sm ${CARDS_BELOW_LG}`}>
        <caption className="sr-only">Audit events, newest first</caption>
        <thead className="border-b border-slate-200 bg-slate-50 text-xs font-medium uppercase tracking-wide text-slate-500">
          <tr>
            <th scope="col" className="px-4 py-2.5">
              When
            </th>
            <th scope="col" className="px-4 py-2.5">
              Actor
            </th>
            <th scope="col" className="px-4 py-2.5">
              Action
            </th>
            <th scope="col" className="px-4 py-2.5">
              Target
            </th>
            <th scope="col" className="px-4 py-2.5">
              Changes
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {events.map((e) => (
            <AuditRow key={e.id} event={e} now={now} />
          ))}
        </tbody>
      </table>
    </ScrollBox>
  );
}

function AuditRow({ event, now }: { event: AuditEvent; now: number }) {
  const meta = actionMeta(event.action);
  const system = event.actor.startsWith("system:");
  return (
    <tr className="align-top hover:bg-slate-50" data-action={event.action}>
      <td className="whitespace-nowrap px-4 py-2.5">
        <time dateTime={event.at} title={formatBoth(event.at)} className="text-slate-900">
          {formatLocalShort(event.at)}
        </time>
        <div className="text-xs text-slate-500">
          <RelativeTime at={event.at} now={now} />
        </div>
      </td>
      <td className="px-4 py-2.5">
        <span className="inline-flex items-center gap-1.5 text-slate-800">
          {system ? (
            <Bot aria-hidden className="size-3.5 text-slate-400" />
          ) : (
            <User aria-hidden className="size-3.5 text-slate-400" />
          )}
          <span className="break-all">{event.actor}</span>
        </span>
        {event.requestId && (
          <div className="mt-0.5 font-mono text-[11px] text-slate-500" title="Request id">
            {event.requestId}
          </div>
        )}
      </td>
      <td className="px-4 py-2.5">
        <Badge tone={meta.tone}>{meta.word}</Badge>
        <div className="mt-0.5 font-mono text-[11px] text-slate-500">{event.action}</div>
      </td>
      <td className="px-4 py-2.5">
        <Target target={event.target} />
      </td>
      <td className="px-4 py-2.5">
        <Changes changes={event.changes} />
      </td>
    </tr>
  );
}

function Target({ target }: { target: AuditEvent["target"] }) {
  if (target.kind === "Shoot" && target.namespace && target.name) {
    return (
      <div>
        <Link
          href={shootPage(target.namespace, target.name)}
          className="font-medium text-slate-900 hover:text-accent-700 hover:underline focus-visible:outline-2 focus-visible:outline-accent-600"
        >
          {target.name}
        </Link>
        <div className="text-xs text-slate-500">Shoot in {target.namespace}</div>
      </div>
    );
  }
  return (
    <div className="text-slate-800">
      {target.name ?? target.kind}
      {target.name && (
        <div className="text-xs text-slate-500">
          {target.kind}
          {target.namespace ? ` in ${target.namespace}` : ""}
        </div>
      )}
    </div>
  );
}

function Changes({ changes }: { changes: AuditEvent["changes"] }) {
  if (changes.length === 0) return <span className="text-slate-500">No field changes</span>;
  const shown = changes.slice(0, SHOWN_CHANGES);
  const rest = changes.slice(SHOWN_CHANGES);
  return (
    <div className="space-y-1">
      <ChangeList changes={shown} />
      {rest.length > 0 && (
        <details>
          <summary className="cursor-pointer text-xs font-medium text-accent-700 hover:underline focus-visible:outline-2 focus-visible:outline-accent-600">
            {rest.length} more {rest.length === 1 ? "change" : "changes"}
          </summary>
          <div className="mt-1">
            <ChangeList changes={rest} />
          </div>
        </details>
      )}
    </div>
  );
}

function ChangeList({ changes }: { changes: AuditEvent["changes"] }) {
  return (
    <ul className="space-y-1">
      {changes.map((c) => (
        <li key={c.field} className="text-xs leading-5">
          <span className="font-mono text-slate-600">{c.field}</span>:{" "}
          <span className="inline-flex flex-wrap items-center gap-1 align-middle">
            <code
              title={fullAuditValue(c.before)}
              className="rounded bg-slate-100 px-1 font-mono text-slate-700 ring-1 ring-inset ring-slate-500/15"
            >
              {formatAuditValue(c.before, 60)}
            </code>
            <ArrowRight aria-hidden className="size-3 text-slate-400" />
            <span className="sr-only">becomes</span>
            <code
              title={fullAuditValue(c.after)}
              className="rounded bg-accent-50 px-1 font-mono text-accent-700 ring-1 ring-inset ring-accent-600/20"
            >
              {formatAuditValue(c.after, 60)}
            </code>
          </span>
        </li>
      ))}
    </ul>
  );
}
