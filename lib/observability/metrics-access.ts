// Who may read /metrics without a token: the addresses in ALMANAC_METRICS_ALLOW (IPs and CIDR
// ranges, IPv4 and IPv6, comma-separated), such as the Prometheus server's. Everyone else needs an
// admin's credentials. Metrics name routes, queues and counts, not secrets, but they still tell
// an outsider how the installation is used, so nothing is open by default and /0 is refused.
import { BlockList, isIP } from "node:net";

const VARIABLE = "ALMANAC_METRICS_ALLOW";

type Env = Readonly<Record<string, string | undefined>>;

function addEntry(list: BlockList, entry: string): void {
  const fault = (why: string) => new Error(`${VARIABLE} entry "${entry}": ${why}.`);
  const [address, prefix, ...rest] = entry.split("/");
  const family = isIP(address);
  if (family === 0 || address.includes("%") || rest.length > 0)
    throw fault("it must be an IP address or a CIDR range such as 10.0.0.0/8 or fd00::/64");
  const type = family === 4 ? "ipv4" : "ipv6";
  if (prefix === undefined) return list.addAddress(address, type);
  const bits = family === 4 ? 32 : 128;
  if (!/^\d{1,3}$/.test(prefix) || Number(prefix) < 1 || Number(prefix) > bits)
    throw fault(`the prefix length must be a number from 1 to ${bits}`);
  list.addSubnet(address, Number(prefix), type);
}

/** The allowed scrapers in `env` (undefined: none); throws an error naming a malformed entry. */
export function metricsAllowList(env: Env): BlockList | undefined {
  const text = env[VARIABLE];
  if (text === undefined || text.trim() === "") return undefined;
  const list = new BlockList();
  for (const entry of text.split(",").map((e) => e.trim())) {
    if (entry === "") throw new Error(`${VARIABLE} "${text}" has an empty entry between commas.`);
    addEntry(list, entry);
  }
  return list;
}

/**
 * Whether `address` is on the list. An IPv4 entry also matches the IPv4-mapped IPv6 form a
 * dual-stack socket reports (::ffff:10.0.0.5); BlockList knows that.
 */
export function mayScrapeFrom(list: BlockList | undefined, address: string | undefined): boolean {
  if (list === undefined || address === undefined) return false;
  const family = isIP(address);
  return family !== 0 && list.check(address, family === 4 ? "ipv4" : "ipv6");
}
