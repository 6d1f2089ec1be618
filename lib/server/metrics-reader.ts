// Who may read /metrics: a scraper at an address in ALMANAC_METRICS_ALLOW, or a landscape-wide
// admin (the admin token, an admin's API token or session). Anyone else: 401 without credentials,
// 403 with too small a role.
import { actorOf, identify } from "../auth/principal.ts";
import { unauthenticated } from "../api/refusal.ts";
import { refusalByRole } from "../auth/authorize.ts";
import { peerAddress } from "../auth/peer-address.ts";
import { config } from "../config/load-config.ts";
import type { Db } from "../db/client.ts";
import { mayScrapeFrom } from "../observability/metrics-access.ts";
import { setActor } from "../observability/request-context.ts";

/** Returns when the request may read the metrics; throws the 401 or 403 problem otherwise. */
export async function requireMetricsReader(database: () => Db, headers: Headers): Promise<void> {
  const address = peerAddress(headers);
  if (mayScrapeFrom(config().observability.metricsAllow, address)) {
    setActor(`scraper ${address}`);
    return;
  }
  const principal = await identify(database, headers);
  if (!principal)
    throw unauthenticated(
      "Send an admin's token as Authorization: Bearer <token>, or scrape from an address listed in ALMANAC_METRICS_ALLOW.",
    );
  setActor(actorOf(principal));
  const refusal = refusalByRole(principal, "administer");
  if (refusal) throw refusal;
}
