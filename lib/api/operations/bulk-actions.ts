// Bulk actions: one change asked of many shoots, previewed, then run as background jobs.
import { z } from "zod";
import {
  bulkActionAnswerSchema,
  bulkActionListAnswerSchema,
  bulkActionRequestSchema,
  bulkPreviewAnswerSchema,
  bulkStartAnswerSchema,
} from "../bulk-actions.ts";
import { operation } from "../operation.ts";
import { JSON_BODY } from "./common.ts";

const BULK = "/api/v1/bulk-actions";
const operateSomewhere = { need: "operate", project: "any" } as const;
const readSomewhere = { need: "read", project: "any" } as const;

export const bulkActionsParams = z.strictObject({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z
    .string()
    .regex(/^\d{1,18}$/, "must be the nextCursor of a previous page")
    .optional(),
});

export const startBulkAction = operation({
  method: "post",
  path: BULK,
  operationId: "startBulkAction",
  tag: "Bulk actions",
  summary: "Preview, or start, one action on many shoots",
  description:
    "The shoots are those a fleet-list filter selects (within what the caller may read) or a list. With dryRun, " +
    "each shoot's preview: what the action will change, or why it is refused (the garden's rules, an operation " +
    "under way or pending, the caller's role on that shoot), in the single-shoot endpoints' words. Without, the " +
    "action starts as background jobs and its id is answered; each shoot is acted on at most once, as the caller.",
  access: operateSomewhere,
  body: {
    schema: bulkActionRequestSchema,
    mediaTypes: JSON_BODY,
    invalid: 'The body must be {"action", "filter" or "shoots", "params"?, "dryRun"?}.',
    notAnObject: "The body must be a JSON object.",
  },
  answers: [
    { status: 200, description: "dryRun: each shoot's preview.", json: bulkPreviewAnswerSchema },
    { status: 202, description: "The action started.", json: bulkStartAnswerSchema },
  ],
  problems: [400, 403, 409, 413, 415, 422],
});

export const listBulkActions = operation({
  method: "get",
  path: BULK,
  operationId: "listBulkActions",
  tag: "Bulk actions",
  summary: "Recent bulk actions, newest first, paged",
  description: "The caller's own; a caller with a landscape-wide role sees everyone's.",
  access: readSomewhere,
  query: bulkActionsParams,
  queryWords: { cursor: "The nextCursor of the previous page." },
  answers: [{ status: 200, description: "A page of bulk actions.", json: bulkActionListAnswerSchema }],
  problems: [400],
});

export const getBulkAction = operation({
  method: "get",
  path: `${BULK}/{id}`,
  operationId: "getBulkAction",
  tag: "Bulk actions",
  summary: "A bulk action: its state, progress and each shoot's outcome",
  access: readSomewhere,
  answers: [{ status: 200, description: "The bulk action.", json: bulkActionAnswerSchema }],
  problems: [404],
});

export const cancelBulkAction = operation({
  method: "post",
  path: `${BULK}/{id}/cancel`,
  operationId: "cancelBulkAction",
  tag: "Bulk actions",
  summary: "Cancel a running bulk action: shoots not yet acted on are left alone",
  description: "Shoots being acted on at that moment finish; the rest become Cancelled.",
  access: operateSomewhere,
  answers: [{ status: 202, description: "Cancelled.", json: bulkActionAnswerSchema }],
  problems: [404, 409],
});
