"use client";

// The "Maintenance" panel: the window on the clock of a named time zone, the automatic updates,
// and confineSpecUpdateRollout, saved as one merge patch guarded by the resourceVersion the edit
// started from. The window is judged as it is typed, by the engine's rules (30 minutes to 6 hours)
// in words beside the field, and Save stays off, saying why, while anything is invalid; a refusal
// of the server's appears beside the field too.
// Nothing typed is ever lost: not on a refusal, and not when someone else saved first. Saving
// needs the operator role on the cluster's project: below it, the times and switches are disabled
// and the reason stands beside the save button (the time zone stays free: it only changes the view).
import { CheckCircle2, Info } from "lucide-react";
import { useMemo, useState } from "react";
import { reasonId } from "@/components/ui/not-allowed";
import { SaveBar } from "@/components/ui/save-bar";
import { usePermissions } from "@/components/use-permissions";
import { Panel } from "@/components/ui/page-header";
import { DualTime, RelativeTime, useNow } from "@/components/ui/time";
import { MINUTE_MS } from "@/lib/engine/time-units";
import { useShootChange } from "@/lib/client/use-shoot-change";
import type { Shoot } from "@/lib/ui/api-types";
import {
  describeSettingChanges,
  formEdits,
  formFromSettings,
  formWindow,
  hasEdits,
  hasProblems,
  maintenancePatch,
  readableWindowMessage,
  reapplyEdits,
  sameSettings,
  windowPreview,
  windowTouched,
  type MaintenanceForm,
  type MaintenanceSettings,
  zoneProblem as zoneProblemOf,
} from "@/lib/ui/maintenance-form";
import { clockSpan, formatClock, parseClock } from "@/lib/ui/maintenance-window";
import { browserTimeZone, isTimeZone } from "@/lib/ui/time-zones";
import { EditConflict } from "./edit-conflict";
import { MaintenanceToggles } from "./maintenance-toggles";
import { MaintenanceWindowFields } from "./maintenance-window-fields";
import { StoredWindowLine, WindowPreview } from "./maintenance-window-preview";
import { useShootPart } from "./use-shoot";
import { getMaintenancePlan } from "@/lib/api/operations/shoots";

const settingsOf = (shoot: Shoot): MaintenanceSettings => shoot.spec.maintenance ?? {};

/**
 * What the form was filled from: the settings, the resourceVersion that guards the save, and the
 * moment it was filled. The stored window's fixed offset is read on the zone's clock at that
 * moment; comparing the form with the base at that same moment (not at a clock that ticks on)
 * keeps an untouched window untouched across a daylight saving change.
 */
interface Base {
  readonly settings: MaintenanceSettings;
  readonly resourceVersion?: string;
  readonly filledAt: Date;
}

export function MaintenanceEditor({ shoot }: { shoot: Shoot }) {
  const namespace = shoot.metadata.namespace ?? "";
  const name = shoot.metadata.name;
  const change = useShootChange(namespace, name);
  const nowMs = useNow(MINUTE_MS);
  const at = useMemo(() => new Date(nowMs), [nowMs]);
  const plan = useShootPart(getMaintenancePlan, namespace, name);
  const { operate } = usePermissions(namespace);
  // Known to be refused: nothing to edit. Not yet known: the fields stay as they are, only saving waits.
  const locked = !operate.allowed && operate.known;
  const notAllowed = reasonId("maintenance-not-allowed", operate);

  const [base, setBase] = useState<Base>(() => ({
    settings: settingsOf(shoot),
    resourceVersion: shoot.metadata.resourceVersion,
    filledAt: new Date(),
  }));
  const [form, setForm] = useState<MaintenanceForm>(() =>
    formFromSettings(base.settings, browserTimeZone(), base.filledAt),
  );
  const [zoneText, setZoneText] = useState(form.zone);
  const [reapplied, setReapplied] = useState(false);
  // Whether the last save moved the window ("the next maintenance moves to" or "stays at").
  const [savedMoved, setSavedMoved] = useState(false);
  const saving = change.pending;
  const serverError = change.error;
  // Someone else saved other settings first: what they changed, in words, and the server's 409.
  const conflict = change.conflict && {
    current: change.conflict.current,
    changes: describeSettingChanges(base.settings, settingsOf(change.conflict.current), form.zone, at),
    detail: change.conflict.conflict.message,
  };
  // The next run, read again before the save settles (the hook refreshes the shoot's parts).
  const saved = change.result?.outcome === "saved" ? { at: plan.data?.at, moved: savedMoved } : null;
  const forgetSaved = () => {
    if (saved) change.reset();
  };

  const edits = formEdits(form, base.settings, base.filledAt);
  const touched = windowTouched(form, base.settings, base.filledAt);
  const dirty = hasEdits(edits) || touched || zoneText !== form.zone;

  // Follow live changes while there is nothing of the user's to keep (adjusting state while
  // rendering, as React recommends for state derived from props).
  const live = shoot.metadata.resourceVersion;
  if (!dirty && !conflict && !saving && live !== base.resourceVersion) {
    setBase({ settings: settingsOf(shoot), resourceVersion: live, filledAt: at });
    setForm(formFromSettings(settingsOf(shoot), form.zone, at, form.mode));
  }
  // Someone saved other settings while the user edits: say so now rather than at the save.
  const theirs =
    dirty && !conflict && !saving && live !== base.resourceVersion
      ? describeSettingChanges(base.settings, settingsOf(shoot), form.zone, at)
      : [];

  // Judged as typed: the zone always (it reads every time), the times once the user touched them.
  const local = formWindow(form, base.filledAt).problems;
  const zoneProblem = zoneProblemOf(zoneText);
  const windowProblems = touched ? { start: local.start, end: local.end, duration: local.duration } : {};
  const invalid = !!zoneProblem || hasProblems(windowProblems);
  const refused = change.fields({
    begin: "spec.maintenance.timeWindow.begin",
    window: "spec.maintenance.timeWindow",
    autoKubernetes: "spec.maintenance.autoUpdate.kubernetesVersion",
    autoImages: "spec.maintenance.autoUpdate.machineImageVersion",
    confine: "spec.maintenance.confineSpecUpdateRollout",
  }).messages;
  const beginMessage = readableWindowMessage(refused.begin);
  const windowMessage = beginMessage ? undefined : readableWindowMessage(refused.window);
  const toggleMessages = {
    autoKubernetes: refused.autoKubernetes,
    autoImages: refused.autoImages,
    confine: refused.confine,
  };
  const placed = !!(
    beginMessage ||
    windowMessage ||
    toggleMessages.autoKubernetes ||
    toggleMessages.autoImages ||
    toggleMessages.confine
  );
  const fieldMessages = {
    zone: zoneProblem,
    start: windowProblems.start ?? beginMessage,
    end: windowProblems.end ?? windowMessage,
    duration: windowProblems.duration ?? windowMessage,
  };
  // Why Save is off: the first invalid field, named.
  const untilLabel = form.mode === "end" ? "End" : "Duration";
  const blocker = zoneProblem
    ? `Time zone: ${zoneProblem}`
    : windowProblems.start
      ? `Start: ${windowProblems.start}`
      : (windowProblems.end ?? windowProblems.duration)
        ? `${untilLabel}: ${windowProblems.end ?? windowProblems.duration}`
        : undefined;

  const preview = windowPreview(form, base.settings, base.filledAt);
  // What the garden stores now, which after someone else's save is no longer the form's base:
  // the line under a conflict banner must not show the window the banner says was replaced.
  const storedNow = conflict ? settingsOf(conflict.current) : settingsOf(shoot);

  function edit(patch: Partial<MaintenanceForm>) {
    forgetSaved();
    if (
      patch.start !== undefined ||
      patch.end !== undefined ||
      patch.duration !== undefined ||
      patch.mode !== undefined
    ) {
      // The refusal was about the window as it was; the user is fixing it.
      if (serverError) change.reset();
    }
    setForm((f) => {
      const next = { ...f, ...patch };
      // Switching between end and duration carries the window over.
      const start = parseClock(f.start);
      if (patch.mode === "duration" && start !== undefined && parseClock(f.end) !== undefined)
        return { ...next, duration: String(clockSpan(start, parseClock(f.end)!)) };
      if (patch.mode === "end" && start !== undefined && /^\d{1,4}$/.test(f.duration.trim()))
        return { ...next, end: formatClock(start + Number(f.duration)) };
      return next;
    });
  }

  function changeZone(text: string) {
    setZoneText(text);
    forgetSaved();
    if (!isTimeZone(text)) return;
    // Untouched times follow the zone (the same window, on another clock); typed times keep
    // what was typed, now read on the new zone's clock.
    setForm((f) =>
      touched
        ? { ...f, zone: text }
        : {
            ...formFromSettings(base.settings, text, base.filledAt, f.mode),
            autoKubernetes: f.autoKubernetes,
            autoImages: f.autoImages,
            confine: f.confine,
          },
    );
  }

  function rebase(current: Shoot, keepEdits: boolean) {
    const now = new Date();
    setForm(
      keepEdits
        ? reapplyEdits(form, base.settings, settingsOf(current), now, base.filledAt)
        : formFromSettings(settingsOf(current), form.zone, now, form.mode),
    );
    if (!keepEdits) setZoneText(form.zone);
    setBase({ settings: settingsOf(current), resourceVersion: current.metadata.resourceVersion, filledAt: now });
    change.reset();
    setReapplied(keepEdits);
  }

  function save() {
    change.reset();
    const now = new Date();
    const filledAt = base.filledAt;
    if (invalid) return;
    const toSend = formEdits(form, base.settings, filledAt);
    if (!hasEdits(toSend)) return;
    // After a 409 all of the maintenance settings decide, not only the edited ones: while
    // nobody touched them (only the status or the versions changed), the edits apply as they
    // are. No `wanted`: the same edits saved by someone else read as a conflict, shown in words.
    change.edit(
      {
        resourceVersion: base.resourceVersion,
        patch: (resourceVersion) => maintenancePatch(toSend, resourceVersion),
        part: settingsOf,
        base: base.settings,
        same: (a, b) => sameSettings(a, b, form.zone, now),
      },
      {
        // The cache already has the saved shoot: `saving` keeps the form from taking it for someone
        // else's change until this new base is set (before `saving` ends).
        onSuccess: (result) => {
          if (result.outcome !== "saved") return;
          const answer = result.shoot;
          const refilled = new Date();
          setBase({
            settings: settingsOf(answer),
            resourceVersion: answer.metadata.resourceVersion,
            filledAt: refilled,
          });
          setForm(formFromSettings(settingsOf(answer), form.zone, refilled, form.mode));
          setReapplied(false);
          setSavedMoved(!!toSend.timeWindow);
        },
      },
    );
  }

  const nextRun = plan.data?.at;
  const header = nextRun ? (
    <span className="text-xs text-slate-500">
      Next run <RelativeTime at={nextRun} className="font-medium text-slate-700" />
    </span>
  ) : plan.error ? (
    <span className="text-xs text-slate-500" title={(plan.error as Error).message}>
      Next run not known: the plan could not be loaded
    </span>
  ) : undefined;
  return (
    <Panel id="maintenance" title="Maintenance" actions={header}>
      <form
        noValidate
        aria-label="Maintenance settings"
        className="space-y-5"
        onSubmit={(e) => {
          e.preventDefault();
          save();
        }}
      >
        {conflict && (
          <EditConflict
            refused
            changes={conflict.changes}
            detail={conflict.detail}
            onReapply={() => rebase(conflict.current, true)}
            onDiscard={() => rebase(conflict.current, false)}
          />
        )}
        {theirs.length > 0 && (
          <EditConflict
            refused={false}
            changes={theirs}
            onReapply={() => rebase(shoot, true)}
            onDiscard={() => rebase(shoot, false)}
          />
        )}

        <section aria-labelledby="maintenance-window-title" className="space-y-3">
          <h3 id="maintenance-window-title" className="text-xs font-semibold uppercase tracking-wide text-slate-500">
            Time window
          </h3>
          <StoredWindowLine stored={storedNow.timeWindow} zone={form.zone} at={at} onZone={changeZone} />
          <MaintenanceWindowFields
            form={form}
            zoneText={zoneText}
            at={at}
            messages={fieldMessages}
            onZoneText={changeZone}
            onChange={edit}
            locked={locked}
            lockedWhy={notAllowed}
          />
          {preview.kind === "window" && (
            <WindowPreview window={preview.window} zone={form.zone} at={at} edited={preview.edited} />
          )}
          {preview.kind === "invalid" && (
            <p className="text-xs text-slate-600" data-testid="window-preview-invalid">
              Fix the window to see its next occurrences.
            </p>
          )}
        </section>

        <MaintenanceToggles
          form={form}
          kubernetesVersion={shoot.spec.kubernetes.version}
          onChange={edit}
          messages={toggleMessages}
          locked={locked}
          lockedWhy={notAllowed}
        />

        {reapplied && dirty && (
          <p
            role="status"
            className="flex items-start gap-2 rounded-md bg-sky-50 p-2.5 text-xs text-sky-900 ring-1 ring-inset ring-sky-600/20"
          >
            <Info aria-hidden className="mt-px size-3.5 shrink-0" />
            Your edits are now on top of the current values. Review them and save.
          </p>
        )}
        {serverError != null && (
          <p role="alert" className="rounded-md bg-red-50 p-2.5 text-sm text-red-900 ring-1 ring-inset ring-red-600/20">
            <span className="font-semibold">Not saved. </span>
            {placed
              ? "The server refused a value; its reason is shown beside the field. Your input is kept."
              : `${(serverError as Error).message} Your input is kept.`}
          </p>
        )}
        {saved && (
          <p
            role="status"
            className="flex items-start gap-2 rounded-md bg-emerald-50 p-2.5 text-sm text-emerald-900 ring-1 ring-inset ring-emerald-600/20"
          >
            <CheckCircle2 aria-hidden className="mt-0.5 size-4 shrink-0 text-emerald-600" />
            <span>
              {saved.at ? (
                <>
                  Saved; the next maintenance {saved.moved ? "moves to" : "stays at"} <DualTime at={saved.at} />.
                </>
              ) : (
                <>Saved.</>
              )}
            </span>
          </p>
        )}

        <SaveBar
          idPrefix="maintenance"
          saveLabel="Save changes"
          undoLabel="Undo my edits"
          allowance={operate}
          saving={saving}
          dirty={dirty}
          conflict={!!conflict}
          invalid={invalid}
          blocker={blocker}
          onUndo={() => rebase(shoot, false)}
        />
      </form>
    </Panel>
  );
}
