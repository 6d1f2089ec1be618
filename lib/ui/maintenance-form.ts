// The maintenance editor's form as data: what it starts from (the shoot's settings as loaded),
// what the user changed, the merge patch that sends exactly those changes, and how to put the
// user's edits on top of settings someone else saved meanwhile, so that nothing typed is lost.
import type { ShootPatch } from "../api/shoot-patch.ts";
import {
  MAX_WINDOW_SECONDS,
  MIN_WINDOW_SECONDS,
  parseTimeWindow,
  windowDurationSeconds,
  windowLengthProblem,
} from "../engine/time-window.ts";
import { MINUTE_SECONDS } from "../engine/time-units.ts";
import {
  describeMinutes,
  parseClock,
  sameWindow,
  windowFromClock,
  windowOnClock,
  type StoredWindow,
} from "./maintenance-window";
import { isTimeZone, timeZoneNames } from "./time-zones";

export interface MaintenanceSettings {
  readonly timeWindow?: StoredWindow;
  readonly autoUpdate?: { readonly kubernetesVersion?: boolean; readonly machineImageVersion?: boolean };
  readonly confineSpecUpdateRollout?: boolean;
}

export type UntilMode = "end" | "duration";

export interface MaintenanceForm {
  /** The IANA zone whose clock start and end are read on. */
  readonly zone: string;
  readonly start: string;
  readonly end: string;
  /** Minutes, as typed. */
  readonly duration: string;
  readonly mode: UntilMode;
  readonly autoKubernetes: boolean;
  readonly autoImages: boolean;
  readonly confine: boolean;
}

// Gardener's defaults (v1beta1): both automatic updates on, rollouts not confined.
const autoKubernetesOf = (s: MaintenanceSettings) => s.autoUpdate?.kubernetesVersion ?? true;
const autoImagesOf = (s: MaintenanceSettings) => s.autoUpdate?.machineImageVersion ?? true;
const confineOf = (s: MaintenanceSettings) => s.confineSpecUpdateRollout ?? false;

/** The form showing `settings`, with times on the clock of `zone` at `at`. */
export function formFromSettings(
  settings: MaintenanceSettings,
  zone: string,
  at: Date,
  mode: UntilMode = "end",
): MaintenanceForm {
  const clock = settings.timeWindow ? windowOnClock(settings.timeWindow, zone, at) : undefined;
  return {
    zone,
    start: clock?.start ?? "",
    end: clock?.end ?? "",
    duration: clock ? String(clock.durationMinutes) : "",
    mode,
    autoKubernetes: autoKubernetesOf(settings),
    autoImages: autoImagesOf(settings),
    confine: confineOf(settings),
  };
}

export interface FormProblems {
  zone?: string;
  start?: string;
  end?: string;
  duration?: string;
}

/** "30 minutes", "6 hours", "1 hour 30 minutes": a length in words. */
export function spellMinutes(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  const part = (n: number, unit: string) => `${n} ${unit}${n === 1 ? "" : "s"}`;
  if (h === 0) return part(m, "minute");
  return m === 0 ? part(h, "hour") : `${part(h, "hour")} ${part(m, "minute")}`;
}

const MIN_MINUTES = MIN_WINDOW_SECONDS / MINUTE_SECONDS;
const MAX_MINUTES = MAX_WINDOW_SECONDS / MINUTE_SECONDS;
export const TOO_SHORT = `The window must be at least ${spellMinutes(MIN_MINUTES)} long`;
export const TOO_LONG = `The window can be at most ${spellMinutes(MAX_MINUTES)} long`;

/**
 * What Gardener's rule on a window's length (the engine's, 30 minutes to 6 hours) says of a window
 * of `minutes`, in words; undefined when it is accepted. `sameEnd`: the end was typed equal to the
 * start, which Gardener reads as a whole day.
 */
export function windowLengthMessage(minutes: number, sameEnd = false): string | undefined {
  const problem = windowLengthProblem(minutes * MINUTE_SECONDS);
  if (problem === "too-short") return `${TOO_SHORT}; this one is ${spellMinutes(minutes)}.`;
  if (problem === "too-long")
    return sameEnd
      ? `${TOO_LONG}; an end equal to the start makes it a whole day.`
      : `${TOO_LONG}; this one is ${spellMinutes(minutes)}.`;
  return undefined;
}

/**
 * The engine's (Gardener's) refusal of a window, as a person reads it: "time window must not be
 * smaller than 30m0s" becomes "The window must be at least 30 minutes long." Other messages stay.
 */
export function readableWindowMessage(detail: string | undefined): string | undefined {
  if (detail === undefined) return undefined;
  if (/time window must not be smaller than/.test(detail)) return `${TOO_SHORT}.`;
  if (/time window must not be greater than/.test(detail)) return `${TOO_LONG}.`;
  return detail;
}

/**
 * Why `text` is not a time zone the window can be read on, naming a zone it may mean ("Berlin":
 * Europe/Berlin); undefined for a zone the browser knows.
 */
export function zoneProblem(text: string): string | undefined {
  if (isTimeZone(text)) return undefined;
  if (!text.trim()) return "Enter a time zone, such as Europe/Berlin or UTC.";
  const wanted = text.trim().replaceAll(" ", "_").toLowerCase();
  const meant = timeZoneNames().find((name) => name.toLowerCase().split("/").at(-1) === wanted);
  return meant
    ? `"${text}" is not a time zone. Did you mean ${meant}?`
    : `"${text}" is not a time zone; pick one from the list, such as Europe/Berlin or UTC.`;
}

/**
 * The window the form describes, or the problems that keep it from describing one or keep
 * Gardener from accepting it: unreadable input, and a length outside the engine's bounds (the
 * readable window is still given, for the preview).
 */
export function formWindow(form: MaintenanceForm, at: Date): { window?: StoredWindow; problems: FormProblems } {
  const problems: FormProblems = {};
  const clock = "as HH:MM on a 24-hour clock, from 00:00 to 23:59";
  const zone = zoneProblem(form.zone);
  if (zone) problems.zone = zone;
  if (parseClock(form.start) === undefined) problems.start = `Enter the start ${clock}.`;
  if (form.mode === "end" && parseClock(form.end) === undefined) problems.end = `Enter the end ${clock}.`;
  if (form.mode === "duration" && !/^\d{1,4}$/.test(form.duration.trim()))
    problems.duration = "Enter the duration in whole minutes.";
  if (Object.keys(problems).length > 0) return { problems };
  const until = form.mode === "end" ? { end: form.end } : { durationMinutes: Number(form.duration) };
  const window = windowFromClock(form.start, until, form.zone, at);
  if (form.mode === "duration") {
    // Judged as typed: a duration past a day would wrap around the clock.
    const length = windowLengthMessage(Number(form.duration));
    if (length) problems.duration = length;
  } else if (window) {
    // The stored window's length as the engine computes it.
    const minutes = windowDurationSeconds(parseTimeWindow(window.begin, window.end)) / MINUTE_SECONDS;
    const length = windowLengthMessage(minutes, parseClock(form.start) === parseClock(form.end));
    if (length) problems.end = length;
  }
  return { window, problems };
}

/** Whether the form holds anything that keeps it from being saved. */
export const hasProblems = (problems: FormProblems) => Object.values(problems).some(Boolean);

export interface MaintenanceEdits {
  readonly timeWindow?: StoredWindow;
  readonly autoKubernetes?: boolean;
  readonly autoImages?: boolean;
  readonly confine?: boolean;
}

/** What the form changes compared with `base`; a window that is unreadable counts as unchanged. */
export function formEdits(form: MaintenanceForm, base: MaintenanceSettings, at: Date): MaintenanceEdits {
  const { window } = formWindow(form, at);
  return {
    ...(window && !sameWindow(window, base.timeWindow) ? { timeWindow: window } : {}),
    ...(form.autoKubernetes !== autoKubernetesOf(base) ? { autoKubernetes: form.autoKubernetes } : {}),
    ...(form.autoImages !== autoImagesOf(base) ? { autoImages: form.autoImages } : {}),
    ...(form.confine !== confineOf(base) ? { confine: form.confine } : {}),
  };
}

/** Whether the user touched the window inputs, readable or not (so a bad entry is kept). */
export function windowTouched(form: MaintenanceForm, base: MaintenanceSettings, at: Date): boolean {
  const shown = formFromSettings(base, form.zone, at, form.mode);
  if (form.start !== shown.start) return true;
  return form.mode === "end" ? form.end !== shown.end : form.duration !== shown.duration;
}

/**
 * What the "Next windows" preview shows: the edited window once it is valid, nothing but a hint
 * while the typed times are invalid (never an invalid window as if it would run), else the stored
 * one (or nothing without one).
 */
export type WindowPreviewState =
  | { readonly kind: "window"; readonly window: StoredWindow; readonly edited: boolean }
  | { readonly kind: "invalid" }
  | { readonly kind: "none" };

export function windowPreview(form: MaintenanceForm, base: MaintenanceSettings, at: Date): WindowPreviewState {
  if (windowTouched(form, base, at)) {
    const { window, problems } = formWindow(form, at);
    if (!window || problems.start || problems.end || problems.duration) return { kind: "invalid" };
    return { kind: "window", window, edited: !sameWindow(window, base.timeWindow) };
  }
  return base.timeWindow ? { kind: "window", window: base.timeWindow, edited: false } : { kind: "none" };
}

export const hasEdits = (edits: MaintenanceEdits) => Object.keys(edits).length > 0;

/** The JSON merge patch for the edits, guarded by the resourceVersion the form started from. */
export function maintenancePatch(edits: MaintenanceEdits, resourceVersion: string | undefined): ShootPatch {
  const autoUpdate = {
    ...(edits.autoKubernetes !== undefined ? { kubernetesVersion: edits.autoKubernetes } : {}),
    ...(edits.autoImages !== undefined ? { machineImageVersion: edits.autoImages } : {}),
  };
  return {
    ...(resourceVersion ? { metadata: { resourceVersion } } : {}),
    spec: {
      maintenance: {
        ...(edits.timeWindow ? { timeWindow: { begin: edits.timeWindow.begin, end: edits.timeWindow.end } } : {}),
        ...(Object.keys(autoUpdate).length > 0 ? { autoUpdate } : {}),
        ...(edits.confine !== undefined ? { confineSpecUpdateRollout: edits.confine } : {}),
      },
    },
  };
}

/**
 * The user's edits (made on `base`) put on top of `current`: every field the user changed keeps
 * the user's value, every other field shows what is stored now (on the clock at `at`).
 * `filledAt` is when the form was filled from `base`: whether the window was touched is judged
 * at that moment, so a daylight saving change since then does not count as an edit.
 */
export function reapplyEdits(
  form: MaintenanceForm,
  base: MaintenanceSettings,
  current: MaintenanceSettings,
  at: Date,
  filledAt: Date = at,
): MaintenanceForm {
  const fresh = formFromSettings(current, form.zone, at, form.mode);
  const touched = windowTouched(form, base, filledAt);
  return {
    ...fresh,
    ...(touched ? { start: form.start, end: form.end, duration: form.duration } : {}),
    autoKubernetes: form.autoKubernetes !== autoKubernetesOf(base) ? form.autoKubernetes : fresh.autoKubernetes,
    autoImages: form.autoImages !== autoImagesOf(base) ? form.autoImages : fresh.autoImages,
    confine: form.confine !== confineOf(base) ? form.confine : fresh.confine,
  };
}

const onOff = (b: boolean) => (b ? "on" : "off");

/** Someone else's changes from `before` to `after`, in words ("automatic machine image updates turned off"). */
export function describeSettingChanges(
  before: MaintenanceSettings,
  after: MaintenanceSettings,
  zone: string,
  at: Date,
): string[] {
  const changes: string[] = [];
  if (!sameWindow(before.timeWindow, after.timeWindow)) {
    const show = (w: StoredWindow | undefined) => {
      const c = w ? windowOnClock(w, zone, at) : undefined;
      return c ? `${c.start}–${c.end} (${describeMinutes(c.durationMinutes)})` : "none";
    };
    changes.push(`the window moved from ${show(before.timeWindow)} to ${show(after.timeWindow)} ${zone} time`);
  }
  if (autoKubernetesOf(before) !== autoKubernetesOf(after))
    changes.push(`automatic Kubernetes patch updates turned ${onOff(autoKubernetesOf(after))}`);
  if (autoImagesOf(before) !== autoImagesOf(after))
    changes.push(`automatic machine image updates turned ${onOff(autoImagesOf(after))}`);
  if (confineOf(before) !== confineOf(after))
    changes.push(`rollouts confined to the window turned ${onOff(confineOf(after))}`);
  return changes;
}

/** Whether two sets of settings mean the same (offsets and defaults aside). */
export function sameSettings(a: MaintenanceSettings, b: MaintenanceSettings, zone: string, at: Date): boolean {
  return describeSettingChanges(a, b, zone, at).length === 0;
}
