// TEMPORARY: the update runs' contract as the runs and preview helpers' drafts have it, until
// lib/api/update-runs.ts and lib/api/update-run-preview.ts land; then this file re-exports them.
import type { FieldChange } from "../api/audit.ts";
import type { FreezeMark } from "../api/freeze-mark.ts";
export const UPDATE_RUN_STATES = [
  "Pending",
  "Running",
  "WaitingForApproval",
  "Paused",
  "Succeeded",
  "Failed",
  "Cancelled",
] as const;
export type UpdateRunState = (typeof UPDATE_RUN_STATES)[number];

export type UpdateRunTarget =
  | { readonly action: "maintain" }
  | { readonly kubernetes: string }
  | { readonly machineImage: { readonly name: string; readonly version: string } };

export interface UpdateRunItem {
  readonly namespace: string;
  readonly name: string;
  readonly state: string;
  readonly message?: string;
  readonly dueAt?: string;
  readonly changes?: readonly FieldChange[];
}

export interface UpdateRunStage {
  readonly name: string;
  readonly when: "now" | "window";
  readonly soakSeconds: number;
  readonly approval: boolean;
  readonly state: string;
  readonly startedAt?: string;
  readonly finishedAt?: string;
  readonly soakUntil?: string;
  readonly approvedBy?: string;
  readonly approvedAt?: string;
  readonly holding?: readonly { readonly namespace: string; readonly name: string; readonly reason: string }[];
  readonly items: readonly UpdateRunItem[];
}

export interface UpdateRunSummary {
  readonly id: string;
  readonly name: string;
  readonly state: UpdateRunState;
  readonly target: UpdateRunTarget;
  readonly healthGate: { readonly healthySeconds: number } | null;
  readonly actor: string;
  readonly createdAt: string;
  readonly startedAt?: string;
  readonly finishedAt?: string;
  readonly message?: string;
  readonly expectedEnd?: string;
  readonly total: number;
}

export interface UpdateRunAnswer extends UpdateRunSummary {
  readonly stages: readonly UpdateRunStage[];
}

export interface UpdateRunListAnswer {
  readonly items: readonly UpdateRunSummary[];
  readonly nextCursor: string | null;
}

export interface UpdateRunStartAnswer {
  readonly id: string;
  readonly total: number;
}

export interface ForcedBeforeRun {
  readonly at: string;
  readonly target: "controlPlane" | "worker";
  readonly worker?: string;
  readonly kind: "kubernetes" | "machineImage";
  readonly from: string;
  readonly to: string;
  readonly reason: string;
  readonly message: string;
}

export interface UpdateRunPreviewItem {
  readonly namespace: string;
  readonly name: string;
  readonly outcome: "act" | "unchanged" | "refused";
  readonly changes: readonly FieldChange[];
  readonly message: string;
  readonly errors?: readonly { readonly field: string; readonly type: string; readonly detail: string }[];
  readonly plannedAt: string;
  readonly forcedBefore?: ForcedBeforeRun;
  readonly freeze?: FreezeMark;
}

export interface UpdateRunPreviewCounts {
  readonly act: number;
  readonly unchanged: number;
  readonly refused: number;
  readonly forcedBefore: number;
  readonly inFreeze: number;
}

export interface UpdateRunPreviewStage {
  readonly name: string;
  readonly when: "now" | "window";
  readonly soakSeconds: number;
  readonly approval: boolean;
  readonly afterApproval: boolean;
  readonly earliestStart: string;
  readonly expectedEnd: string;
  readonly message: string;
  readonly counts: UpdateRunPreviewCounts;
  readonly items: readonly UpdateRunPreviewItem[];
}

export interface UpdateRunPreview {
  readonly name: string;
  readonly target: UpdateRunTarget;
  readonly healthGate: { readonly healthySeconds: number } | null;
  readonly actingSeconds: number;
  readonly expectedEnd: string;
  readonly afterApproval: boolean;
  readonly total: number;
  readonly counts: UpdateRunPreviewCounts;
  readonly warnings: readonly string[];
  readonly stages: readonly UpdateRunPreviewStage[];
}
