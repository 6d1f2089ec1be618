"use client";

// The cells of one fleet row. Each shows the state as a word or icon, never by colour alone.
import Link from "next/link";
import { CalendarX2, Check, Clock, Minus, UserRoundX } from "lucide-react";
import { FleetHibernationNote } from "@/components/hibernation/fleet-hibernation-note";
import { Badge } from "@/components/ui/badge";
import { ProgressBar } from "@/components/ui/progress";
import { ClassificationBadge, ConditionChips, StatusBadge, toneIcon } from "@/components/ui/status-badges";
import type { ShootRow } from "@/lib/ui/api-types";
import { shootPage } from "@/lib/ui/page-links";
import { UpdateRiskLine } from "./update-risk-line";
import { rolloutChangeOf, rolloutTitle, type RolloutChange, type VersionRollout } from "@/lib/ui/version-rollout-text";
import { errorCodeInfo } from "@/lib/ui/error-codes";
import { CLASSIFICATION_META, type Classification } from "@/lib/ui/status";
import {
  daysUntil,
  formatBoth,
  formatDate,
  formatLocalShort,
  formatRelativeShort,
  formatUtcShort,
} from "@/lib/ui/time";

/** `timing`: an Element Timing name, so npm run bench:ui can read when the first row was painted. */
export function NameCell({
  row,
  timing,
  now,
  mounted = true,
}: {
  row: ShootRow;
  timing?: string;
  /** For the hibernation note's times ("wakes Mon 07:00"): the table's clock, and whether it runs in the browser. */
  now: number;
  mounted?: boolean;
}) {
  return (
    <div className="min-w-0">
      <Link
        href={shootPage(row.namespace, row.name)}
        prefetch={false}
        {...(timing ? { elementtiming: timing } : {})}
        className="block truncate font-medium text-slate-900 hover:text-accent-700 hover:underline focus-visible:outline-2 focus-visible:outline-accent-600"
      >
        {row.name}
      </Link>
      <div className="flex items-center gap-1 truncate text-xs text-slate-500">
        <FleetHibernationNote row={row} now={now} mounted={mounted} />
        <span title={`Project ${row.project ?? "unknown"}, namespace ${row.namespace}`}>
          {row.project ?? row.namespace}
        </span>
        {row.purpose && <span>· {row.purpose}</span>}
      </div>
    </div>
  );
}

export function StatusCell({ row }: { row: ShootRow }) {
  const op = row.lastOperation;
  const running = op && (op.state === "Processing" || op.state === "Pending");
  const code = row.lastErrorCodes[0];
  return (
    <div className="min-w-0 space-y-1">
      <StatusBadge label={row.statusLabel} />
      {running ? (
        <div title={`${op.type} ${op.state} (${op.progress}%): ${op.description}`}>
          <div className="mb-0.5 text-[11px] text-slate-600">
            {op.type} {op.progress}%
          </div>
          <ProgressBar value={op.progress ?? 0} label={`${op.type} progress`} />
        </div>
      ) : code ? (
        <div
          className="flex items-center gap-1 truncate text-[11px] text-slate-600"
          title={`${code}: ${errorCodeInfo(code).description}`}
        >
          {errorCodeInfo(code).kind === "user" ? (
            <UserRoundX aria-hidden className="size-3 shrink-0 text-red-600" />
          ) : (
            <Clock aria-hidden className="size-3 shrink-0 text-slate-500" />
          )}
          <span className="truncate">
            {errorCodeInfo(code).short}
            {errorCodeInfo(code).kind === "user" ? " · action needed" : " · retrying"}
          </span>
        </div>
      ) : op?.state === "Failed" ? (
        <div className="truncate text-[11px] text-red-700" title={op.description}>
          {op.type} failed
        </div>
      ) : null}
    </div>
  );
}

export function ConditionsCell({ row }: { row: ShootRow }) {
  return row.conditions.length ? (
    <ConditionChips conditions={row.conditions} />
  ) : (
    <span className="text-xs text-slate-500">No conditions yet</span>
  );
}

export function KubernetesCell({ row }: { row: ShootRow }) {
  const k = row.kubernetes;
  const change = rolloutChangeOf(row.rollout, "controlPlane", "kubernetes");
  return (
    <div className="flex flex-wrap items-center gap-1 lg:flex-col lg:items-start">
      {change && row.rollout ? (
        <PendingVersion change={change} rollout={row.rollout} windowBegin={row.nextMaintenance?.at} />
      ) : (
        <span className="font-mono text-sm text-slate-900">{k.version}</span>
      )}
      {k.classification && <ClassificationBadge classification={k.classification} />}
    </div>
  );
}

/** What runs, then the asked version and when it will run ("1.32.7 → 1.33.6 next window"). */
function PendingVersion({
  change,
  rollout,
  windowBegin,
}: {
  change: RolloutChange;
  rollout: VersionRollout;
  windowBegin?: string;
}) {
  return (
    // One line, as the row's height allows: the running version, then the asked one, smaller.
    <span
      data-testid="pending-version"
      className="inline-flex items-baseline gap-x-1 whitespace-nowrap"
      title={rolloutTitle(change, rollout, rollout.when === "window" ? windowBegin : undefined)}
    >
      <span className="font-mono text-sm text-slate-900">{change.running}</span>
      <span className="sr-only">
        runs now; asked for the {rollout.when === "window" ? "next window" : "reconcile"}:
      </span>
      <span aria-hidden className="text-xs text-slate-500">
        →
      </span>
      <span className="font-mono text-xs text-sky-800">{change.asked}</span>
    </span>
  );
}

export function ExpiryCell({ row, now }: { row: ShootRow; now: number }) {
  const e = row.earliestExpiry;
  if (!e)
    return (
      <span
        className="inline-flex items-center gap-1 text-xs text-slate-500"
        title="No version this cluster uses has an expiration date."
      >
        <Minus aria-hidden className="size-3" />
        Never
      </span>
    );
  const days = daysUntil(e.at, now);
  const tone =
    days < 0 ? "text-red-700" : days <= 7 ? "text-red-700" : days <= 30 ? "text-amber-800" : "text-slate-700";
  return (
    <div
      className="min-w-0"
      title={`${e.version} ${days < 0 ? "expired" : "expires"} ${formatDate(e.at)} (${formatBoth(e.at)}). The first maintenance window after that date forces an update.`}
    >
      <div className={`flex items-center gap-1 text-sm font-medium ${tone}`}>
        {days <= 30 && <CalendarX2 aria-hidden className="size-3.5 shrink-0" />}
        <time dateTime={e.at}>
          {days < 0 ? `expired ${formatRelativeShort(e.at, now)}` : formatRelativeShort(e.at, now)}
        </time>
      </div>
      <div className="truncate text-xs text-slate-500">
        {e.version} · {formatDate(e.at)}
      </div>
      {/* The forced update is near or overdue: say when the shoot's record speaks against it. */}
      {row.updateRisk && days <= 30 && <UpdateRiskLine risk={row.updateRisk} />}
    </div>
  );
}

export function ImagesCell({ row }: { row: ShootRow }) {
  const shown = row.workers.slice(0, 2);
  return (
    <ul className="min-w-0 space-y-0.5 text-xs">
      {shown.map((w) => {
        const meta = CLASSIFICATION_META[w.image?.classification as Classification];
        return (
          <li
            key={w.name}
            className="flex items-center gap-1 truncate"
            title={`Pool ${w.name} (${w.machineType}, ${w.minimum}–${w.maximum} nodes): ${w.image?.name} ${w.image?.version}, ${meta?.word ?? w.image?.classification}${w.image?.expiresAt ? `, expires ${formatDate(w.image?.expiresAt)}` : ""}${heldImageNote(row, w.name)}`}
          >
            <span className={meta ? TONE_TEXT[meta.tone] : ""}>{meta && toneIcon(meta.tone)}</span>
            <span className="sr-only">{meta?.word}</span>
            <span className="truncate text-slate-700">
              <span className="font-medium text-slate-900">{w.name}:</span>{" "}
              {w.image ? (
                <PoolImage row={row} pool={w.name} image={w.image} />
              ) : (
                <span className="text-slate-500">the profile's default image</span>
              )}
            </span>
          </li>
        );
      })}
      {row.workers.length > 2 && <li className="text-slate-500">+{row.workers.length - 2} more pools</li>}
      {row.workers.length === 0 && <li className="text-slate-500">No worker pools</li>}
    </ul>
  );
}

const TONE_TEXT = {
  green: "text-emerald-600",
  blue: "text-sky-600",
  amber: "text-amber-600",
  red: "text-red-600",
  grey: "text-slate-500",
  violet: "text-violet-600",
} as const;

export function MaintenanceCell({ row, now }: { row: ShootRow; now: number }) {
  const next = row.nextMaintenance;
  return (
    <div className="min-w-0 text-xs">
      {next ? (
        <div title={`Next maintenance: ${formatBoth(next.at)}`}>
          <div className="text-sm text-slate-900">
            <time dateTime={next.at}>{formatLocalShort(next.at)}</time>
          </div>
          <div className="whitespace-nowrap text-slate-500">
            {formatUtcShort(next.at)} · {formatRelativeShort(next.at, now)}
          </div>
        </div>
      ) : (
        <span className="text-slate-500">Not maintained</span>
      )}
      {row.rolloutPending && (
        <Badge tone="blue" className="mt-0.5" title="confineSpecUpdateRollout: spec changes wait for this window.">
          Rollout pending
        </Badge>
      )}
    </div>
  );
}

export function AutoUpdateCell({ row }: { row: ShootRow }) {
  const a = row.maintenance.autoUpdate ?? {};
  return (
    <div className="flex flex-col gap-0.5 text-xs">
      <Flag
        on={a.kubernetesVersion ?? true}
        label="K8s patch"
        hint="Automatic Kubernetes patch updates in the maintenance window"
      />
      <Flag
        on={a.machineImageVersion ?? true}
        label="Images"
        hint="Automatic machine image updates in the maintenance window"
      />
    </div>
  );
}

function Flag({ on, label, hint }: { on: boolean; label: string; hint: string }) {
  return (
    <span
      className={`inline-flex items-center gap-1 ${on ? "text-slate-700" : "text-slate-500"}`}
      title={`${hint}: ${on ? "on" : "off"}`}
    >
      {on ? <Check aria-hidden className="size-3 text-emerald-600" /> : <Minus aria-hidden className="size-3" />}
      {label} <span className="sr-only">{on ? "on" : "off"}</span>
    </span>
  );
}

export function SeedCell({ row }: { row: ShootRow }) {
  return (
    <div className="min-w-0 text-xs">
      <div className="truncate text-sm text-slate-800">
        {row.seed ?? <span className="text-slate-500">Not scheduled</span>}
      </div>
      <div className="truncate text-slate-500">
        {/* A namespaced profile's shoot: the project's profile, after the one it extends. */}
        {row.cloudProfile}
        {row.namespacedCloudProfile &&
          row.namespacedCloudProfile !== row.cloudProfile &&
          ` › ${row.namespacedCloudProfile}`}{" "}
        · {row.region}
      </div>
    </div>
  );
}

/** A pool's image, or what it runs and the asked version when that is not rolled out yet. */
function PoolImage({ row, pool, image }: { row: ShootRow; pool: string; image: { name: string; version?: string } }) {
  const change = rolloutChangeOf(row.rollout, pool, "machineImage");
  if (!change || !row.rollout)
    return (
      <>
        {image.name} <span className="font-mono">{image.version}</span>
      </>
    );
  return (
    <span data-testid="pending-image">
      {/* The versions, without the image's name when it stays (the column is narrow); an image of
          another name runs as "<name> <version>". */}
      <span className="font-mono">{change.running}</span>
      <span className="sr-only"> runs now; asked:</span>
      <span aria-hidden> → </span>
      <span className="font-mono text-sky-800">{change.asked}</span>
    </span>
  );
}

/** For a pool image's title: what runs when the spec asks for another version. */
function heldImageNote(row: ShootRow, pool: string): string {
  const change = rolloutChangeOf(row.rollout, pool, "machineImage");
  if (!change || !row.rollout) return "";
  return `. It runs ${change.running} still: ${row.rollout.when === "window" ? "the next window rolls the asked version out" : "its reconcile rolls the asked version out"}.`;
}
