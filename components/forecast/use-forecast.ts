"use client";

// GET /api/v1/forecast, keyed by its query so that the forecast page and a cloud profile's page
// share one answer when they ask the same ("days=365").
import { useQuery } from "@tanstack/react-query";
import { MINUTE_MS } from "@/lib/engine/time-units";
import { getForecast } from "@/lib/api/operations/forecast";
import { call } from "@/lib/ui/call";
import { queryKeys } from "@/lib/client/query-keys";

/** `apiPath` is "/forecast?days=..." (see forecastApiPath). */
export function useForecast(apiPath: string) {
  const query = apiPath.slice(apiPath.indexOf("?") + 1);
  return useQuery({
    queryKey: queryKeys.forecast(query),
    queryFn: ({ signal }) => call(getForecast, { query: new URLSearchParams(query) }, { signal }),
    // Forecasts move with the clock too, not only with changes.
    refetchInterval: 5 * MINUTE_MS,
    placeholderData: (previous) => previous,
  });
}
