// Freeze periods: the calendar of times in which Almanac starts no bulk action and no update run
// stage (landscape-wide or per project), made and removed by those who may change what they cover.
import { z } from "zod";
import { FREEZE_WORDS, createFreezeSchema, freezeJsonSchema, freezeListAnswerSchema } from "../freezes.ts";
import { operation } from "../operation.ts";
import { JSON_BODY, onAnyProject } from "./common.ts";

const yes = z
  .enum(["true", "false"])
  .optional()
  .transform((v) => v === "true");

// A moment of a query: the same RFC 3339 text a freeze is made with (checked by the use case, so
// the problem names the parameter as query.from or query.to).
const queryMoment = z.string().min(1).max(64);

export const freezesParams = z.strictObject({
  /** Only freezes that have not ended by this moment… */
  from: queryMoment.optional(),
  /** …and begin before this one. */
  to: queryMoment.optional(),
  /** Only the freezes that apply to this project: its own and the landscape-wide ones. */
  project: z.string().min(1).max(253).optional(),
  /** Each freeze with the forced updates Gardener will still make inside it. */
  forcedUpdates: yes,
});
export type FreezesParams = z.output<typeof freezesParams>;

/** Who may make or remove a freeze is the use case's to say (admin landscape-wide, else operate on the project). */
const operateSomewhere = { need: "operate", project: "any" } as const;

export const listFreezes = operation({
  method: "get",
  path: "/api/v1/freezes",
  operationId: "listFreezes",
  tag: "Freezes",
  summary: "The freeze periods: current and upcoming first, then past ones",
  description: `A caller with a role on some projects sees the landscape-wide freezes and those of their projects. ${FREEZE_WORDS}`,
  access: onAnyProject,
  query: freezesParams,
  queryWords: {
    from: "RFC 3339 with an offset: only freezes that have not ended by then.",
    to: "RFC 3339 with an offset: only freezes that begin before then.",
    project: "Only the freezes that apply to this project: its own and the landscape-wide ones.",
    forcedUpdates:
      '"true": each freeze with the forced updates Gardener will still make inside it (from the stored forecast).',
  },
  answers: [{ status: 200, description: "The freezes.", json: freezeListAnswerSchema }],
  problems: [400],
});

export const createFreeze = operation({
  method: "post",
  path: "/api/v1/freezes",
  operationId: "createFreeze",
  tag: "Freezes",
  summary: "Make a freeze period",
  description: `A landscape-wide freeze (no project) needs the admin role on the whole landscape; a project's needs a role that may change that project's shoots (operator). 422 names the field: start or end missing or not RFC 3339 with an offset, end not after start, longer than ALMANAC_FREEZE_MAX_DAYS (90 days by default), end in the past, an empty reason, an unknown project. Audited. ${FREEZE_WORDS}`,
  access: operateSomewhere,
  body: {
    schema: createFreezeSchema,
    mediaTypes: JSON_BODY,
    invalid: "The freeze needs start and end (RFC 3339 text), a reason and, for one project, its name.",
  },
  answers: [{ status: 201, description: "The freeze.", json: freezeJsonSchema }],
  problems: [400, 413, 415, 422],
});

export const deleteFreeze = operation({
  method: "delete",
  path: "/api/v1/freezes/{id}",
  operationId: "deleteFreeze",
  tag: "Freezes",
  summary: "Remove a freeze period",
  description:
    "Needs what making it needed: admin for a landscape-wide freeze, operator on its project for a project's. Audited.",
  access: operateSomewhere,
  answers: [{ status: 204, description: "The freeze is gone." }],
  problems: [404],
});
