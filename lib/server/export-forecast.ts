// GET /api/v1/forecast/export?format=csv|json&days=&namespace=&cloudProfile=&kind=&stuck=&atRisk=: every
// forced update of the forecast the page shows, with the page's filters (horizon, namespace, cloud
// profile, kind, "stuck only" and "at risk only"), for what the caller may read.
import type { ForecastAnswer, ForecastItem } from "../api/forecast.ts";
import type { Db } from "../db/client.ts";
import type { z } from "zod";
import type { exportForecastParams } from "../api/operations/forecast.ts";
import { type CsvColumn, csvHeader, csvRow } from "./csv.ts";
import { type Export, fileDay } from "./export-file.ts";
import { type ForecastJson, fleetForecastJson } from "./fleet-forecast.ts";
import type { FleetScope } from "./fleet-scope.ts";

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
  query: z.output<typeof exportForecastParams>,
  scope: FleetScope,
  gardenRevision: number | undefined,
  now: number,
): Promise<Export> {
  const { format, ...params } = query;
  const forecast = await fleetForecastJson(
    db,
    { ...params, summary: false, markers: false },
    scope,
    gardenRevision,
    now,
  );
  const pages = itemPages(forecast);
  return {
    filename: `almanac-forecast-${params.days}d-${fileDay(now)}.${format}`,
    format,
    pieces: format === "csv" ? csvPieces(pages) : jsonPieces(pages),
  };
}

/** The answer's items a page at a time (every item's answer is read as it is written). */
async function* itemPages(forecast: string | ForecastJson): AsyncGenerator<readonly ForecastItem[]> {
  if (typeof forecast === "string") {
    yield (JSON.parse(forecast) as ForecastAnswer).items;
    return;
  }
  for await (const page of forecast.itemPages) yield page.map((i) => JSON.parse(i) as ForecastItem);
}

async function* csvPieces(pages: AsyncIterable<readonly ForecastItem[]>): AsyncGenerator<string> {
  yield csvHeader(FORECAST_COLUMNS);
  for await (const page of pages) yield page.map((i) => csvRow(FORECAST_COLUMNS, i)).join("");
}

/**
 * The items as JSON.stringify(items, null, 1) writes them, and a line end, a page at a time: an
 * item one level down is its own text indented by one more space.
 */
export async function* jsonPieces(pages: AsyncIterable<readonly ForecastItem[]>): AsyncGenerator<string> {
  let first = true;
  for await (const page of pages) {
    if (page.length === 0) continue;
    const text = page.map((i) => ` ${JSON.stringify(i, null, 1).replaceAll("\n", "\n ")}`).join(",\n");
    yield `${first ? "[\n" : ",\n"}${text}`;
    first = false;
  }
  yield first ? "[]\n" : "\n]\n";
}
