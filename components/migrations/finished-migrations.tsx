"use client";

// Finished migrations, most recent first: outcome, route, when and how long, and who asked.
import Link from "next/link";
import { ArrowRight, CheckCircle2, XCircle } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { DualTime, RelativeTime } from "@/components/ui/time";
import type { FleetMigration } from "@/lib/ui/api-types";
import { migrationDuration } from "@/lib/ui/migration-progress";
import { shootPage } from "@/lib/ui/page-links";
import { formatSpan } from "@/lib/ui/time";
import { ScrollBox } from "@/components/ui/scroll-box";

// Below lg each migration is a card: the shoot, then its seeds and outcome, when it finished and
// how long it took, who started it, each named (the column headings stay for screen readers only).
const CARDS_BELOW_LG = [
  "max-lg:block max-lg:[&_thead]:sr-only max-lg:[&_tbody]:block",
  "max-lg:[&_tbody_tr]:grid max-lg:[&_tbody_tr]:grid-cols-2 max-lg:[&_tbody_tr]:py-2 max-lg:[&_td]:px-4 max-lg:[&_td]:py-1",
  "max-lg:[&_td:first-child]:col-span-2 max-lg:[&_td:last-child]:col-span-2 max-lg:[&_td:nth-child(5)]:text-left",
  "max-lg:[&_td]:before:block max-lg:[&_td]:before:text-xs max-lg:[&_td]:before:font-medium max-lg:[&_td]:before:text-slate-500",
  "max-lg:[&_td:nth-child(4)]:before:content-['Finished'] max-lg:[&_td:nth-child(5)]:before:content-['Took']",
  "max-lg:[&_td:nth-child(6)]:before:content-['Started_by']",
].join(" ");

export function FinishedMigrations({
  migrations,
  now,
  limited,
}: {
  migrations: readonly FleetMigration[];
  now: number;
  limited?: number;
}) {
  return (
    <ScrollBox label="Past migrations table" className="-mx-4 -my-4 sm:-mx-5 sm:-my-5">
      <table className={`w-full text-left text-sm ${CARDS_BELOW_LG}`}>
        <caption className="sr-only">Finished migrations, most recent first</caption>
        <thead className="border-b border-slate-200 bg-slate-50 text-xs font-medium uppercase tracking-wide text-slate-500">
          <tr>
            <th scope="col" className="px-5 py-2.5">
              Shoot
            </th>
            <th scope="col" className="px-5 py-2.5">
              Seeds
            </th>
            <th scope="col" className="px-5 py-2.5">
              Outcome
            </th>
            <th scope="col" className="px-5 py-2.5">
              Finished
            </th>
            <th scope="col" className="px-5 py-2.5 text-right">
              Took
            </th>
            <th scope="col" className="px-5 py-2.5">
              Started by
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {migrations.map((m) => (
            <tr key={m.id} className="align-top hover:bg-slate-50" data-state={m.state} data-migration-id={m.id}>
              <td className="px-5 py-2.5">
                <Link
                  href={shootPage(m.namespace, m.name)}
                  className="font-medium text-slate-900 hover:text-accent-700 hover:underline focus-visible:outline-2 focus-visible:outline-accent-600"
                >
                  {m.name}
                </Link>
                <div className="text-xs text-slate-500">{m.namespace}</div>
              </td>
              <td className="whitespace-nowrap px-5 py-2.5 text-slate-800">
                <span className="inline-flex items-center gap-1.5">
                  {m.source}
                  <ArrowRight aria-hidden className="size-3.5 text-slate-400" />
                  <span className="sr-only">to</span>
                  {m.destination}
                </span>
              </td>
              <td className="px-5 py-2.5">
                {m.state === "Succeeded" ? (
                  <Badge tone="green" icon={<CheckCircle2 aria-hidden className="size-3.5" />}>
                    Succeeded
                  </Badge>
                ) : (
                  <Badge tone="red" icon={<XCircle aria-hidden className="size-3.5" />}>
                    Failed
                  </Badge>
                )}
                {m.state === "Failed" && (
                  <p className="mt-1 max-w-md text-xs text-red-800">
                    {m.lastOperation.description} Retry it from the shoot&apos;s page to resume at the failed step.
                  </p>
                )}
              </td>
              <td className="whitespace-nowrap px-5 py-2.5 text-slate-700">
                {m.finishedAt ? <DualTime at={m.finishedAt} now={now} /> : <span className="text-slate-500">–</span>}
              </td>
              <td className="whitespace-nowrap px-5 py-2.5 text-right tabular-nums text-slate-700">
                {m.startedAt ? formatSpan(migrationDuration(m, now)) : "–"}
              </td>
              <td className="px-5 py-2.5 text-slate-700">
                {m.actor}
                {m.startedAt && (
                  <div className="text-xs text-slate-500">
                    started <RelativeTime at={m.startedAt} now={now} />
                  </div>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {limited && (
        <p className="border-t border-slate-100 px-5 py-2 text-xs text-slate-500">
          Showing the {limited} most recent migrations.
        </p>
      )}
    </ScrollBox>
  );
}
