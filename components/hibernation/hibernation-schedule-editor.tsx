"use client";

// The "Hibernation schedule" panel of the lifecycle page: Gardener's spec.hibernation.schedules
// (when to hibernate, when to wake up, each a cron line read in an IANA zone), edited as a list.
// As it is typed it says each schedule in words, the next hibernate and wake-up moments in local
// time and UTC, each field's problem (the engine's validation, and the server's 422 after a save),
// and what deserves a second look: a schedule that never wakes the cluster, nights that swallow
// the maintenance window, a HibernationPossible constraint that keeps Gardener from hibernating it.
// Saved as one merge patch guarded by the resourceVersion the edit started from (a 409 re-checks
// only the schedules, like the maintenance editor). Operators edit; below that role the list is
// shown read-only with the reason.
import { AlertTriangle, CheckCircle2, Moon, Plus, Sun } from "lucide-react";
import { useMemo, useState } from "react";
import { Button } from "@/components/ui/button";
import { Panel } from "@/components/ui/page-header";
import { SaveBar } from "@/components/ui/save-bar";
import { DualTime, useNow } from "@/components/ui/time";
import { usePermissions } from "@/components/use-permissions";
import { EditConflict } from "@/components/shoot/edit-conflict";
import { useShootChange } from "@/lib/client/use-shoot-change";
import { MINUTE_MS } from "@/lib/engine/time-units";
import type { Shoot } from "@/lib/ui/api-types";
import {
  emptyRow,
  firstBlocker,
  hasRowProblems,
  placeScheduleProblems,
  presetRow,
  PRESETS,
  rowProblems,
  rowsOf,
  sameSchedules,
  schedulesFromRows,
  schedulesOf,
  schedulesPatch,
  type HibernationSchedule,
  type RowProblems,
  type ScheduleField,
  type ScheduleRow,
} from "@/lib/ui/hibernation-form";
import { nextMoments, scheduleInWords, scheduleWarnings, type ScheduleWarning } from "@/lib/ui/hibernation-outlook";
import { browserTimeZone, timeZoneNames } from "@/lib/ui/time-zones";
import { ScheduleRowFields, ZONE_LIST_ID } from "./schedule-row-fields";

interface Base {
  readonly schedules: readonly HibernationSchedule[];
  readonly resourceVersion?: string;
}

const baseOf = (shoot: Shoot): Base => ({
  schedules: schedulesOf(shoot),
  resourceVersion: shoot.metadata.resourceVersion,
});

export function HibernationScheduleEditor({ shoot }: { shoot: Shoot }) {
  const namespace = shoot.metadata.namespace ?? "";
  const name = shoot.metadata.name;
  const change = useShootChange(namespace, name);
  const nowMs = useNow(MINUTE_MS);
  const now = useMemo(() => new Date(nowMs), [nowMs]);
  const { operate } = usePermissions(namespace);
  const locked = !operate.allowed && operate.known;

  const [base, setBase] = useState<Base>(() => baseOf(shoot));
  const [rows, setRows] = useState<ScheduleRow[]>(() => rowsOf(base.schedules));
  // Rows added empty say nothing about their fields until the person types in them.
  const [fresh, setFresh] = useState<ReadonlySet<string>>(new Set());
  const [zonesWanted, setZonesWanted] = useState(false);
  const zones = useMemo(() => (zonesWanted ? timeZoneNames() : []), [zonesWanted]);

  const schedules = schedulesFromRows(rows);
  const dirty = !sameSchedules(schedules, base.schedules);
  const saving = change.pending;
  const conflict = change.conflict;

  // Follow live changes while there is nothing of the person's to keep.
  const live = shoot.metadata.resourceVersion;
  if (!dirty && !conflict && !saving && live !== base.resourceVersion) {
    const next = baseOf(shoot);
    setBase(next);
    if (!sameSchedules(next.schedules, base.schedules)) setRows(rowsOf(next.schedules));
  }
  const theirs =
    dirty &&
    !conflict &&
    !saving &&
    live !== base.resourceVersion &&
    !sameSchedules(schedulesOf(shoot), base.schedules);

  // The engine's judgement as typed, and the server's refusal of the last save until edited.
  const typed = rowProblems(rows);
  const refused = change.refusal ? placeScheduleProblems(change.refusal.errors ?? [], rows.length) : undefined;
  const shown: RowProblems[] = rows.map((row, i) => ({
    ...(fresh.has(row.key) ? {} : typed.rows[i]),
    ...refused?.rows[i],
  }));
  const invalid = hasRowProblems(typed);
  const blocker = invalid ? firstBlocker(typed) : undefined;

  // The words, the moments and the warnings walk the crons over days to a year: computed again
  // only when the schedules (or the minute, or the window and constraints) change, not per render.
  const key = JSON.stringify(schedules);
  const timeWindow = shoot.spec.maintenance?.timeWindow;
  const constraints = shoot.status?.constraints;
  const words = useMemo(() => (JSON.parse(key) as HibernationSchedule[]).map((s) => scheduleInWords(s)), [key]);
  const moments = useMemo(() => nextMoments(JSON.parse(key) as HibernationSchedule[], now), [key, now]);
  const warnings = useMemo(
    () =>
      scheduleWarnings({ schedules: JSON.parse(key) as HibernationSchedule[], window: timeWindow, constraints, now }),
    [key, timeWindow, constraints, now],
  );
  const saved = change.result?.outcome === "saved" || change.result?.outcome === "applied";

  function edit(next: ScheduleRow[]) {
    if (change.error != null || saved) change.reset();
    setRows(next);
  }
  function editRow(key: string, patch: Partial<Record<ScheduleField, string>>) {
    setFresh((f) => {
      if (!f.has(key)) return f;
      const n = new Set(f);
      n.delete(key);
      return n;
    });
    edit(rows.map((r) => (r.key === key ? { ...r, ...patch } : r)));
  }
  function add(row: ScheduleRow, isFresh: boolean) {
    if (isFresh) setFresh((f) => new Set(f).add(row.key));
    edit([...rows, row]);
    // The new row's first field takes the focus, so the keyboard goes on where the eyes go.
    requestAnimationFrame(() => document.getElementById(`hibernation-${row.key}-start`)?.focus());
  }

  function rebase(current: Shoot, keepEdits: boolean) {
    const next = baseOf(current);
    setBase(next);
    if (!keepEdits) {
      setRows(rowsOf(next.schedules));
      setFresh(new Set());
    }
    change.reset();
  }

  function save() {
    change.reset();
    if (invalid || !dirty) return;
    const toSend = schedules;
    change.edit(
      {
        resourceVersion: base.resourceVersion,
        patch: (resourceVersion) => schedulesPatch(toSend, resourceVersion),
        part: schedulesOf,
        base: base.schedules,
        wanted: toSend,
        same: sameSchedules,
      },
      {
        onSuccess: (result) => {
          if (result.outcome !== "saved" && result.outcome !== "applied") return;
          const next = baseOf(result.shoot);
          setBase(next);
          setRows(rowsOf(next.schedules));
          setFresh(new Set());
        },
      },
    );
  }

  const otherRefusal =
    change.error != null &&
    !(refused && refused.rows.some((r) => Object.keys(r).length > 0)) &&
    [...(refused?.list ?? []), (change.error as Error).message][0];

  return (
    <Panel
      id="hibernation"
      title="Hibernation schedule"
      actions={
        <span className="inline-flex items-center gap-1 text-xs text-slate-500" data-testid="hibernation-now">
          {shoot.spec.hibernation?.enabled ? (
            <>
              <Moon aria-hidden className="size-3.5" /> Hibernated now
            </>
          ) : (
            <>
              <Sun aria-hidden className="size-3.5" /> Awake now
            </>
          )}
        </span>
      }
    >
      <form
        noValidate
        aria-label="Hibernation schedule"
        className="space-y-4"
        onSubmit={(e) => {
          e.preventDefault();
          save();
        }}
        onKeyDown={(e) => {
          // Escape undoes the edits (the inputs keep nothing of their own to close).
          if (e.key === "Escape" && dirty && !saving && (e.target as HTMLElement).tagName === "INPUT") {
            e.preventDefault();
            rebase(shoot, false);
          }
        }}
      >
        {conflict && (
          <EditConflict
            refused
            changes={["its hibernation schedules changed"]}
            detail={conflict.conflict.message}
            onReapply={() => rebase(conflict.current, true)}
            onDiscard={() => rebase(conflict.current, false)}
          />
        )}
        {theirs && (
          <EditConflict
            refused={false}
            changes={["its hibernation schedules changed"]}
            onReapply={() => rebase(shoot, true)}
            onDiscard={() => rebase(shoot, false)}
          />
        )}

        {rows.length === 0 ? (
          <p className="text-sm text-slate-600" data-testid="no-schedules">
            No schedule: the cluster hibernates and wakes up only when someone asks.
          </p>
        ) : (
          <ol className="space-y-3" aria-label="Schedules">
            {rows.map((row, i) => (
              <ScheduleRowFields
                key={row.key}
                row={row}
                index={i}
                problems={shown[i]}
                words={words[i]}
                locked={locked}
                onChange={(patch) => editRow(row.key, patch)}
                onRemove={() => {
                  edit(rows.filter((r) => r.key !== row.key));
                  // Focus stays in the panel: on the next row's first field, or on "Add".
                  const next = rows[i + 1] ?? rows[i - 1];
                  requestAnimationFrame(() =>
                    document.getElementById(next ? `hibernation-${next.key}-start` : "hibernation-add")?.focus(),
                  );
                }}
                onZoneListWanted={() => setZonesWanted(true)}
              />
            ))}
          </ol>
        )}
        <datalist id={ZONE_LIST_ID}>
          {zones.map((z) => (
            <option key={z} value={z} />
          ))}
        </datalist>
        <p id="hibernation-cron-hint" className="text-xs text-slate-500">
          Cron: minute hour day-of-month month day-of-week (0 or 7 is Sunday), read in the schedule&apos;s time zone.
        </p>

        {!locked && (
          <div className="flex flex-wrap items-center gap-2">
            <Button id="hibernation-add" onClick={() => add(emptyRow(browserTimeZone()), true)}>
              <Plus aria-hidden className="size-4" />
              Add schedule
            </Button>
            <span className="text-xs text-slate-500">or a preset:</span>
            {PRESETS.map((p) => (
              <Button
                key={p.id}
                variant="ghost"
                className="!px-2 text-xs ring-1 ring-inset ring-slate-200"
                title={p.hint}
                aria-label={`Add preset: ${p.label} (${p.hint})`}
                onClick={() => add(presetRow(p, browserTimeZone()), false)}
              >
                {p.label}
              </Button>
            ))}
          </div>
        )}

        <NextMoments hibernateAt={moments.hibernateAt} wakeAt={moments.wakeAt} any={rows.length > 0} />
        {warnings.length > 0 && <Warnings warnings={warnings} />}

        {otherRefusal && (
          <p role="alert" className="rounded-md bg-red-50 p-2.5 text-sm text-red-900 ring-1 ring-inset ring-red-600/20">
            <span className="font-semibold">Not saved. </span>
            {otherRefusal} Your input is kept.
          </p>
        )}
        {change.error != null && !otherRefusal && (
          <p role="alert" className="rounded-md bg-red-50 p-2.5 text-sm text-red-900 ring-1 ring-inset ring-red-600/20">
            <span className="font-semibold">Not saved. </span>
            The server refused a value; its reason is shown beside the field. Your input is kept.
          </p>
        )}
        {saved && !dirty && (
          <p
            role="status"
            className="flex items-start gap-2 rounded-md bg-emerald-50 p-2.5 text-sm text-emerald-900 ring-1 ring-inset ring-emerald-600/20"
          >
            <CheckCircle2 aria-hidden className="mt-0.5 size-4 shrink-0 text-emerald-600" />
            <span>
              Saved.
              {moments.hibernateAt || moments.wakeAt
                ? " Gardener hibernates and wakes the cluster at the moments above."
                : " The cluster now hibernates and wakes up only when someone asks."}
            </span>
          </p>
        )}

        <SaveBar
          idPrefix="hibernation"
          saveLabel="Save schedules"
          undoLabel="Cancel"
          allowance={operate}
          saving={saving}
          dirty={dirty}
          conflict={!!conflict}
          invalid={invalid}
          blocker={dirty ? blocker : undefined}
          onUndo={() => rebase(shoot, false)}
        />
      </form>
    </Panel>
  );
}

/** The next hibernate and wake-up moments, in local time and UTC. */
function NextMoments({ hibernateAt, wakeAt, any }: { hibernateAt?: Date; wakeAt?: Date; any: boolean }) {
  if (!any) return null;
  return (
    <dl
      className="grid grid-cols-1 gap-y-1.5 rounded-lg bg-slate-50 p-3 text-sm ring-1 ring-slate-200"
      data-testid="next-moments"
    >
      <div className="flex flex-wrap items-baseline gap-x-2">
        <dt className="inline-flex items-center gap-1 font-medium text-slate-800">
          <Moon aria-hidden className="size-3.5 self-center text-slate-500" />
          Next hibernation
        </dt>
        <dd data-testid="next-hibernation">
          {hibernateAt ? <DualTime at={hibernateAt} /> : <span className="text-slate-500">none</span>}
        </dd>
      </div>
      <div className="flex flex-wrap items-baseline gap-x-2">
        <dt className="inline-flex items-center gap-1 font-medium text-slate-800">
          <Sun aria-hidden className="size-3.5 self-center text-slate-500" />
          Next wake-up
        </dt>
        <dd data-testid="next-wake">
          {wakeAt ? <DualTime at={wakeAt} /> : <span className="text-slate-500">none</span>}
        </dd>
      </div>
    </dl>
  );
}

function Warnings({ warnings }: { warnings: readonly ScheduleWarning[] }) {
  return (
    <ul className="space-y-2" aria-label="Warnings">
      {warnings.map((w) => (
        <li
          key={w.kind}
          data-warning={w.kind}
          className="flex items-start gap-2 rounded-md bg-amber-50 p-2.5 text-sm text-amber-900 ring-1 ring-inset ring-amber-600/25"
        >
          <AlertTriangle aria-hidden className="mt-0.5 size-4 shrink-0 text-amber-600" />
          <span>{w.text}</span>
        </li>
      ))}
    </ul>
  );
}
