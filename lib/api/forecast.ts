// GET /api/v1/forecast?days=: the engine's forecast as it is (or, for a page, its summary and its
// first items), whose times are ISO 8601 text already. An item without `to` is a stuck cluster
// (JSON leaves the absent version out; never null); a stuck one with `to` has its update refused.
import { z } from "zod";
import type { Forecast, ForecastItem } from "../engine/forecast.ts";
import type { ForecastMarker, ForecastSummary } from "../engine/forecast-summary.ts";
import { component } from "./components.ts";
import { type FreezeMark, freezeMarkSchema } from "./freeze-mark.ts";
import { describes } from "./schema-agreement.ts";
import { updateRiskBriefSchema } from "./shoot-list.ts";

export type { ForecastItem, ForecastRisk } from "../engine/forecast.ts";
export type { ForecastDay, ForecastMarker, ForecastSummary } from "../engine/forecast-summary.ts";

/**
 * An item as the forecast answers it: the engine's, and the freeze it falls in when Gardener will
 * force it inside one (added at read time from the freezes, lib/server/forecast-freezes.ts).
 */
export interface ForecastAnswerItem extends ForecastItem {
  readonly freeze?: FreezeMark;
}

/** The summary as the forecast answers it: the engine's, and the forced updates inside freezes. */
export interface ForecastAnswerSummary extends ForecastSummary {
  /** Only when a freeze overlaps the forecast: how many of its forced updates fall inside freezes. */
  readonly forcedInFreezes?: number;
}

export interface ForecastAnswer extends Omit<Forecast, "items"> {
  readonly items: readonly ForecastAnswerItem[];
  readonly days: number;
  /** With `limit`: how many items there are (`items` holds the first `limit`). */
  readonly total?: number;
  /** With `summary=true`. */
  readonly summary?: ForecastAnswerSummary;
  /** With `markers=true`. */
  readonly markers?: readonly ForecastMarker[];
}

export const forecastItemSchema = describes<ForecastItem>()(
  component(
    "ForecastItem",
    z.object({
      namespace: z.string(),
      name: z.string(),
      cloudProfile: z.string(),
      target: z.enum(["controlPlane", "worker"]),
      worker: z.string().optional(),
      kind: z.enum(["kubernetes", "machineImage"]),
      at: z.string(),
      window: z.object({ begin: z.string(), end: z.string() }),
      from: z.string(),
      to: z.string().optional().meta({
        description:
          "Absent when no version can be found: the cluster is stuck. On a stuck item with `to`, the API server refuses the update to it (`error` says why).",
      }),
      reason: z.string(),
      stuck: z.boolean(),
      error: z.string().optional(),
      held: z.literal(true).optional().meta({
        description: "Not forced: the spec asks for it and confineSpecUpdateRollout holds it for this window.",
      }),
      whileHibernated: z.literal(true).optional().meta({
        description:
          "The shoot's hibernation schedules keep it hibernated at that moment: maintenance still updates the spec (Gardener's maintenance controller does not skip hibernated shoots), and the nodes come up with the new versions when it wakes.",
      }),
      message: z.string(),
      risk: updateRiskBriefSchema
        .optional()
        .meta({ description: "Set when the shoot's record speaks against the update." }),
    }),
  ),
);

export const forecastSummarySchema = describes<ForecastAnswerSummary>()(
  component(
    "ForecastSummary",
    z.object({
      updates: z.int().meta({ description: "Every update the narrowing (kind, stuck, atRisk) selects." }),
      forced: z.int().meta({ description: "Of them, those forced (not held rollouts)." }),
      forcedShoots: z.int(),
      stuck: z.int().meta({ description: "Of them, those with no version to move to." }),
      stuckShoots: z.int(),
      held: z.int().meta({ description: "Of them, rollouts held for the next window by confineSpecUpdateRollout." }),
      heldShoots: z.int(),
      risk: z
        .object({
          of: z.int().meta({ description: 'The updates every narrowing but "atRisk" selects.' }),
          updates: z.int(),
          shoots: z.int(),
          byCause: z
            .partialRecord(
              z.enum(["deleting", "maintenanceFailed", "operationFailed", "preconditionsFalse", "hibernated"]),
              z.int(),
            )
            .meta({ description: "Shoots per cause; a shoot counts once for each of its causes." }),
        })
        .meta({ description: "The updates at risk among those every narrowing but atRisk selects." }),
      days: z
        .array(
          z.object({
            start: z.string().meta({ description: "UTC midnight." }),
            kubernetes: z.int(),
            machineImage: z.int(),
            stuck: z.int(),
          }),
        )
        .meta({
          description:
            "Per UTC day with selected updates, in time order: those that happen per kind, and the stuck ones.",
        }),
      forcedInFreezes: z.int().optional().meta({
        description:
          "Only when a freeze overlaps the forecast: how many of the selected forced updates (held rollouts left out) fall inside a freeze that covers their cluster. Gardener makes them anyway.",
      }),
    }),
  ),
);

export const forecastMarkerSchema = describes<ForecastMarker>()(
  component(
    "ForecastMarker",
    z.object({
      from: z.string().meta({ description: "The Kubernetes version the updates move from." }),
      at: z.string().meta({ description: "The first update's moment." }),
      updates: z.int(),
      stuck: z.int(),
      first: z.array(forecastItemSchema).meta({ description: "The first six updates, in time order." }),
    }),
  ),
);

export const forecastAnswerItemSchema = describes<ForecastAnswerItem>()(
  component(
    "ForecastAnswerItem",
    forecastItemSchema.extend({
      freeze: freezeMarkSchema.optional().meta({
        description:
          "Set when Gardener will force this update inside a freeze that covers the cluster: the freeze (the one lasting longest when several do). A freeze does not stop Gardener: move the cluster before it (update or maintain it now, or change its window).",
      }),
    }),
  ),
);

export const forecastAnswerSchema = describes<ForecastAnswer>()(
  component(
    "Forecast",
    z.object({
      from: z.string(),
      to: z.string(),
      items: z.array(forecastAnswerItemSchema),
      problems: z.array(z.object({ namespace: z.string(), name: z.string(), problem: z.string() })),
      days: z.int(),
      total: z.int().optional().meta({ description: "With limit: how many items the narrowing selects." }),
      summary: forecastSummarySchema.optional(),
      markers: z
        .array(forecastMarkerSchema)
        .optional()
        .meta({ description: "With markers=true: the Kubernetes updates per version moved from and ISO week (UTC)." }),
    }),
  ),
);
