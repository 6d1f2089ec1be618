"use client";

// /freezes: the calendar of freeze periods, by time with now marked: those in force and to come
// first (each with the forced updates Gardener will still make inside it, linked to their shoots
// and with how to move them before the freeze), then past ones. People who may change what a
// freeze covers make (a form with its field problems) and remove (confirmed) them here.
import { queryOptions, useQuery } from "@tanstack/react-query";
import { AlertTriangle, Plus, Snowflake, Trash2 } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { PageHeader, Panel } from "@/components/ui/page-header";
import { EmptyState, ErrorState, LoadingBlock } from "@/components/ui/states";
import { DualTime, useMounted, useNow } from "@/components/ui/time";
import { listFreezes } from "@/lib/api/operations/freezes";
import type { FreezeJson } from "@/lib/api/freezes";
import { allows, allowsSomewhere } from "@/lib/api/roles";
import { meQuery } from "@/lib/client/queries";
import { queryKeys } from "@/lib/client/query-keys";
import { call } from "@/lib/ui/call";
import { changeText, kindText } from "@/lib/ui/forecast-text";
import { forcedInsideText, freezeLength, MOVE_BEFORE_FREEZE } from "@/lib/ui/freeze-text";
import { shootPage } from "@/lib/ui/page-links";
import type { Tone } from "@/lib/ui/status";
import { CreateFreezeDialog } from "./create-freeze-dialog";
import { DeleteFreezeDialog } from "./delete-freeze-dialog";

// The list at once; the forced updates inside each freeze after it (they need the forecast's
// facts up to date, which the first read after a big change computes).
const freezesQuery = queryOptions({
  queryKey: queryKeys.freezes,
  queryFn: ({ signal }) => call(listFreezes, {}, { signal }),
  refetchInterval: 60_000,
});
const forcedQuery = queryOptions({
  queryKey: queryKeys.freezesWithForced,
  queryFn: ({ signal }) => call(listFreezes, { query: { forcedUpdates: "true" } }, { signal }),
  refetchInterval: 60_000,
});

const STATES: Record<FreezeJson["state"], { word: string; tone: Tone }> = {
  current: { word: "In force now", tone: "blue" },
  upcoming: { word: "Upcoming", tone: "grey" },
  past: { word: "Past", tone: "grey" },
};

export function FreezesPage() {
  const freezes = useQuery(freezesQuery);
  const me = useQuery(meQuery);
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<FreezeJson>();
  // Whoever may change some project's shoots may freeze it; admins also the whole landscape.
  const mayCreate = me.data === undefined || allowsSomewhere(me.data.bindings, "operate");
  const create = (
    <div className="flex flex-col items-end gap-1">
      <Button
        variant="primary"
        onClick={() => setCreating(true)}
        disabled={!mayCreate}
        aria-describedby={mayCreate ? undefined : "freeze-needs-role"}
      >
        <Plus aria-hidden className="size-4" /> New freeze
      </Button>
      {!mayCreate && (
        <p id="freeze-needs-role" className="text-xs text-slate-500">
          Needs the operator role on a project (admin for the whole landscape).
        </p>
      )}
    </div>
  );
  const ahead = freezes.data?.items.filter((f) => f.state !== "past") ?? [];
  const past = freezes.data?.items.filter((f) => f.state === "past") ?? [];

  return (
    <div className="space-y-6">
      <PageHeader
        title="Freezes"
        description="Periods in which Almanac starts no bulk action and no update run stage, for the whole landscape or one project."
        actions={create}
      />
      <GardenerNote />
      <Panel title="Now and upcoming" id="freezes-ahead">
        {freezes.isPending ? (
          <LoadingBlock label="Loading freezes" lines={5} />
        ) : freezes.isError ? (
          <ErrorState
            title="The freezes could not be loaded"
            error={freezes.error}
            onRetry={() => void freezes.refetch()}
          />
        ) : (
          <ol className="space-y-4" aria-label="Freezes in force and to come, by start">
            <NowLine />
            {ahead.length === 0 ? (
              <li>
                <EmptyState title="No freeze ahead" action={mayCreate ? create : undefined}>
                  Add one for a release, an audit or the holidays: bulk actions and update runs then wait for its end.
                </EmptyState>
              </li>
            ) : (
              ahead.map((freeze) => <FreezeCard key={freeze.id} freeze={freeze} onDelete={setDeleting} />)
            )}
          </ol>
        )}
      </Panel>
      {past.length > 0 && (
        <Panel title={`Past freezes (${past.length})`} id="freezes-past">
          <ol className="space-y-3" aria-label="Past freezes, the latest first">
            {past.map((freeze) => (
              <FreezeCard key={freeze.id} freeze={freeze} onDelete={setDeleting} />
            ))}
          </ol>
        </Panel>
      )}
      <CreateFreezeDialog open={creating} onClose={() => setCreating(false)} />
      <DeleteFreezeDialog freeze={deleting} onClose={() => setDeleting(undefined)} />
    </div>
  );
}

/** Said plainly: a freeze cannot hold Gardener back, and how to move a cluster before one. */
function GardenerNote() {
  return (
    <div
      role="note"
      className="flex gap-3 rounded-xl border border-amber-200 bg-amber-50 p-4 text-sm text-amber-900"
      data-testid="gardener-note"
    >
      <AlertTriangle aria-hidden className="mt-0.5 size-5 shrink-0 text-amber-600" />
      <div className="space-y-1">
        <p className="font-semibold">Gardener cannot be stopped from forcing the update of an expired version.</p>
        <p>
          A freeze stops what Almanac starts, not Gardener&apos;s maintenance: a cluster whose Kubernetes or machine
          image version expires is moved to a newer one in its next maintenance window, freeze or not. Each freeze below
          lists those updates. To move one before the freeze, open the cluster and {MOVE_BEFORE_FREEZE[0]},{" "}
          {MOVE_BEFORE_FREEZE[1]}, or {MOVE_BEFORE_FREEZE[2]}.
        </p>
      </div>
    </div>
  );
}

function NowLine() {
  const now = useNow(30_000);
  const mounted = useMounted();
  return (
    <li className="flex items-center gap-3 text-xs font-medium text-accent-700" data-testid="now-line">
      <span className="h-px flex-1 bg-accent-600" aria-hidden />
      <span className="inline-flex flex-wrap items-baseline gap-x-2">
        Now{mounted && <DualTime at={now} relative={false} />}
      </span>
      <span className="h-px flex-1 bg-accent-600" aria-hidden />
    </li>
  );
}

function FreezeCard({ freeze, onDelete }: { freeze: FreezeJson; onDelete: (f: FreezeJson) => void }) {
  const me = useQuery(meQuery);
  const state = STATES[freeze.state];
  const mayDelete =
    me.data === undefined ||
    allows(me.data.bindings, freeze.project === null ? "administer" : "operate", freeze.project ?? undefined);
  const withForced = useQuery({ ...forcedQuery, enabled: freeze.state !== "past" });
  const forced = withForced.data?.items.find((f) => f.id === freeze.id)?.forcedUpdates;
  return (
    <li
      className={`rounded-lg border p-4 ${freeze.state === "current" ? "border-accent-600 bg-accent-50/40" : "border-slate-200"}`}
      data-freeze={freeze.id}
      data-state={freeze.state}
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 space-y-1">
          <div className="flex flex-wrap items-center gap-2">
            <Snowflake aria-hidden className="size-4 text-accent-600" />
            <h3 className="break-words font-semibold text-slate-900">{freeze.reason}</h3>
            <Badge tone={state.tone}>{state.word}</Badge>
            <Badge tone={freeze.project === null ? "amber" : "grey"}>
              {freeze.project === null ? "Whole landscape" : `Project ${freeze.project}`}
            </Badge>
          </div>
          <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-sm text-slate-700">
            <dt className="text-slate-500">From</dt>
            <dd>
              <DualTime at={freeze.start} />
            </dd>
            <dt className="text-slate-500">Until</dt>
            <dd>
              <DualTime at={freeze.end} />
            </dd>
            <dt className="text-slate-500">Lasts</dt>
            <dd>{freezeLength(freeze.start, freeze.end)}</dd>
            <dt className="text-slate-500">Made by</dt>
            <dd className="break-all">{freeze.createdBy}</dd>
          </dl>
        </div>
        <Button
          variant="ghost"
          className="text-red-700 hover:bg-red-50"
          onClick={() => onDelete(freeze)}
          disabled={!mayDelete}
          title={
            mayDelete
              ? undefined
              : freeze.project === null
                ? "Removing a landscape-wide freeze needs the admin role on the whole landscape."
                : `Removing it needs the operator role on project ${freeze.project}.`
          }
          aria-label={`Delete the freeze ${freeze.reason}`}
        >
          <Trash2 aria-hidden className="size-4" /> Delete
        </Button>
      </div>
      {freeze.state !== "past" &&
        (forced ? (
          <ForcedInside freeze={freeze} forced={forced} />
        ) : withForced.isError ? (
          <p className="mt-3 border-t border-slate-100 pt-3 text-sm text-red-800">
            The forced updates inside this freeze could not be read.{" "}
            <button type="button" className="underline" onClick={() => void withForced.refetch()}>
              Try again
            </button>
          </p>
        ) : withForced.isPending || withForced.isFetching ? (
          <div className="mt-3 border-t border-slate-100 pt-3">
            <LoadingBlock label="Finding the forced updates inside this freeze" lines={2} />
          </div>
        ) : null)}
    </li>
  );
}

function ForcedInside({ freeze, forced }: { freeze: FreezeJson; forced: NonNullable<FreezeJson["forcedUpdates"]> }) {
  return (
    <div className="mt-3 border-t border-slate-100 pt-3 text-sm" data-testid="forced-inside">
      <p className={forced.total > 0 ? "font-medium text-amber-900" : "text-slate-600"}>
        {forcedInsideText(forced.total, forced.shoots)}
        {forced.total > 0 && (
          <span className="font-normal text-slate-700">
            {" "}
            Move them before <DualTime at={freeze.start} relative={false} />.
          </span>
        )}
      </p>
      {forced.items.length > 0 && (
        <ul className="mt-2 divide-y divide-slate-100 rounded-md ring-1 ring-slate-200">
          {forced.items.map((item) => (
            <li
              key={`${item.namespace}/${item.name}/${item.at}/${item.target}/${item.worker ?? ""}`}
              className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 px-3 py-2"
              data-forced-item={`${item.namespace}/${item.name}`}
            >
              <span className="min-w-0">
                <Link
                  href={shootPage(item.namespace, item.name)}
                  className="font-medium text-slate-900 hover:text-accent-700 hover:underline focus-visible:outline-2 focus-visible:outline-accent-600"
                >
                  {item.name}
                </Link>{" "}
                <span className="text-xs text-slate-500">{item.namespace}</span>
                <span className="block text-xs text-slate-600">
                  {kindText(item)}: {changeText(item)}
                  {item.stuck && " (stuck: no version to move to)"}
                </span>
              </span>
              <span className="text-xs text-slate-700">
                <DualTime at={item.at} />
              </span>
            </li>
          ))}
        </ul>
      )}
      {forced.total > forced.items.length && (
        <p className="mt-2 text-xs text-slate-500">
          The first {forced.items.length} of {forced.total}; the{" "}
          <Link href="/forecast" className="text-accent-700 underline">
            forecast
          </Link>{" "}
          marks every one.
        </p>
      )}
    </div>
  );
}
