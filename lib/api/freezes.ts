// /api/v1/freezes: freeze periods (issue 29, item 4), in which Almanac starts no bulk action and no
// update run stage, landscape-wide or for one project. Gardener cannot be told about them: its
// maintenance still forces the update of an expired version inside a freeze, and the forecast
// marks those updates (`freeze` on an item).
import { z } from "zod";
import { component } from "./components.ts";
import { type ForecastItem, forecastItemSchema } from "./forecast.ts";
import { describes } from "./schema-agreement.ts";

export const FREEZE_STATES = ["current", "upcoming", "past"] as const;
export type FreezeState = (typeof FREEZE_STATES)[number];

/** The forced updates Gardener will still make inside one freeze (from the stored forecast). */
export interface FreezeForcedUpdates {
  /** How many there are. */
  readonly total: number;
  /** How many clusters they belong to. */
  readonly shoots: number;
  /** The first of them in time order (at most FREEZE_FORCED_FIRST). */
  readonly items: readonly ForecastItem[];
}

export interface FreezeJson {
  readonly id: string;
  /** ISO 8601 (UTC); the freeze holds from start (included) to end (excluded). */
  readonly start: string;
  readonly end: string;
  readonly reason: string;
  /** The project it covers; null: the whole landscape. */
  readonly project: string | null;
  /** Who made it, as the audit log names them, and when. */
  readonly createdBy: string;
  readonly created: string;
  /** Whether it holds now, is still to come, or is over (at the moment of the answer). */
  readonly state: FreezeState;
  /** With forcedUpdates=true: what Gardener will force inside it anyway. */
  readonly forcedUpdates?: FreezeForcedUpdates;
}

export interface FreezeListAnswer {
  /** The moment the answer was made (ISO 8601): `state` is as of then. */
  readonly now: string;
  /** Current and upcoming freezes by start, then past ones, the latest ended first. */
  readonly items: readonly FreezeJson[];
}

export const FREEZE_FORCED_FIRST = 50;

const moment = z.string().meta({
  description: "RFC 3339 with an offset, e.g. 2026-12-20T00:00:00+01:00.",
  examples: ["2026-12-20T00:00:00+01:00"],
});

/**
 * POST /api/v1/freezes. Each field is optional to the schema so that a missing one is answered
 * 422 naming it, like every other rule the freeze breaks (lib/engine/freezes.ts).
 */
export const createFreezeSchema = z.strictObject({
  start: moment.optional(),
  end: moment.optional(),
  reason: z.string().optional().meta({ description: "Why nothing may change; people read it." }),
  project: z
    .string()
    .optional()
    .meta({ description: "The project the freeze covers; leave it out for the whole landscape." }),
});
export type CreateFreezeRequest = z.infer<typeof createFreezeSchema>;

export const FREEZE_WORDS =
  "Gardener cannot be stopped from forcing the update of an expired version: a freeze stops what Almanac starts (bulk actions, update run stages), not Gardener's maintenance. Move such a cluster before the freeze: update it now, maintain it now, or change its maintenance window.";

export const freezeForcedUpdatesSchema = describes<FreezeForcedUpdates>()(
  component(
    "FreezeForcedUpdates",
    z.object({
      total: z.int().meta({ description: "The forced updates Gardener will make inside the freeze." }),
      shoots: z.int().meta({ description: "The clusters they belong to." }),
      items: z
        .array(forecastItemSchema)
        .meta({ description: `The first ones in time order (at most ${FREEZE_FORCED_FIRST}).` }),
    }),
  ),
);

export const freezeJsonSchema = describes<FreezeJson>()(
  component(
    "Freeze",
    z.object({
      id: z.string(),
      start: z.string(),
      end: z.string().meta({ description: "The freeze holds from start (included) to end (excluded)." }),
      reason: z.string(),
      project: z.string().nullable().meta({ description: "null: the whole landscape." }),
      createdBy: z.string(),
      created: z.string(),
      state: z.enum(FREEZE_STATES),
      forcedUpdates: freezeForcedUpdatesSchema
        .optional()
        .meta({ description: "With forcedUpdates=true: what Gardener will force inside the freeze anyway." }),
    }),
  ),
);

export const freezeListAnswerSchema = describes<FreezeListAnswer>()(
  component(
    "FreezeList",
    z.object({
      now: z.string().meta({ description: "The moment the answer was made: each state is as of then." }),
      items: z.array(freezeJsonSchema),
    }),
  ),
);
