"use client";

// The automatic updates and the rollout option, each with what it does to the cluster when it
// happens: a Kubernetes patch restarts control-plane components; a new machine image replaces
// every node of the pools it applies to.
import type { ReactNode } from "react";
import type { MaintenanceForm } from "@/lib/ui/maintenance-form";
import { FieldMessage } from "./field-message";

function Toggle({
  id,
  checked,
  onChange,
  label,
  children,
  message,
}: {
  id: string;
  checked: boolean;
  onChange: (value: boolean) => void;
  label: string;
  children: ReactNode;
  message?: string;
}) {
  return (
    <div className="flex items-start gap-2.5">
      <input
        id={id}
        type="checkbox"
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
        aria-describedby={`${id}-help${message ? ` ${id}-error` : ""}`}
        className="mt-0.5 size-4 shrink-0 rounded accent-accent-600 disabled:cursor-not-allowed focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent-600"
      />
      <div className="min-w-0">
        <label
          htmlFor={id}
          className="cursor-pointer text-sm font-medium text-slate-900 group-disabled:cursor-not-allowed group-disabled:text-slate-600"
        >
          {label}
        </label>
        <p id={`${id}-help`} className="mt-0.5 text-xs text-slate-600">
          {children}
        </p>
        <FieldMessage id={`${id}-error`} message={message} />
      </div>
    </div>
  );
}

export function MaintenanceToggles({
  form,
  kubernetesVersion,
  onChange,
  messages,
  locked = false,
  lockedWhy,
}: {
  form: MaintenanceForm;
  kubernetesVersion: string;
  onChange: (change: Partial<MaintenanceForm>) => void;
  messages: { autoKubernetes?: string; autoImages?: string; confine?: string };
  /** The caller's role may not change them; `lockedWhy` is the id of the sentence that says why. */
  locked?: boolean;
  lockedWhy?: string;
}) {
  const minor = kubernetesVersion.split(".").slice(0, 2).join(".");
  return (
    <fieldset className="group space-y-3" disabled={locked} aria-describedby={lockedWhy}>
      <legend className="text-xs font-semibold uppercase tracking-wide text-slate-500">
        Automatic updates in the window
      </legend>
      <Toggle
        id="maintenance-auto-kubernetes"
        checked={form.autoKubernetes}
        onChange={(v) => onChange({ autoKubernetes: v })}
        label="Kubernetes patch version"
        message={messages.autoKubernetes}
      >
        Moves the control plane and worker pools to the newest supported {minor} patch. Control-plane components restart
        one after another; workloads keep running. Never updates to a preview version or to another minor.
      </Toggle>
      <Toggle
        id="maintenance-auto-images"
        checked={form.autoImages}
        onChange={(v) => onChange({ autoImages: v })}
        label="Machine image version"
        message={messages.autoImages}
      >
        Moves worker pools to newer operating system images within each image&apos;s update strategy. Disruptive: every
        node of an updated pool is drained and replaced (rolling update), so pods are evicted and rescheduled.
      </Toggle>
      <p className="rounded-md bg-slate-50 px-2.5 py-2 text-xs text-slate-600">
        Whatever is set here, a version that has expired, or that is missing from the cloud profile, is updated in the
        next window (forced update). A forced Kubernetes update moves to the newest patch of the same minor, or to the
        next minor when no patch of it qualifies.
      </p>
      <Toggle
        id="maintenance-confine"
        checked={form.confine}
        onChange={(v) => onChange({ confine: v })}
        label="Roll out changes only in the window"
        message={messages.confine}
      >
        Holds changes to the cluster&apos;s specification, such as a version you set by hand, until the next maintenance
        window instead of rolling them out at once (
        <code className="font-mono text-[11px]">confineSpecUpdateRollout</code>).
      </Toggle>
    </fieldset>
  );
}
