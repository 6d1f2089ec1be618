// GET /api/v1/forecast?days=: the engine's forecast as it is, whose times are ISO 8601 text
// already. An item without `to` is a stuck cluster (JSON leaves the absent version out; never null).
import { z } from "zod";
import type { Forecast, ForecastItem } from "../engine/forecast.ts";
import { component } from "./components.ts";
import { describes } from "./schema-agreement.ts";
import { updateRiskBriefSchema } from "./shoot-list.ts";

export type { ForecastItem, ForecastRisk } from "../engine/forecast.ts";

export interface ForecastAnswer extends Forecast {
  readonly days: number;
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
      to: z.string().optional().meta({ description: "Absent when no version can be found: the cluster is stuck." }),
      reason: z.string(),
      stuck: z.boolean(),
      error: z.string().optional(),
      held: z.literal(true).optional().meta({
        description: "Not forced: the spec asks for it and confineSpecUpdateRollout holds it for this window.",
      }),
      message: z.string(),
      risk: updateRiskBriefSchema
        .optional()
        .meta({ description: "Set when the shoot's record speaks against the update." }),
    }),
  ),
);

export const forecastAnswerSchema = describes<ForecastAnswer>()(
  component(
    "Forecast",
    z.object({
      from: z.string(),
      to: z.string(),
      items: z.array(forecastItemSchema),
      problems: z.array(z.object({ namespace: z.string(), name: z.string(), problem: z.string() })),
      days: z.int(),
    }),
  ),
);
