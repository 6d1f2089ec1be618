// GET /api/v1/forecast?days=: the engine's forecast as it is, whose times are ISO 8601 text
// already. An item without `to` is a stuck cluster (JSON leaves the absent version out; never null).
import type { Forecast } from "../engine/forecast.ts";

export type { ForecastItem, ForecastRisk } from "../engine/forecast.ts";

export interface ForecastAnswer extends Forecast {
  readonly days: number;
}
