// ALMANAC_DASHBOARD_URL: the Gardener dashboard's address (https://dashboard.garden.example.com);
// the shoot page then links each cluster to its page there. Unset: no link (lib/config refuses
// anything but an http(s) URL at start).
import { config } from "../config/load-config.ts";

/** The dashboard's address without a trailing slash, or undefined. */
export function gardenerDashboardBase(value = config().server.dashboardUrl): string | undefined {
  if (value === undefined) return undefined;
  const url = new URL(value);
  return `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
}
