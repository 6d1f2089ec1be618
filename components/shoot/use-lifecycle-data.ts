"use client";

// What the outlook and the timeline read besides the shoot and its cloud profile
// (use-shoot-cloud-profile.ts): the maintenance plan of its next window, the year's forecast of
// its forced updates, and its history. Keyed through queryKeys, so live events
// refresh them; the outlook and the timeline share each request.
import { useQuery } from "@tanstack/react-query";
import { getForecast } from "@/lib/api/operations/forecast";
import { getMaintenancePlan, getShootHistory } from "@/lib/api/operations/shoots";
import { call } from "@/lib/ui/call";
import type { Shoot } from "@/lib/ui/api-types";
import { queryKeys } from "@/lib/client/query-keys";
import { useShootPart } from "./use-shoot";

const FORECAST_DAYS = 365;

/**
 * The shoot's forecast for a year. Keyed under the shoot, so a change of this shoot refreshes it
 * at once (the fleet-wide forecast keys are refreshed at a slower pace).
 */
export function useShootForecast(shoot: Shoot) {
  const namespace = shoot.metadata.namespace ?? "";
  const query = { days: FORECAST_DAYS, namespace, name: shoot.metadata.name };
  const search = new URLSearchParams({ ...query, days: String(FORECAST_DAYS) }).toString();
  return useQuery({
    queryKey: queryKeys.shootPart(namespace, shoot.metadata.name, `forecast?${search}`),
    queryFn: ({ signal }) => call(getForecast, { query }, { signal }),
    select: (answer) => answer.items,
  });
}

export function useMaintenancePlan(shoot: Shoot) {
  return useShootPart(getMaintenancePlan, shoot.metadata.namespace ?? "", shoot.metadata.name);
}

export const HISTORY_LIMIT = 50;

export function useShootHistory(shoot: Shoot) {
  return useShootPart(getShootHistory, shoot.metadata.namespace ?? "", shoot.metadata.name, {
    query: { limit: HISTORY_LIMIT },
  });
}
