// POST /api/v1/update-runs with dryRun (issue 29, item 3): the whole run's forecast before it
// starts. Per stage and cluster: the moment the run reaches it, what it will change (or why it
// will not: the caller's role, the garden's validation, an operation under way, in the bulk
// preview's words), the update Gardener will force on it first anyway, the freeze its moment falls
// in; and when each stage and the run are expected to end. Made by lib/server/update-run-preview.ts
// from the engine's plan (lib/engine/update-run-plan.ts).
import { z } from "zod";
import { fieldChangeSchema, type FieldChange } from "./audit.ts";
import { component } from "./components.ts";
import { type FreezeMark, freezeMarkSchema } from "./freeze-mark.ts";
import { describes } from "./schema-agreement.ts";
import type { UpdateRunTarget } from "../engine/update-run-target.ts";

/** The run's target as asked (lib/api/update-runs.ts). */
export type UpdateRunPreviewTarget = UpdateRunTarget;

/** The update Gardener's maintenance will force on a cluster before the run reaches it. */
export interface ForcedBeforeRun {
  /** The maintenance moment (ISO 8601, UTC). */
  readonly at: string;
  readonly target: "controlPlane" | "worker";
  /** The worker pool, for a worker's update. */
  readonly worker?: string;
  readonly kind: "kubernetes" | "machineImage";
  readonly from: string;
  /** The version Gardener moves it to. */
  readonly to: string;
  /** Why it is forced: the version expired, or is missing from the cloud profile. */
  readonly reason: string;
  readonly message: string;
  /** The freeze it falls in: Gardener cannot be stopped from forcing it there. */
  readonly freeze?: FreezeMark;
}

export interface UpdateRunPreviewItem {
  readonly namespace: string;
  readonly name: string;
  /** "act": the run will change it; "unchanged": nothing to change; "refused": it will not. */
  readonly outcome: "act" | "unchanged" | "refused";
  readonly changes: readonly FieldChange[];
  /** The sentence: what the run does there, or why it will not (the bulk preview's words). */
  readonly message: string;
  /** The refusal's field problems (validation), if any. */
  readonly errors?: readonly { readonly field: string; readonly type: string; readonly detail: string }[];
  /** When the run reaches it (ISO 8601, UTC): the earliest, after an approval. */
  readonly plannedAt: string;
  readonly forcedBefore?: ForcedBeforeRun;
  /** The freeze its moment fell in: the run starts nothing there, so `plannedAt` is after it. */
  readonly freeze?: FreezeMark;
}

export interface UpdateRunPreviewCounts {
  readonly act: number;
  readonly unchanged: number;
  readonly refused: number;
  /** Clusters Gardener will force-update before the run reaches them. */
  readonly forcedBefore: number;
  /** Clusters the run would act on inside a freeze. */
  readonly inFreeze: number;
}

export interface UpdateRunPreviewStage {
  readonly name: string;
  readonly when: "now" | "window";
  readonly soakSeconds: number;
  readonly approval: boolean;
  /** It, or an earlier stage, waits for approval: its moments are the earliest possible. */
  readonly afterApproval: boolean;
  /** ISO 8601: when it may start at the earliest (after a freeze that holds it). */
  readonly earliestStart: string;
  /** The freeze it would start in: the run waits for its end (every cluster's moment moves). */
  readonly freeze?: FreezeMark;
  /** ISO 8601: its last cluster done and the health gate passed (the earliest, after an approval). */
  readonly expectedEnd: string;
  /** When it starts and ends, in words ("after approval", "in each cluster's window"). */
  readonly message: string;
  readonly counts: UpdateRunPreviewCounts;
  readonly items: readonly UpdateRunPreviewItem[];
}

export interface UpdateRunPreview {
  readonly name: string;
  readonly target: UpdateRunPreviewTarget;
  readonly healthGate: { readonly healthySeconds: number } | null;
  /** The seconds a cluster's update is expected to take (ALMANAC_UPDATE_RUN_ACTING_SECONDS). */
  readonly actingSeconds: number;
  /** ISO 8601: the last stage's expected end (the earliest, after an approval). */
  readonly expectedEnd: string;
  /** Some stage waits for approval: the end is the earliest possible. */
  readonly afterApproval: boolean;
  readonly total: number;
  readonly counts: UpdateRunPreviewCounts;
  /** What to know before starting, in words (forced updates first). */
  readonly warnings: readonly string[];
  readonly stages: readonly UpdateRunPreviewStage[];
}

const moment = z.string().meta({ description: "ISO 8601 (UTC)." });

const countsSchema = z.object({
  act: z.number().int(),
  unchanged: z.number().int(),
  refused: z.number().int(),
  forcedBefore: z
    .number()
    .int()
    .meta({ description: "Clusters Gardener will force-update before the run reaches them." }),
  inFreeze: z.number().int().meta({ description: "Clusters the run would act on inside a freeze." }),
});

const forcedBeforeSchema = z.object({
  at: moment.meta({ description: "The maintenance moment Gardener forces the update at." }),
  target: z.enum(["controlPlane", "worker"]),
  worker: z.string().optional(),
  kind: z.enum(["kubernetes", "machineImage"]),
  from: z.string(),
  to: z.string().meta({ description: "The version Gardener moves it to." }),
  reason: z.string(),
  message: z.string(),
  freeze: freezeMarkSchema
    .optional()
    .meta({ description: "The freeze it falls in: Gardener cannot be stopped from forcing it there." }),
});

export const updateRunPreviewSchema = describes<UpdateRunPreview>()(
  component(
    "UpdateRunPreview",
    z.object({
      name: z.string(),
      target: z.union([
        z.object({ action: z.literal("maintain") }),
        z.object({ kubernetes: z.string() }),
        z.object({ machineImage: z.object({ name: z.string(), version: z.string() }) }),
      ]),
      healthGate: z.object({ healthySeconds: z.number().int() }).nullable(),
      actingSeconds: z.number().int().meta({ description: "How long one cluster's update is expected to take." }),
      expectedEnd: moment.meta({ description: "The last stage's expected end (the earliest, after an approval)." }),
      afterApproval: z.boolean().meta({ description: "Some stage waits for approval: the end is the earliest." }),
      total: z.number().int(),
      counts: countsSchema,
      warnings: z.array(z.string()),
      stages: z.array(
        z.object({
          name: z.string(),
          when: z.enum(["now", "window"]),
          soakSeconds: z.number().int(),
          approval: z.boolean(),
          afterApproval: z.boolean(),
          earliestStart: moment.meta({ description: "When it starts at the earliest (after a freeze that holds it)." }),
          freeze: freezeMarkSchema
            .optional()
            .meta({ description: "The freeze it would start in: the run waits for its end." }),
          expectedEnd: moment,
          message: z.string(),
          counts: countsSchema,
          items: z.array(
            z.object({
              namespace: z.string(),
              name: z.string(),
              outcome: z.enum(["act", "unchanged", "refused"]),
              changes: z.array(fieldChangeSchema),
              message: z.string(),
              errors: z.array(z.object({ field: z.string(), type: z.string(), detail: z.string() })).optional(),
              plannedAt: moment.meta({ description: "When the run reaches it (the earliest, after an approval)." }),
              forcedBefore: forcedBeforeSchema.optional(),
              freeze: freezeMarkSchema.optional(),
            }),
          ),
        }),
      ),
    }),
  ),
);
