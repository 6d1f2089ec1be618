"use client";

// The top of the lifecycle page: a live countdown to the earliest expiry among the versions the
// shoot runs, one or two plain sentences on what the maintenance controller will do about it and
// when, and the next maintenance window with what it will change.
import { RefreshFailed } from "@/components/ui/states";
import dynamic from "next/dynamic";
import { schedulesOf } from "@/lib/ui/hibernation-schedules";
import { AlertOctagon, AlertTriangle, CalendarClock, CheckCircle2, CircleSlash, RefreshCw } from "lucide-react";
import { useMemo } from "react";
import { Panel } from "@/components/ui/page-header";
import { ErrorState, LoadingBlock } from "@/components/ui/states";
import { DualTime, RelativeTime, useNow } from "@/components/ui/time";
import { autoUpdateFlags } from "@/lib/engine/maintain";
import { MINUTE_MS } from "@/lib/engine/time-units";
import { versionsInUse } from "@/lib/engine/versions-in-use";
import type { MaintenancePlan, Shoot } from "@/lib/ui/api-types";
import {
  changeType,
  countdownParts,
  describeOutlook,
  describePlanWindow,
  realChanges,
  type OutlookTone,
} from "@/lib/ui/expiry-outlook";
import { formatBoth, formatUtcShort } from "@/lib/ui/time";
import { UpdateRiskNote } from "./update-risk-note";
import { PendingRolloutChanges } from "./pending-rollout-changes";
import { useMaintenancePlan, useShootForecast } from "./use-lifecycle-data";
import { shootProfileName, useShootCloudProfile } from "./use-shoot-cloud-profile";

// The cron engine loads only for a shoot with hibernation schedules.
const PlanWhileHibernated = dynamic(
  () => import("@/components/hibernation/plan-while-hibernated").then((m) => m.PlanWhileHibernated),
  { ssr: false },
);

const TONE: Record<OutlookTone, { word: string; icon: typeof AlertOctagon; bar: string; text: string }> = {
  red: { word: "Action needed", icon: AlertOctagon, bar: "border-l-red-500", text: "text-red-700" },
  amber: { word: "Expiring soon", icon: AlertTriangle, bar: "border-l-amber-500", text: "text-amber-800" },
  green: { word: "On track", icon: CheckCircle2, bar: "border-l-emerald-500", text: "text-emerald-700" },
};

export function ExpiryOutlook({ shoot }: { shoot: Shoot }) {
  const profileName = shootProfileName(shoot);
  const profile = useShootCloudProfile(shoot);
  const forecast = useShootForecast(shoot);
  const plan = useMaintenancePlan(shoot);
  // The sentence changes with the day, not the second: a minute's clock is enough for it.
  const minute = useNow(MINUTE_MS);

  // The next window's plan says what happens first (automatic updates included): wait for it, and
  // go on without it only when it failed to load (the next window then says so).
  const planSettled = plan.data !== undefined || plan.isError;
  const outlook = useMemo(() => {
    if (!profile.data || !forecast.data || !planSettled) return undefined;
    return describeOutlook({
      versions: versionsInUse(shoot, profile.data, minute),
      forecast: forecast.data,
      plan: plan.data,
      now: minute,
      cloudProfile: profileName,
    });
  }, [shoot, profile.data, forecast.data, plan.data, planSettled, minute, profileName]);

  // An error only replaces the outlook when there is nothing cached to show.
  if ((profile.error && !profile.data) || (forecast.error && !forecast.data)) {
    const failed =
      profile.error && !profile.data ? `the cloud profile "${profileName}"` : "the forecast of forced updates";
    return (
      <Panel title="Expiry outlook">
        <ErrorState
          title={`The outlook could not be computed: ${failed} did not load`}
          error={profile.error && !profile.data ? profile.error : forecast.error}
          onRetry={() => {
            void profile.refetch();
            void forecast.refetch();
          }}
        />
      </Panel>
    );
  }
  if (!outlook) {
    return (
      <Panel title="Expiry outlook">
        <LoadingBlock label="Computing the expiry outlook" lines={4} />
      </Panel>
    );
  }

  const tone = TONE[outlook.tone];
  const Icon = tone.icon;
  const staleError = profile.error ?? forecast.error;
  return (
    <section
      aria-labelledby="outlook-title"
      className={`rounded-xl border border-l-4 border-slate-200 bg-white shadow-sm ${tone.bar}`}
    >
      <div className="flex flex-wrap items-start gap-x-8 gap-y-4 p-5">
        <div className="min-w-0 flex-1 basis-96">
          <h2
            id="outlook-title"
            className={`flex items-center gap-1.5 text-xs font-semibold uppercase tracking-wide ${tone.text}`}
          >
            <Icon aria-hidden className="size-4" /> {tone.word}
            <span className="font-normal normal-case tracking-normal text-slate-500">· expiry outlook</span>
          </h2>
          <p data-testid="outlook-headline" className="mt-2 text-lg font-semibold leading-snug text-slate-900">
            {outlook.headline}
          </p>
          {outlook.consequence && (
            <p data-testid="outlook-consequence" className="mt-1 text-[15px] leading-relaxed text-slate-700">
              {outlook.consequence}
            </p>
          )}
          {/* A promise needs its risk beside it: why the update may not happen. */}
          {(outlook.consequence || (plan.data && realChanges(plan.data.changes).length > 0)) && (
            <UpdateRiskNote shoot={shoot} />
          )}
          {outlook.stuck && (
            <p
              role="alert"
              className="mt-3 flex items-start gap-2 rounded-lg bg-red-50 p-3 text-sm text-red-900 ring-1 ring-red-200"
            >
              <CircleSlash aria-hidden className="mt-0.5 size-4 shrink-0 text-red-600" />
              <span>
                <strong className="font-semibold">Stuck ahead.</strong> {outlook.stuck}
              </span>
            </p>
          )}
          {outlook.others.length > 0 && (
            <p className="mt-3 text-sm text-slate-600">
              Also: {outlook.others.join("; ")}. The timeline below shows when each is updated.
            </p>
          )}
          {plan.error && !plan.data && (
            <p className="mt-2 text-xs text-slate-500">
              The plan of the next maintenance window is unavailable, so automatic updates are not part of this outlook.
            </p>
          )}
          {staleError && (
            <div className="mt-2">
              <RefreshFailed
                what={profile.error ? `the cloud profile "${profileName}"` : "the forecast"}
                error={staleError}
                onRetry={() => {
                  void profile.refetch();
                  void forecast.refetch();
                }}
              />
            </div>
          )}
        </div>
        {outlook.countdown ? (
          <CountdownBlock to={outlook.countdown.to} label={outlook.countdown.label} tone={outlook.tone} />
        ) : outlook.subject?.expiresAt !== undefined ? (
          <div className="text-sm text-slate-600">
            Expired <RelativeTime at={outlook.subject.expiresAt} />
          </div>
        ) : null}
      </div>
      <NextWindow shoot={shoot} plan={plan.data} planError={plan.error} onRetry={() => void plan.refetch()} />
    </section>
  );
}

/** A large countdown that ticks every second; the accessible name says what it counts down to. */
function CountdownBlock({ to, label, tone }: { to: number; label: string; tone: OutlookTone }) {
  const now = useNow(1_000);
  const parts = countdownParts(to, now);
  const colour = tone === "red" ? "text-red-700" : tone === "amber" ? "text-amber-800" : "text-slate-900";
  return (
    <div className="shrink-0 rounded-lg bg-slate-50 px-4 py-3 ring-1 ring-slate-200">
      <div
        role="timer"
        aria-label={`Countdown ${label}`}
        title={formatBoth(to)}
        className={`flex items-baseline gap-1.5 tabular-nums ${colour}`}
        suppressHydrationWarning
      >
        {parts.map((p) => (
          <span key={p.unit} className="inline-flex items-baseline gap-0.5">
            <span className="text-2xl font-semibold tracking-tight">{p.value}</span>
            <span className="text-xs font-medium text-slate-500">{p.unit}</span>
          </span>
        ))}
      </div>
      <p className="mt-1 text-xs text-slate-600">{label}</p>
      <p className="text-xs text-slate-500">{formatUtcShort(to)}</p>
    </div>
  );
}

function OnOff({ on, label }: { on: boolean; label: string }) {
  return (
    <span className="inline-flex items-center gap-1">
      {on ? (
        <CheckCircle2 aria-hidden className="size-3.5 text-emerald-600" />
      ) : (
        <CircleSlash aria-hidden className="size-3.5 text-slate-400" />
      )}
      {label} <span className={on ? "font-medium text-slate-800" : "text-slate-500"}>{on ? "on" : "off"}</span>
    </span>
  );
}

const who = (target: string) => (target === "controlPlane" ? "Control plane" : `Pool "${target}"`);

/** The next window: when (local, UTC, relative), the auto-update switches, and what it will change. */
function NextWindow({
  shoot,
  plan,
  planError,
  onRetry,
}: {
  shoot: Shoot;
  plan?: MaintenancePlan;
  planError: unknown;
  onRetry: () => void;
}) {
  const auto = autoUpdateFlags(shoot.spec);
  return (
    <div className="border-t border-slate-100 bg-slate-50/60 px-5 py-4 text-sm">
      <div className="flex flex-wrap items-baseline gap-x-6 gap-y-2">
        <div className="flex flex-wrap items-baseline gap-x-2">
          <span className="inline-flex items-center gap-1 font-medium text-slate-800">
            <CalendarClock aria-hidden className="size-4 self-center text-slate-500" />
            Next maintenance window
          </span>
          {plan ? (
            <span data-testid="next-window" className="inline-flex flex-wrap items-baseline gap-x-2">
              <DualTime at={plan.window.begin} relative={false} />
              <span className="text-slate-500">
                {describePlanWindow(plan.window, !!shoot.spec.maintenance?.timeWindow)}
              </span>
              <span className="text-slate-500">
                (<RelativeTime at={plan.window.begin} />)
              </span>
            </span>
          ) : planError ? (
            <span className="text-slate-500">unavailable</span>
          ) : (
            <span className="text-slate-500">loading…</span>
          )}
        </div>
        <div className="flex flex-wrap gap-x-4 gap-y-1 text-slate-600">
          <span className="inline-flex items-center gap-1 text-slate-500">
            <RefreshCw aria-hidden className="size-3.5" />
            Auto-update:
          </span>
          <OnOff on={auto.kubernetesVersion} label="Kubernetes patch" />
          <OnOff on={auto.machineImageVersion} label="Machine image" />
        </div>
      </div>
      {planError && !plan ? (
        <div className="mt-3">
          <ErrorState
            title="The next window's plan is unavailable: the maintenance plan could not be loaded"
            error={planError}
            onRetry={onRetry}
          />
        </div>
      ) : (
        plan && (
          <div className="mt-3">
            {planError != null && (
              <div className="mb-2">
                <RefreshFailed what="the maintenance plan" error={planError} onRetry={onRetry} />
              </div>
            )}
            <PendingRolloutChanges plan={plan} />
            {schedulesOf(shoot).length > 0 && <PlanWhileHibernated shoot={shoot} at={plan.at} />}
            {plan.changes.length === 0 && plan.errors.length === 0 ? (
              <p className="text-slate-600">
                {plan.rollout?.when === "window"
                  ? "Maintenance itself changes no other version"
                  : "The next window changes no version"}
                {plan.operations.length > 0 ? `; it runs ${plan.operations.join(", ")}` : ""}.
              </p>
            ) : (
              <>
                <p className="text-slate-600">
                  {realChanges(plan.changes).length > 0
                    ? `The next window will make ${realChanges(plan.changes).length === 1 ? "1 change" : `${realChanges(plan.changes).length} changes`}:`
                    : "The next window will:"}
                </p>
                <ul className="mt-1 space-y-1">
                  {plan.changes.map((c) => {
                    const type = changeType(c);
                    const what = c.kind === "kubernetes" ? "Kubernetes" : "machine image";
                    if (type === "failed") {
                      return (
                        <li
                          key={`${c.target}-${c.kind}`}
                          className="flex flex-wrap items-baseline gap-x-2 text-red-800"
                        >
                          <CircleSlash aria-hidden className="size-3.5 shrink-0 self-center text-red-600" />
                          <span>
                            {who(c.target)}: {what} <span className="font-mono text-[13px]">{c.from}</span>{" "}
                            <strong className="font-semibold">
                              cannot update: no suitable version — the cluster will be stuck
                            </strong>
                          </span>
                          {c.description && <span className="text-xs text-red-700">{c.description}</span>}
                        </li>
                      );
                    }
                    const forced = type === "forced";
                    return (
                      <li key={`${c.target}-${c.kind}`} className="flex flex-wrap items-baseline gap-x-2">
                        <span
                          className={`inline-flex items-center gap-1 text-xs font-medium ${forced ? "text-red-700" : "text-sky-700"}`}
                        >
                          {forced ? (
                            <AlertTriangle aria-hidden className="size-3.5 self-center" />
                          ) : (
                            <RefreshCw aria-hidden className="size-3.5 self-center" />
                          )}
                          {forced ? "Forced" : "Automatic"}
                        </span>
                        <span className="text-slate-800">
                          {who(c.target)}: {what}{" "}
                          <span className="font-mono text-[13px]">
                            {c.from} → {c.to}
                          </span>
                        </span>
                        <span className="text-xs text-slate-500">{c.reason}</span>
                      </li>
                    );
                  })}
                </ul>
                {plan.errors.map((e) => (
                  <p key={e} className="mt-2 flex items-start gap-1.5 text-red-800">
                    <AlertOctagon aria-hidden className="mt-0.5 size-4 shrink-0" />
                    {e}
                  </p>
                ))}
              </>
            )}
            {plan.rolloutPending && !plan.rollout && (
              <p className="mt-2 text-slate-600">Spec changes wait for this window (confineSpecUpdateRollout).</p>
            )}
          </div>
        )
      )}
    </div>
  );
}
