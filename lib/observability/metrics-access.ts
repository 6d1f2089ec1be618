// Who may read /metrics without a token: the addresses in ALMANAC_METRICS_ALLOW (IPs and CIDR
// ranges, IPv4 and IPv6, comma-separated, read by lib/config), such as the Prometheus server's.
// Everyone else needs an admin's credentials. Metrics name routes, queues and counts, not secrets,
// but they still tell an outsider how the installation is used, so nothing is open by default and
// /0 is refused.
import { type CidrRange, inRanges } from "../config/cidr-ranges.ts";

/**
 * Whether `address` is on the list. An IPv4 entry also matches the IPv4-mapped IPv6 form a
 * dual-stack socket reports (::ffff:10.0.0.5).
 */
export const mayScrapeFrom = (allowed: readonly CidrRange[], address: string | undefined): boolean =>
  inRanges(allowed, address);
