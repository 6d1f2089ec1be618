// /api/v1/update-runs (issue 29, item 2): a named plan that moves many shoots to a target in
// ordered stages ("now", or in each shoot's next maintenance window), with a soak time between
// stages, a health gate after each, and approvals before those that ask for one. The request is
// checked by lib/server/update-run-request.ts (422s naming the field); a run is then followed
// through its answer: the run's state, each stage's, each shoot's, and what the run waits for.
import { z } from "zod";
import type { UpdateRunTarget } from "../engine/update-run-target.ts";
import { fieldChangeSchema, type FieldChange } from "./audit.ts";
import { BULK_ITEM_STATES, type BulkItemState } from "./bulk-actions.ts";
import { component } from "./components.ts";
import { describes } from "./schema-agreement.ts";

export type { UpdateRunTarget };

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

/** The states a run ends in. */
export const FINAL_RUN_STATES: readonly UpdateRunState[] = ["Succeeded", "Failed", "Cancelled"];

/**
 * A stage: Pending (not begun), WaitingForApproval (its approval is asked for), Acting (its shoots
 * are acted on: at once, or each in its window), Gating (the health gate watches its shoots),
 * Soaking (the soak time before the next stage), then Succeeded, Failed or Cancelled.
 */
export const UPDATE_RUN_STAGE_STATES = [
  "Pending",
  "WaitingForApproval",
  "Acting",
  "Gating",
  "Soaking",
  "Succeeded",
  "Failed",
  "Cancelled",
] as const;
export type UpdateRunStageState = (typeof UPDATE_RUN_STAGE_STATES)[number];

/** A shoot of a run: a bulk action's item states (the same ledger, lib/server/act-once.ts). */
export type UpdateRunItemState = BulkItemState;
export const UPDATE_RUN_ITEM_STATES = BULK_ITEM_STATES;

export const WHEN = ["now", "window"] as const;
export type StageWhen = (typeof WHEN)[number];

/** Bounds of the request (the 422s name the field beyond them). */
export const MAX_RUN_STAGES = 20;
export const MAX_RUN_SHOOTS = 5_000;
export const MAX_SOAK_SECONDS = 30 * 24 * 3600;
export const MIN_HEALTHY_SECONDS = 1;
export const MAX_HEALTHY_SECONDS = 7 * 24 * 3600;
export const MAX_RUN_NAME = 100;
export const MAX_STAGE_NAME = 63;

const shootKey = z.strictObject({ namespace: z.string().min(1).max(253), name: z.string().min(1).max(253) });

/** The target, as checked (lib/server/update-run-request.ts answers its 422 naming `target`). */
export const updateRunTargetSchema = z.union([
  z.strictObject({ action: z.literal("maintain") }),
  z.strictObject({
    kubernetes: z.string().min(1).max(64).meta({
      description: '"1.33" (the newest usable patch of 1.33), "1.33.4", or "latest-patch" (of each shoot\'s minor).',
    }),
  }),
  z.strictObject({
    machineImage: z.strictObject({ name: z.string().min(1).max(63), version: z.string().min(1).max(64) }),
  }),
]);

/** One stage, as checked (its problems are 422s naming `stages[i].<field>`). */
export const updateRunStageSchema = z.strictObject({
  name: z.string().min(1).max(MAX_STAGE_NAME),
  filter: z.record(z.string(), z.unknown()).optional(),
  shoots: z.array(shootKey).max(MAX_RUN_SHOOTS).optional(),
  when: z.enum(WHEN),
  soakSeconds: z.number().int().min(0).max(MAX_SOAK_SECONDS).optional(),
  approval: z.boolean().optional(),
});

export const healthGateSchema = z.strictObject({
  healthySeconds: z.number().int().min(MIN_HEALTHY_SECONDS).max(MAX_HEALTHY_SECONDS),
});

/**
 * The body as the route reads it: loose on purpose (as the bulk request is), so that a bad target,
 * stage or gate is answered 422 naming the field (lib/server/update-run-request.ts), as the
 * contract asks, rather than the route's 400 for a body of the wrong shape.
 */
export const updateRunRequestSchema = z.strictObject({
  // Each optional to the schema so that a missing one is answered 422 naming it (update-run-request.ts).
  name: z
    .unknown()
    .optional()
    .meta({ description: `The run's name (1 to ${MAX_RUN_NAME} characters). Required.` }),
  target: z.unknown().optional().meta({
    description:
      'Required. {"action": "maintain"} (maintenance now), {"kubernetes": "1.33" | "1.33.4" | "latest-patch"}, or {"machineImage": {"name", "version"}}.',
  }),
  stages: z
    .array(z.unknown())
    .optional()
    .meta({
      description:
        `Required. In order (1 to ${MAX_RUN_STAGES}), each shoot in one stage only: ` +
        '{"name", "filter" (the fleet list\'s query parameters as an object) | "shoots" ([{"namespace", "name"}]), "when": "now" | "window", "soakSeconds"?, "approval"?}.',
    }),
  healthGate: z
    .unknown()
    .optional()
    .meta({
      description: `{"healthySeconds": N} (${MIN_HEALTHY_SECONDS} to ${MAX_HEALTHY_SECONDS}): after each stage, every shoot of it Healthy with its last operation Succeeded for that long.`,
    }),
  dryRun: z.boolean().optional().meta({ description: "true: answer the run's preview (200), start nothing." }),
});
export type UpdateRunRequest = z.infer<typeof updateRunRequestSchema>;

/** A shoot that holds a stage's health gate, and why. */
export interface UpdateRunHolding {
  readonly namespace: string;
  readonly name: string;
  readonly reason: string;
}

export interface UpdateRunItem {
  readonly namespace: string;
  readonly name: string;
  readonly state: UpdateRunItemState;
  readonly message?: string;
  /** A window stage: the start of this shoot's window the run acts in (ISO 8601). */
  readonly dueAt?: string;
  /** What the run changed there, once acted on. */
  readonly changes?: readonly FieldChange[];
}

export interface UpdateRunStage {
  readonly name: string;
  readonly when: StageWhen;
  readonly soakSeconds: number;
  readonly approval: boolean;
  readonly state: UpdateRunStageState;
  readonly startedAt?: string;
  readonly finishedAt?: string;
  /** Soaking: when the soak ends and the next stage may begin. */
  readonly soakUntil?: string;
  readonly approvedBy?: string;
  readonly approvedAt?: string;
  /** Gating: the shoots that are not (yet) healthy for long enough. */
  readonly holding?: readonly UpdateRunHolding[];
  readonly items: readonly UpdateRunItem[];
}

export interface UpdateRunSummary {
  readonly id: string;
  readonly name: string;
  readonly state: UpdateRunState;
  readonly target: UpdateRunTarget;
  readonly healthGate: { readonly healthySeconds: number } | null;
  /** Who created it (it acts as them). */
  readonly actor: string;
  readonly createdAt: string;
  readonly startedAt?: string;
  readonly finishedAt?: string;
  /** What the run waits for, in words (an approval, a freeze, a gate, a soak, windows). */
  readonly message?: string;
  /** When the run is expected to end, if nothing holds it (ISO 8601). */
  readonly expectedEnd?: string;
  /** Shoots of all its stages. */
  readonly total: number;
}

export interface UpdateRunAnswer extends UpdateRunSummary {
  readonly stages: readonly UpdateRunStage[];
}

/** The list: each run without its stages' shoots. */
export interface UpdateRunListAnswer {
  readonly items: readonly UpdateRunSummary[];
  /** Pass as `cursor` for older ones; null on the last page. */
  readonly nextCursor: string | null;
}

export interface UpdateRunStartAnswer {
  readonly id: string;
  readonly total: number;
}

const moment = z.string().meta({ description: "ISO 8601 (UTC)." });

const targetAnswerSchema = z.union([
  z.object({ action: z.literal("maintain") }),
  z.object({ kubernetes: z.string() }),
  z.object({ machineImage: z.object({ name: z.string(), version: z.string() }) }),
]);

const summaryFields = {
  id: z.string(),
  name: z.string(),
  state: z.enum(UPDATE_RUN_STATES),
  target: targetAnswerSchema,
  healthGate: z.object({ healthySeconds: z.number().int() }).nullable(),
  actor: z.string().meta({ description: "Who created it (it acts as them)." }),
  createdAt: moment,
  startedAt: moment.optional(),
  finishedAt: moment.optional(),
  message: z.string().optional().meta({ description: "What the run waits for, in words." }),
  expectedEnd: moment.optional().meta({ description: "When it is expected to end if nothing holds it." }),
  total: z.number().int(),
};

export const updateRunSummarySchema = describes<UpdateRunSummary>()(
  component("UpdateRunSummary", z.object(summaryFields)),
);

export const updateRunAnswerSchema = describes<UpdateRunAnswer>()(
  component(
    "UpdateRun",
    z.object({
      ...summaryFields,
      stages: z.array(
        z.object({
          name: z.string(),
          when: z.enum(WHEN),
          soakSeconds: z.number().int(),
          approval: z.boolean(),
          state: z.enum(UPDATE_RUN_STAGE_STATES),
          startedAt: moment.optional(),
          finishedAt: moment.optional(),
          soakUntil: moment.optional(),
          approvedBy: z.string().optional(),
          approvedAt: moment.optional(),
          holding: z.array(z.object({ namespace: z.string(), name: z.string(), reason: z.string() })).optional(),
          items: z.array(
            z.object({
              namespace: z.string(),
              name: z.string(),
              state: z.enum(UPDATE_RUN_ITEM_STATES),
              message: z.string().optional(),
              dueAt: moment.optional(),
              changes: z.array(fieldChangeSchema).optional(),
            }),
          ),
        }),
      ),
    }),
  ),
);

export const updateRunListAnswerSchema = describes<UpdateRunListAnswer>()(
  component(
    "UpdateRunPage",
    z.object({
      items: z.array(updateRunSummarySchema),
      nextCursor: z.string().nullable().meta({ description: "Pass as cursor for older ones; null on the last page." }),
    }),
  ),
);

export const updateRunStartAnswerSchema = describes<UpdateRunStartAnswer>()(
  component("UpdateRunStarted", z.object({ id: z.string(), total: z.number().int() })),
);

/** The request id of a run's write to one shoot: its audit event carries it. */
export const updateRunRequestId = (runId: string, position: number) => `run:${runId}:${position}`;

/**
 * The update run a request id names, if it is one: a write to one of its shoots
 * (updateRunRequestId's form) or one of the run's own events (`run:<id>`).
 */
export function updateRunOfRequest(requestId: string | null | undefined): string | undefined {
  const m = /^run:([0-9a-f-]{36})(?::\d+)?$/.exec(requestId ?? "");
  return m?.[1];
}
