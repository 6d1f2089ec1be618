// GET /api/v1/forecast/export?format=csv|json&days=&namespace=&cloudProfile=&kind=&stuck=&atRisk=: every
// forced update of the forecast the page shows, with the page's filters (horizon, namespace, cloud
// profile, kind, "stuck only" and "at risk only"), for what the caller may read.
import { EXPORT_FORMATS } from "../api/export.ts";
import type { ForecastAnswer, ForecastItem } from "../api/forecast.ts";
import type { Db } from "../db/client.ts";
import { parseQuery } from "../http/parse-query.ts";
import { z } from "zod";
import { type CsvColumn, csvHeader, csvRow } from "./csv.ts";
import { type Export, fileDay, onePiece } from "./export-file.ts";
import { fleetForecastJson, forecastParams } from "./fleet-forecast.ts";
import type { FleetScope } from "./fleet-scope.ts";

export const exportForecastParams = forecastParams.omit({ limit: true, summary: true, markers: true }).extend({
  format: z.enum(EXPORT_FORMATS).default("csv"),
});

export const FORECAST_COLUMNS: readonly CsvColumn<ForecastItem>[] = [
  { header: "at", value: (i) => i.at },
  { header: "window_begin", value: (i) => i.window.begin },
  { header: "window_end", value: (i) => i.window.end },
  { header: "namespace", value: (i) => i.namespace },
  { header: "name", value: (i) => i.name },
  { header: "cloud_profile", value: (i) => i.cloudProfile },
  { header: "target", value: (i) => (i.target === "controlPlane" ? "control plane" : "worker") },
  { header: "worker", value: (i) => i.worker },
  { header: "kind", value: (i) => i.kind },
  { header: "from", value: (i) => i.from },
  { header: "to", value: (i) => i.to },
  { header: "reason", value: (i) => i.reason },
  { header: "stuck", value: (i) => i.stuck },
  { header: "error", value: (i) => i.error },
  { header: "message", value: (i) => i.message },
  { header: "at_risk", value: (i) => i.risk !== undefined },
  { header: "risk", value: (i) => i.risk?.summary },
];

export async function exportForecast(
  db: Db,
  search: URLSearchParams,
  scope: FleetScope,
  gardenRevision: number | undefined,
  now: number,
): Promise<Export> {
  const { format, ...params } = parseQuery(exportForecastParams, search);
  const forecast = JSON.parse(
    await fleetForecastJson(db, { ...params, summary: false, markers: false }, scope, gardenRevision, now),
  ) as ForecastAnswer;
  const items = forecast.items;
  const text =
    format === "csv"
      ? csvHeader(FORECAST_COLUMNS) + items.map((i) => csvRow(FORECAST_COLUMNS, i)).join("")
      : `${JSON.stringify(items, null, 1)}\n`;
  return { filename: `almanac-forecast-${params.days}d-${fileDay(now)}.${format}`, format, pieces: onePiece(text) };
}
