"use client";

// Health now: the status label and why (each condition and constraint with its status, reason,
// message and how long it has been so), the last operation with its progress, the last errors
// with what each error code means and who has to act, the last maintenance and hibernation.
import { AlertOctagon, AlertTriangle, Clock, Moon, Sun, UserRound } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Panel } from "@/components/ui/page-header";
import { ProgressBar } from "@/components/ui/progress";
import { StatusBadge, toneIcon } from "@/components/ui/status-badges";
import { RelativeTime } from "@/components/ui/time";
import { blockingHibernationConstraint } from "@/lib/engine/hibernation-admission";
import { LABEL_STATUS, shootStatusLabel } from "@/lib/engine/status-label";
import type { Shoot } from "@/lib/ui/api-types";
import { errorCodeInfo } from "@/lib/ui/error-codes";
import { CONDITION_SHORT, conditionTone, conditionWord, healthSummary, type StatusLabel } from "@/lib/ui/status";
import type { Condition, LastError, LastOperation } from "@/lib/gardener/types";
import { ScrollBox } from "@/components/ui/scroll-box";

const CONDITION_NAMES: Record<string, string> = {
  APIServerAvailable: "API server available",
  ControlPlaneHealthy: "Control plane healthy",
  ObservabilityComponentsHealthy: "Observability components healthy",
  EveryNodeReady: "Every node ready",
  SystemComponentsHealthy: "System components healthy",
  HibernationPossible: "Hibernation possible",
  MaintenancePreconditionsSatisfied: "Maintenance preconditions satisfied",
  CACertificateValiditiesAcceptable: "CA certificate validities acceptable",
  CRDsWithProblematicConversionWebhooks: "CRDs with problematic conversion webhooks",
};

export function ShootHealth({ shoot }: { shoot: Shoot }) {
  const status = shoot.status ?? {};
  const label = (shoot.metadata.labels?.[LABEL_STATUS] ?? shootStatusLabel(shoot)) as StatusLabel;
  const conditions = status.conditions ?? [];
  const constraints = status.constraints ?? [];
  const errors = status.lastErrors ?? [];
  return (
    <Panel id="health" title="Health" actions={<StatusBadge label={label} />}>
      <p className="text-sm text-slate-600" data-testid="health-summary">
        {healthSummary(label, status)}
      </p>
      <div className="mt-4 grid gap-4 lg:grid-cols-2">
        <LastOperationBlock operation={status.lastOperation} />
        <HibernationBlock shoot={shoot} />
      </div>
      {errors.length > 0 && <LastErrors errors={errors} />}
      <ConditionTable
        caption="Conditions"
        rows={conditions}
        empty="The gardenlet has not reported any condition yet."
      />
      {constraints.length > 0 && <ConditionTable caption="Constraints" rows={constraints} empty="" />}
      {status.lastMaintenance && (
        <div className="mt-5 text-sm">
          <h3 className="font-semibold text-slate-900">Last maintenance</h3>
          <p className="mt-1 flex flex-wrap items-center gap-2 text-slate-700">
            <Badge
              tone={
                status.lastMaintenance.state === "Failed"
                  ? "red"
                  : status.lastMaintenance.state === "Succeeded"
                    ? "green"
                    : "blue"
              }
              icon={toneIcon(
                status.lastMaintenance.state === "Failed"
                  ? "red"
                  : status.lastMaintenance.state === "Succeeded"
                    ? "green"
                    : "blue",
              )}
            >
              {status.lastMaintenance.state}
            </Badge>
            <RelativeTime at={status.lastMaintenance.triggeredTime} className="text-slate-500" />
          </p>
          <p className="mt-1 text-slate-600">
            {status.lastMaintenance.failureReason ?? status.lastMaintenance.description}
          </p>
        </div>
      )}
    </Panel>
  );
}

function operationTone(state: string) {
  return state === "Succeeded"
    ? "green"
    : state === "Processing" || state === "Pending"
      ? "blue"
      : state === "Error"
        ? "amber"
        : state === "Failed" || state === "Aborted"
          ? "red"
          : "grey";
}

function LastOperationBlock({ operation }: { operation?: LastOperation }) {
  if (!operation) {
    return (
      <div className="rounded-lg bg-slate-50 p-3 text-sm text-slate-600 ring-1 ring-slate-200">
        No operation has run on this cluster yet.
      </div>
    );
  }
  const tone = operationTone(operation.state);
  const running = operation.state === "Processing" || operation.state === "Pending";
  const progress = operation.progress ?? 0;
  return (
    <div className="rounded-lg bg-slate-50 p-3 text-sm ring-1 ring-slate-200">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="font-semibold text-slate-900">Last operation: {operation.type}</h3>
        <span className="flex items-center gap-2">
          <Badge tone={tone} icon={toneIcon(tone, running)}>
            {operation.state}
            {running ? ` ${progress}%` : ""}
          </Badge>
          {operation.lastUpdateTime && (
            <RelativeTime at={operation.lastUpdateTime} className="text-xs text-slate-500" />
          )}
        </span>
      </div>
      {(running || operation.state === "Error") && (
        <div className="mt-2">
          <ProgressBar
            value={progress}
            label={`${operation.type} progress`}
            tone={operation.state === "Error" ? "red" : "blue"}
          />
        </div>
      )}
      {operation.description && <p className="mt-2 break-words text-slate-600">{operation.description}</p>}
      {operation.state === "Error" && (
        <p className="mt-1 text-xs text-slate-500">Gardener retries this operation by itself.</p>
      )}
    </div>
  );
}

function HibernationBlock({ shoot }: { shoot: Shoot }) {
  const wanted = shoot.spec.hibernation?.enabled === true;
  const hibernated = shoot.status?.hibernated === true;
  // Gardener's schedules: cron expressions to sleep and wake, in an IANA location.
  const schedules =
    (shoot.spec.hibernation?.schedules as { start?: string; end?: string; location?: string }[] | undefined) ?? [];
  const state = hibernated ? (wanted ? "Hibernated" : "Waking up") : wanted ? "Going to sleep" : "Awake";
  const Icon = hibernated || wanted ? Moon : Sun;
  // gardener-apiserver refuses to hibernate an awake shoot unless HibernationPossible is True.
  const blocking = wanted ? undefined : blockingHibernationConstraint(shoot.status?.constraints);
  return (
    <div className="rounded-lg bg-slate-50 p-3 text-sm ring-1 ring-slate-200">
      <h3 className="flex items-center gap-1.5 font-semibold text-slate-900">
        <Icon aria-hidden className="size-4 text-slate-500" />
        Hibernation: {state}
      </h3>
      <p className="mt-1 text-slate-600">
        {hibernated
          ? "The control plane is scaled down and the worker nodes are gone; maintenance still runs in the window."
          : wanted
            ? "Hibernation was requested; the cluster is scaling down."
            : "The cluster runs with its worker nodes."}
      </p>
      {blocking && (
        <p className="mt-1 flex items-start gap-1.5 text-xs text-amber-800" data-testid="hibernation-refused">
          <AlertTriangle aria-hidden className="mt-0.5 size-3.5 shrink-0 text-amber-600" />
          <span>
            Gardener refuses to hibernate it now: its HibernationPossible constraint is {blocking.status}
            {blocking.message ? ` (${blocking.message.replace(/\.$/, "")})` : ""}. Hibernation needs it True.
          </span>
        </p>
      )}
      {schedules.length > 0 && (
        <ul className="mt-1 text-xs text-slate-500">
          {schedules.map((s, i) => (
            <li key={i}>
              Schedule: {s.start ? `sleep "${s.start}"` : ""}
              {s.start && s.end ? ", " : ""}
              {s.end ? `wake "${s.end}"` : ""}
              {s.location ? ` (${s.location})` : ""}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function CodeBadge({ code }: { code: string }) {
  const info = errorCodeInfo(code);
  const user = info.kind === "user";
  return (
    <span className="inline-flex flex-wrap items-center gap-1.5">
      <Badge
        tone={user ? "red" : "amber"}
        icon={user ? <UserRound aria-hidden className="size-3.5" /> : <Clock aria-hidden className="size-3.5" />}
        title={info.description}
      >
        {user ? "Action needed" : "Temporary"}
      </Badge>
      <span className="font-mono text-xs text-slate-700">{code}</span>
      <span className="text-xs text-slate-600">{info.short}</span>
    </span>
  );
}

function LastErrors({ errors }: { errors: readonly LastError[] }) {
  return (
    <div className="mt-5">
      <h3 className="text-sm font-semibold text-slate-900">Last errors</h3>
      <ul className="mt-2 space-y-2">
        {errors.map((e, i) => (
          <li key={i} className="rounded-lg border border-red-200 bg-red-50/60 p-3 text-sm">
            <div className="flex flex-wrap items-start justify-between gap-2">
              <p className="flex items-start gap-1.5 font-medium text-red-900">
                <AlertOctagon aria-hidden className="mt-0.5 size-4 shrink-0 text-red-600" />
                {e.taskID ? <span>Task “{e.taskID}”</span> : <span>Error</span>}
              </p>
              {e.lastUpdateTime && <RelativeTime at={e.lastUpdateTime} className="text-xs text-slate-500" />}
            </div>
            <p className="mt-1 break-words text-slate-700">{e.description}</p>
            {(e.codes ?? []).length > 0 && (
              <ul className="mt-2 space-y-1.5">
                {(e.codes ?? []).map((code) => (
                  <li key={code}>
                    <CodeBadge code={code} />
                    <p className="mt-0.5 text-xs text-slate-600">{errorCodeInfo(code).description}</p>
                  </li>
                ))}
              </ul>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

// On a phone each condition is a small card: its name with the status beside it, then the reason
// and message, then since when (the column headings stay for screen readers only).
const STACKED_ON_PHONE = [
  "max-sm:block max-sm:[&_thead]:sr-only max-sm:[&_tbody]:block",
  "max-sm:[&_tbody_tr]:grid max-sm:[&_tbody_tr]:grid-cols-[minmax(0,1fr)_auto]",
  "max-sm:[&_td:nth-of-type(n+2)]:col-span-2 max-sm:[&_td:nth-of-type(n+2)]:pt-0",
  "max-sm:[&_td:nth-of-type(3)]:before:content-['Since_']",
].join(" ");

function ConditionTable({ caption, rows, empty }: { caption: string; rows: readonly Condition[]; empty: string }) {
  return (
    <div className="mt-5">
      <h3 className="text-sm font-semibold text-slate-900">{caption}</h3>
      {rows.length === 0 ? (
        <p className="mt-1 text-sm text-slate-500">{empty}</p>
      ) : (
        <ScrollBox label={`${caption} table`} className="mt-2">
          <table className={`w-full text-left text-sm ${STACKED_ON_PHONE}`}>
            <caption className="sr-only">{caption} of the cluster</caption>
            <thead className="text-xs text-slate-500">
              <tr className="border-b border-slate-200">
                <th scope="col" className="py-1.5 pr-3 font-medium">
                  {caption === "Constraints" ? "Constraint" : "Condition"}
                </th>
                <th scope="col" className="py-1.5 pr-3 font-medium">
                  Status
                </th>
                <th scope="col" className="py-1.5 pr-3 font-medium">
                  Reason and message
                </th>
                <th scope="col" className="py-1.5 font-medium whitespace-nowrap">
                  Since
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {rows.map((c) => {
                const tone = conditionTone(c.status);
                return (
                  <tr key={c.type} className="align-top">
                    <th scope="row" className="py-2 pr-3 font-medium text-slate-800">
                      {CONDITION_NAMES[c.type] ?? c.type}
                      <span className="block font-mono text-[11px] font-normal text-slate-500">
                        {CONDITION_SHORT[c.type] ? `${CONDITION_SHORT[c.type]} · ` : ""}
                        {c.type}
                      </span>
                    </th>
                    <td className="py-2 pr-3">
                      <Badge tone={tone} icon={toneIcon(tone, tone === "blue")}>
                        {conditionWord(c.status)}
                      </Badge>
                    </td>
                    <td className="py-2 pr-3 text-slate-700">
                      {c.reason && <span className="font-medium">{c.reason}</span>}
                      {c.message && <p className="break-words text-slate-600">{c.message}</p>}
                      {(c.codes ?? []).length > 0 && (
                        <div className="mt-1 flex flex-wrap gap-2">
                          {(c.codes ?? []).map((code) => (
                            <CodeBadge key={code} code={code} />
                          ))}
                        </div>
                      )}
                    </td>
                    <td className="py-2 whitespace-nowrap text-slate-500">
                      {c.lastTransitionTime ? <RelativeTime at={c.lastTransitionTime} /> : "—"}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </ScrollBox>
      )}
    </div>
  );
}
