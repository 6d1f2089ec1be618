// What maintenance will force in the coming days, as a page and as a download.
import { z } from "zod";
import { FORECAST_MAX_DAYS } from "../../engine/forecast-facts.ts";
import { EXPORT_FORMATS } from "../export.ts";
import { forecastAnswerSchema, forecastItemSchema } from "../forecast.ts";
import { operation } from "../operation.ts";
import { download, exportMedia, onAnyProject } from "./common.ts";

const name = z.string().min(1).max(253);

const yes = z
  .enum(["true", "false"])
  .optional()
  .transform((v) => v === "true");

/** The most items one answer gives when a page asks for the first of them. */
export const FORECAST_MAX_LIMIT = 10_000;

export const forecastParams = z.strictObject({
  days: z.coerce.number().int().min(1).max(FORECAST_MAX_DAYS).default(30),
  namespace: name.optional(),
  /** One shoot (with `namespace`), e.g. the lifecycle page's outlook. */
  name: name.optional(),
  /** The shoots of one cloud profile, e.g. its page's impact. */
  cloudProfile: name.optional(),
  kind: z.enum(["kubernetes", "machineImage"]).optional(),
  stuck: yes,
  atRisk: yes,
  /** Only the first `limit` items; the answer's `total` says how many there are. */
  limit: z.coerce.number().int().min(0).max(FORECAST_MAX_LIMIT).optional(),
  /** Also the counts of lib/engine/forecast-summary.ts, in `summary`. */
  summary: yes,
  /** Also the Kubernetes updates by version and week (a cloud profile's timeline), in `markers`. */
  markers: yes,
});
export type ForecastParams = z.infer<typeof forecastParams>;

export const exportForecastParams = forecastParams.omit({ limit: true, summary: true, markers: true }).extend({
  format: z.enum(EXPORT_FORMATS).default("csv"),
});

export const getForecast = operation({
  method: "get",
  path: "/api/v1/forecast",
  operationId: "getForecast",
  tag: "Forecast",
  summary: "Every update maintenance will force in the coming days",
  access: onAnyProject,
  query: forecastParams,
  answers: [{ status: 200, description: "The forecast.", json: forecastAnswerSchema }],
  problems: [400],
});

export const exportForecast = operation({
  method: "get",
  path: "/api/v1/forecast/export",
  operationId: "exportForecast",
  tag: "Forecast",
  summary: "Download the forecast's updates with the page's filters",
  access: onAnyProject,
  query: exportForecastParams,
  answers: [
    {
      status: 200,
      description: "Every matching update.",
      media: exportMedia(forecastItemSchema),
      headers: download,
    },
  ],
  problems: [400],
});
