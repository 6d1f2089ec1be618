"use client";

// The parameters of the actions that take some: a daily window in UTC, the auto-update switches
// (each may be left as each cluster has it), confine-rollout on or off. Field problems from the
// server's 422 show beside their field (params.begin, params.kubernetesVersion, ...).
import { SelectField, TextField } from "@/components/ui/form-field";
import type { BulkActionName } from "@/lib/api/bulk-actions";
import type { BulkParamsDraft, FlagChoice } from "@/lib/ui/bulk-actions";

const FLAG_CHOICES: readonly { value: FlagChoice; label: string }[] = [
  { value: "keep", label: "Leave as each cluster has it" },
  { value: "on", label: "On" },
  { value: "off", label: "Off" },
];

export function BulkParamsForm({
  action,
  draft,
  onChange,
  fields,
}: {
  action: BulkActionName;
  draft: BulkParamsDraft;
  onChange: (draft: BulkParamsDraft) => void;
  fields: Record<string, string>;
}) {
  if (action === "set-window") {
    return (
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label="Window starts (UTC)"
          type="time"
          value={draft.windowBegin}
          onChange={(e) => onChange({ ...draft, windowBegin: e.target.value })}
          data-autofocus
          error={fields["params.begin"] ?? fields.params}
          hint="Gardener's window: at least 30 minutes, at most 6 hours."
        />
        <TextField
          label="Window ends (UTC)"
          type="time"
          value={draft.windowEnd}
          onChange={(e) => onChange({ ...draft, windowEnd: e.target.value })}
          error={fields["params.end"]}
        />
      </div>
    );
  }
  if (action === "set-auto-update") {
    return (
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField
          label="Kubernetes patch updates"
          value={draft.kubernetesVersion}
          onChange={(e) => onChange({ ...draft, kubernetesVersion: e.target.value as FlagChoice })}
          options={FLAG_CHOICES}
          error={fields["params.kubernetesVersion"] ?? fields.params}
          data-autofocus
        />
        <SelectField
          label="Machine image updates"
          value={draft.machineImageVersion}
          onChange={(e) => onChange({ ...draft, machineImageVersion: e.target.value as FlagChoice })}
          options={FLAG_CHOICES}
          error={fields["params.machineImageVersion"]}
        />
      </div>
    );
  }
  if (action === "set-confine-rollout") {
    return (
      <SelectField
        label="Spec changes"
        value={draft.confine ? "on" : "off"}
        onChange={(e) => onChange({ ...draft, confine: e.target.value === "on" })}
        options={[
          { value: "on", label: "Wait for each cluster's maintenance window (confined)" },
          { value: "off", label: "Roll out as soon as they are made" },
        ]}
        error={fields["params.confineSpecUpdateRollout"] ?? fields.params}
        data-autofocus
        className="sm:w-2/3"
      />
    );
  }
  return null;
}
