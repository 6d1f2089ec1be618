"use client";

// Forced updates as a table: when (local, UTC and relative), which shoot, what moves from which
// version to which, why, and whether the cluster will be stuck. Optionally grouped under day or
// week headings (the forecast page), or flat (a cloud profile's impact).
import Link from "next/link";
import { ArrowRight, Cpu, HardDrive, Snowflake, XCircle } from "lucide-react";
import { Fragment } from "react";
import { Badge } from "@/components/ui/badge";
import { DualTime } from "@/components/ui/time";
import type { ForecastAnswerItem as ForecastItem } from "@/lib/api/forecast";
import { shootPage } from "@/lib/ui/page-links";
import { RiskExplanationRow, RiskOutcome } from "./forecast-risk";
import { changeText, isMinorUpdate, kindText, shortReason, stuckExplanation, targetText } from "@/lib/ui/forecast-text";
import { ScrollBox } from "@/components/ui/scroll-box";
import { WhileHibernatedMark } from "@/components/hibernation/while-hibernated-mark";

/** The forecast's mark of an update that lands while the schedule keeps the cluster asleep. */
const whileHibernated = (item: ForecastItem) => item.whileHibernated === true;

export interface ForecastGroup {
  readonly id: string;
  readonly title: string;
  readonly items: readonly ForecastItem[];
  /** How many updates the group has in all, when the table shows only the first of them. */
  readonly total?: number;
}

/** "53 updates", or "100 of 337 updates" for a group the page shows in part. */
function groupCount(group: ForecastGroup): string {
  const total = group.total ?? group.items.length;
  const noun = total === 1 ? "update" : "updates";
  return total > group.items.length ? `${group.items.length} of ${total} ${noun}` : `${total} ${noun}`;
}

const itemKey = (i: ForecastItem) =>
  `${i.namespace}/${i.name}/${i.target}/${i.worker ?? ""}/${i.kind}/${i.from}/${i.at}`;

// Below lg each forced update is a card: when and which shoot, what and the change, why and the
// outcome, in two columns on a phone and three from sm up; a day's heading and a stuck update's
// explanation span the card (the column headings stay for screen readers only).
const CARDS_BELOW_LG = [
  "max-lg:block max-lg:[&_thead]:sr-only max-lg:[&_tbody]:block",
  "max-lg:[&_tbody_tr]:grid max-lg:[&_tbody_tr]:grid-cols-2 sm:max-lg:[&_tbody_tr]:grid-cols-3",
  "max-lg:[&_tbody_th]:col-span-full max-lg:[&_td[colspan]]:col-span-full max-lg:[&_tbody_tr:has(td)]:py-1.5",
  "max-lg:[&_td]:min-w-0 max-lg:[&_td]:py-1 max-lg:[&_td]:[overflow-wrap:anywhere]",
].join(" ");

export function ForecastTable({
  groups,
  now,
  caption,
  showProfile = false,
}: {
  groups: readonly ForecastGroup[];
  now: number;
  caption: string;
  showProfile?: boolean;
}) {
  const grouped = groups.length > 1 || groups[0]?.title !== "";
  return (
    <ScrollBox label="Forced updates table" className="rounded-xl border border-slate-200 bg-white shadow-sm">
      <table className={`w-full text-left text-sm ${CARDS_BELOW_LG}`}>
        <caption className="sr-only">{caption}</caption>
        <thead className="border-b border-slate-200 bg-slate-50 text-xs font-medium uppercase tracking-wide text-slate-500">
          <tr>
            <th scope="col" className="px-4 py-2.5">
              When
            </th>
            <th scope="col" className="px-4 py-2.5">
              Shoot
            </th>
            <th scope="col" className="px-4 py-2.5">
              What
            </th>
            <th scope="col" className="px-4 py-2.5">
              Change
            </th>
            <th scope="col" className="px-4 py-2.5">
              Why
            </th>
            <th scope="col" className="px-4 py-2.5">
              Outcome
            </th>
          </tr>
        </thead>
        <tbody>
          {groups.map((group) => (
            <Fragment key={group.id}>
              {grouped && (
                <tr id={`group-${group.id}`} className="border-t border-slate-200 bg-slate-50/70">
                  <th scope="colgroup" colSpan={6} className="px-4 py-1.5 text-xs font-semibold text-slate-700">
                    {group.title} <span className="font-normal text-slate-500">· {groupCount(group)}</span>
                  </th>
                </tr>
              )}
              {group.items.map((item) => (
                <ForecastRow key={itemKey(item)} item={item} now={now} showProfile={showProfile} />
              ))}
            </Fragment>
          ))}
        </tbody>
      </table>
    </ScrollBox>
  );
}

function ForecastRow({ item, now, showProfile }: { item: ForecastItem; now: number; showProfile: boolean }) {
  const minor = isMinorUpdate(item);
  return (
    <>
      <tr
        className={`border-t border-slate-100 align-top ${item.stuck ? "bg-red-50/60" : item.risk ? "bg-amber-50/60" : "hover:bg-slate-50"}`}
        data-forecast-item={item.cloudProfile}
        data-kind={item.kind}
        data-stuck={item.stuck || undefined}
        data-at-risk={item.risk ? true : undefined}
        data-held={item.held || undefined}
        data-while-hibernated={whileHibernated(item) || undefined}
        data-freeze={item.freeze?.id}
      >
        <td className="whitespace-nowrap px-4 py-2.5 text-slate-800">
          <DualTime at={item.at} now={now} />
          {whileHibernated(item) && (
            <div className="mt-0.5">
              <WhileHibernatedMark />
            </div>
          )}
        </td>
        <td className="px-4 py-2.5">
          <Link
            href={shootPage(item.namespace, item.name)}
            className="font-medium text-slate-900 hover:text-accent-700 hover:underline focus-visible:outline-2 focus-visible:outline-accent-600"
          >
            {item.name}
          </Link>
          <div className="text-xs text-slate-500">
            {item.namespace}
            {showProfile && <> · {item.cloudProfile}</>}
          </div>
        </td>
        <td className="px-4 py-2.5 text-slate-700">
          <span className="inline-flex items-center gap-1.5">
            {item.kind === "kubernetes" ? (
              <Cpu aria-hidden className="size-3.5 text-slate-400" />
            ) : (
              <HardDrive aria-hidden className="size-3.5 text-slate-400" />
            )}
            {kindText(item)}
          </span>
          <div className="text-xs text-slate-500">{targetText(item)}</div>
        </td>
        <td className="px-4 py-2.5">
          <span
            className="inline-flex items-center gap-1.5 whitespace-nowrap font-mono text-[13px] text-slate-900"
            aria-label={changeText(item)}
          >
            {item.from}
            <ArrowRight aria-hidden className="size-3.5 text-slate-400" />
            {item.to ?? <span className="font-sans text-red-700">no version</span>}
          </span>
          {minor && (
            <div className="mt-0.5">
              <Badge
                tone="amber"
                title="The update crosses a minor line: the control plane moves to the next Kubernetes minor."
              >
                Minor update
              </Badge>
            </div>
          )}
        </td>
        <td className="px-4 py-2.5 text-slate-700" title={item.message}>
          {shortReason(item.reason)}
        </td>
        <td className="px-4 py-2.5">
          {item.stuck ? (
            <Badge
              tone="red"
              icon={<XCircle aria-hidden className="size-3.5" />}
              title="No version qualifies: maintenance fails and the cluster stays on an expired version."
            >
              Stuck
            </Badge>
          ) : item.risk ? (
            <RiskOutcome risk={item.risk} />
          ) : (
            <span
              className="whitespace-nowrap text-xs text-slate-600"
              title={
                item.held
                  ? "The cluster runs the first version; the spec asks for the second, which this window's reconcile rolls out."
                  : "The maintenance controller moves it to the new version in this window."
              }
            >
              {item.held ? "Will roll out" : "Will update"}
            </span>
          )}
        </td>
      </tr>
      {item.stuck && (
        <tr className="bg-red-50/60">
          <td colSpan={6} className="px-4 pb-2.5 pt-0 text-xs text-red-800">
            <div data-stuck-explanation className="space-y-0.5 break-words">
              {stuckExplanation(item).map((line) => (
                <p key={line}>{line}</p>
              ))}
            </div>
          </td>
        </tr>
      )}
      {item.risk && <RiskExplanationRow risk={item.risk} columns={6} />}
      {item.freeze && <FreezeRow item={item} freeze={item.freeze} />}
    </>
  );
}

/**
 * A forced update inside a freeze: Gardener makes it anyway (a freeze stops only what Almanac
 * starts), so the row says so and how to move it before the freeze, with the shoot's page.
 */
function FreezeRow({ item, freeze }: { item: ForecastItem; freeze: NonNullable<ForecastItem["freeze"]> }) {
  return (
    <tr className="bg-accent-50/40" data-freeze-note={freeze.id}>
      <td colSpan={6} className="px-4 pb-2.5 pt-0 text-xs text-slate-700">
        <span className="inline-flex flex-wrap items-center gap-x-1.5">
          <Badge tone="blue" icon={<Snowflake aria-hidden className="size-3.5" />}>
            Inside a freeze
          </Badge>
          <span>
            <Link href="/freezes" className="font-medium text-accent-700 underline">
              {freeze.reason}
            </Link>{" "}
            ({freeze.project === null ? "whole landscape" : `project ${freeze.project}`}, from{" "}
            <DualTime at={freeze.start} relative={false} />
            ). Gardener forces this update anyway: to move it before the freeze,{" "}
            <Link href={shootPage(item.namespace, item.name)} className="font-medium text-accent-700 underline">
              open {item.name}
            </Link>{" "}
            and update it now, maintain it now, or change its maintenance window.
          </span>
        </span>
      </td>
    </tr>
  );
}
