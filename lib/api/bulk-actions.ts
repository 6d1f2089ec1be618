// POST|GET /api/v1/bulk-actions: one change asked of many shoots at once (issue 29, item 1). The
// request names the action, the shoots (a fleet-list filter, or a list) and the action's
// parameters; a dry run answers each shoot's preview, a start answers the action's id, and the
// action then reports each shoot's outcome.
import { z } from "zod";
import { component } from "./components.ts";
import { fieldChangeSchema, type FieldChange } from "./audit.ts";
import { describes } from "./schema-agreement.ts";

export const BULK_ACTIONS = [
  "maintain",
  "set-window",
  "set-auto-update",
  "set-confine-rollout",
  "hibernate",
  "wake",
] as const;
export type BulkActionName = (typeof BULK_ACTIONS)[number];

export const BULK_ACTION_STATES = ["Running", "Succeeded", "Failed", "Cancelled"] as const;
export type BulkActionState = (typeof BULK_ACTION_STATES)[number];

/** Pending -> Acting -> one of the others; Refused: the garden's rules, or the caller's role, said no. */
export const BULK_ITEM_STATES = ["Pending", "Acting", "Succeeded", "Failed", "Refused", "Cancelled"] as const;
export type BulkItemState = (typeof BULK_ITEM_STATES)[number];

/** The most shoots one bulk action may act on (a preview computes each one's plan). */
export const MAX_BULK_SHOOTS = 5_000;

const shootKey = z.strictObject({ namespace: z.string().min(1).max(253), name: z.string().min(1).max(253) });

/**
 * The body as the route reads it: loose on purpose, so that an unknown action, a bad filter or bad
 * parameters are answered 422 naming the field (lib/server/bulk-action-request.ts checks them),
 * as the contract asks, rather than the route's 400 for a body of the wrong shape.
 */
export const bulkActionRequestSchema = z.strictObject({
  action: z
    .string()
    .max(100)
    .meta({ description: `One of ${BULK_ACTIONS.join(", ")}.` }),
  filter: z.record(z.string(), z.unknown()).optional().meta({
    description:
      "The fleet list's query parameters (GET /api/v1/shoots) as an object: every shoot they select that the caller may read. Not with `shoots`.",
  }),
  shoots: z
    .array(z.unknown())
    .max(MAX_BULK_SHOOTS)
    .optional()
    .meta({ description: 'The shoots, as [{"namespace", "name"}]. Not with `filter`.' }),
  params: z.record(z.string(), z.unknown()).optional().meta({
    description:
      'set-window: {"begin": "220000+0000", "end": "230000+0000"}; set-auto-update: {"kubernetesVersion"?: bool, "machineImageVersion"?: bool} (one at least); set-confine-rollout: {"confineSpecUpdateRollout": bool}; the others take none.',
  }),
  dryRun: z.boolean().optional().meta({ description: "true: answer each shoot's preview (200), start nothing." }),
});
export type BulkActionRequest = z.infer<typeof bulkActionRequestSchema>;

export { shootKey as bulkShootKeySchema };
export type { FieldChange };

/** One shoot in a preview: what the action will do there, or why it will not. */
export interface BulkPreviewItem {
  readonly namespace: string;
  readonly name: string;
  /** "act": it will change the shoot; "unchanged": nothing to change; "refused": it will not. */
  readonly outcome: "act" | "unchanged" | "refused";
  /** What will change, field by field (for maintain: the versions the run will change). */
  readonly changes: readonly FieldChange[];
  /** The sentence: the plan's summary, or the refusal's words (as the single-shoot endpoints say them). */
  readonly message: string;
  /** The refusal's field problems (validation), if any. */
  readonly errors?: readonly { readonly field: string; readonly type: string; readonly detail: string }[];
}

export interface BulkPreviewAnswer {
  readonly action: BulkActionName;
  readonly total: number;
  readonly counts: { readonly act: number; readonly unchanged: number; readonly refused: number };
  readonly items: readonly BulkPreviewItem[];
}

export interface BulkStartAnswer {
  readonly id: string;
  readonly total: number;
}

export interface BulkActionItem {
  readonly namespace: string;
  readonly name: string;
  readonly state: BulkItemState;
  readonly message?: string;
  readonly changes: readonly FieldChange[];
}

export interface BulkActionSummary {
  readonly id: string;
  readonly action: BulkActionName;
  readonly params: Readonly<Record<string, unknown>>;
  readonly state: BulkActionState;
  /** Who started it. */
  readonly actor: string;
  readonly createdAt: string;
  readonly finishedAt?: string;
  readonly total: number;
  readonly counts: Readonly<Record<BulkItemState, number>>;
  /** Shoots done (in a final state) of all: 0 to 1. */
  readonly progress: number;
}

export interface BulkActionAnswer extends BulkActionSummary {
  readonly items: readonly BulkActionItem[];
}

export interface BulkActionListAnswer {
  readonly items: readonly BulkActionSummary[];
  /** Pass as `cursor` for older ones; null on the last page. */
  readonly nextCursor: string | null;
}

const changesSchema = z.array(fieldChangeSchema);
const problemsSchema = z.array(z.object({ field: z.string(), type: z.string(), detail: z.string() }));

export const bulkPreviewAnswerSchema = describes<BulkPreviewAnswer>()(
  component(
    "BulkActionPreview",
    z.object({
      action: z.enum(BULK_ACTIONS),
      total: z.number().int(),
      counts: z.object({ act: z.number().int(), unchanged: z.number().int(), refused: z.number().int() }),
      items: z.array(
        z.object({
          namespace: z.string(),
          name: z.string(),
          outcome: z.enum(["act", "unchanged", "refused"]),
          changes: changesSchema,
          message: z.string(),
          errors: problemsSchema.optional(),
        }),
      ),
    }),
  ),
);

export const bulkStartAnswerSchema = describes<BulkStartAnswer>()(
  component("BulkActionStarted", z.object({ id: z.string(), total: z.number().int() })),
);

const countsSchema = z.object(
  Object.fromEntries(BULK_ITEM_STATES.map((s) => [s, z.number().int()])) as Record<BulkItemState, z.ZodNumber>,
);

const summaryFields = {
  id: z.string(),
  action: z.enum(BULK_ACTIONS),
  params: z.record(z.string(), z.unknown()),
  state: z.enum(BULK_ACTION_STATES),
  actor: z.string().meta({ description: "Who started it." }),
  createdAt: z.string(),
  finishedAt: z.string().optional(),
  total: z.number().int(),
  counts: countsSchema,
  progress: z.number().meta({ description: "Shoots in a final state, of all: 0 to 1." }),
};

export const bulkActionSummarySchema = describes<BulkActionSummary>()(
  component("BulkActionSummary", z.object(summaryFields)),
);

export const bulkActionAnswerSchema = describes<BulkActionAnswer>()(
  component(
    "BulkAction",
    z.object({
      ...summaryFields,
      items: z.array(
        z.object({
          namespace: z.string(),
          name: z.string(),
          state: z.enum(BULK_ITEM_STATES),
          message: z.string().optional(),
          changes: changesSchema,
        }),
      ),
    }),
  ),
);

export const bulkActionListAnswerSchema = describes<BulkActionListAnswer>()(
  component(
    "BulkActionPage",
    z.object({
      items: z.array(bulkActionSummarySchema),
      nextCursor: z.string().nullable().meta({ description: "Pass as cursor for older ones; null on the last page." }),
    }),
  ),
);

/** The request id of a bulk action's write to one shoot: its audit event carries it. */
export const bulkRequestId = (bulkActionId: string, position: number) => `bulk:${bulkActionId}:${position}`;

/** The bulk action a request id names (bulkRequestId's form), if it is one. */
export function bulkActionOfRequest(requestId: string | null | undefined): string | undefined {
  const m = /^bulk:([0-9a-f-]{36}):\d+$/.exec(requestId ?? "");
  return m?.[1];
}
