// Update runs: many shoots moved to a target in ordered stages, with soak times, health gates and
// approvals, run as background jobs.
import { z } from "zod";
import { updateRunPreviewSchema } from "../update-run-preview.ts";
import {
  updateRunAnswerSchema,
  updateRunListAnswerSchema,
  updateRunRequestSchema,
  updateRunStartAnswerSchema,
} from "../update-runs.ts";
import { operation } from "../operation.ts";
import { JSON_BODY } from "./common.ts";

const RUNS = "/api/v1/update-runs";
const operateSomewhere = { need: "operate", project: "any" } as const;
const readSomewhere = { need: "read", project: "any" } as const;

export const updateRunsParams = z.strictObject({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z
    .string()
    .regex(/^\d{1,18}$/, "must be the nextCursor of a previous page")
    .optional(),
});

export const startUpdateRun = operation({
  method: "post",
  path: RUNS,
  operationId: "startUpdateRun",
  tag: "Update runs",
  summary: "Preview, or start, an update run: many shoots moved to a target in stages",
  description:
    "Each stage selects shoots by a fleet-list filter or a list (each shoot in one stage) and acts on them at once " +
    '("now") or each in its next maintenance window ("window"); after a stage, the health gate (if asked) and the ' +
    "soak time; a stage with approval waits for someone to approve it. With dryRun, the run's preview. Without, " +
    "the run is made (201) and runs as background jobs, acting on each shoot exactly once as its maker. Making " +
    "one needs the operator role on every project it touches; shoots another run under way owns are 409 naming " +
    "that run; a first stage due at once inside a freeze period is 409 naming the freeze.",
  access: operateSomewhere,
  body: {
    schema: updateRunRequestSchema,
    mediaTypes: JSON_BODY,
    invalid: 'The body must be {"name", "target", "stages", "healthGate"?, "dryRun"?}.',
    notAnObject: "The body must be a JSON object.",
  },
  answers: [
    { status: 200, description: "dryRun: the run's preview.", json: updateRunPreviewSchema },
    { status: 201, description: "The run was made; it starts at once.", json: updateRunStartAnswerSchema },
  ],
  problems: [400, 403, 409, 413, 415, 422],
});

export const listUpdateRuns = operation({
  method: "get",
  path: RUNS,
  operationId: "listUpdateRuns",
  tag: "Update runs",
  summary: "Update runs, newest first, paged",
  description: "Those whose every project the caller may read.",
  access: readSomewhere,
  query: updateRunsParams,
  queryWords: { cursor: "The nextCursor of the previous page." },
  answers: [{ status: 200, description: "A page of update runs.", json: updateRunListAnswerSchema }],
  problems: [400],
});

export const getUpdateRun = operation({
  method: "get",
  path: `${RUNS}/{id}`,
  operationId: "getUpdateRun",
  tag: "Update runs",
  summary: "An update run: its state, each stage's and each shoot's, what it waits for, its expected end",
  access: readSomewhere,
  answers: [{ status: 200, description: "The update run.", json: updateRunAnswerSchema }],
  problems: [404],
});

const ACTION_WORDS =
  " Needs the operator role on every project the run touches; audited. 409 names the run's state when it does not allow this.";

export const approveUpdateRun = operation({
  method: "post",
  path: `${RUNS}/{id}/approve`,
  operationId: "approveUpdateRun",
  tag: "Update runs",
  summary: "Approve the stage that waits for approval",
  description: "The stage starts (unless a freeze holds it)." + ACTION_WORDS,
  access: operateSomewhere,
  answers: [{ status: 202, description: "Done; the run as it stands.", json: updateRunAnswerSchema }],
  problems: [403, 404, 409],
});

export const pauseUpdateRun = operation({
  method: "post",
  path: `${RUNS}/{id}/pause`,
  operationId: "pauseUpdateRun",
  tag: "Update runs",
  summary: "Pause an update run",
  description:
    "Shoots being acted on at that moment finish; nothing more is started until it is resumed." + ACTION_WORDS,
  access: operateSomewhere,
  answers: [{ status: 202, description: "Done; the run as it stands.", json: updateRunAnswerSchema }],
  problems: [403, 404, 409],
});

export const resumeUpdateRun = operation({
  method: "post",
  path: `${RUNS}/{id}/resume`,
  operationId: "resumeUpdateRun",
  tag: "Update runs",
  summary: "Resume a paused update run",
  description:
    "It goes on where it stopped; a health gate that paused it watches its shoots again from now." + ACTION_WORDS,
  access: operateSomewhere,
  answers: [{ status: 202, description: "Done; the run as it stands.", json: updateRunAnswerSchema }],
  problems: [403, 404, 409],
});

export const cancelUpdateRun = operation({
  method: "post",
  path: `${RUNS}/{id}/cancel`,
  operationId: "cancelUpdateRun",
  tag: "Update runs",
  summary: "Cancel an update run",
  description:
    "Shoots not yet acted on are left alone (Cancelled); those being acted on at that moment finish." + ACTION_WORDS,
  access: operateSomewhere,
  answers: [{ status: 202, description: "Done; the run as it stands.", json: updateRunAnswerSchema }],
  problems: [403, 404, 409],
});
