// The trusted reverse proxy's settings: a company's authenticating proxy (oauth2-proxy, an ingress
// with auth, Apache's mod_auth_*) signs people in and names them in a request header. Believing
// such a header from anyone would let every client name itself, so the feature is off unless
// ALMANAC_TRUSTED_PROXY_ADDRESSES lists the proxy's own addresses (IPs and CIDR ranges, IPv4 and
// IPv6), and even then only a request whose TCP peer is one of them is believed.
// ALMANAC_TRUSTED_PROXY_USER_HEADER and ALMANAC_TRUSTED_PROXY_GROUPS_HEADER name the headers.
import { BlockList, isIP } from "node:net";

export const DEFAULT_USER_HEADER = "X-Remote-User";
export const DEFAULT_GROUPS_HEADER = "X-Remote-Group";

export interface TrustedProxyConfig {
  /** The peers whose headers are believed; undefined while the feature is off. */
  readonly addresses: BlockList | undefined;
  /** The header names in lower case, as Node's `request.headers` has them. */
  readonly userHeader: string;
  readonly groupsHeader: string;
}

type Env = Readonly<Record<string, string | undefined>>;

const ADDRESSES = "ALMANAC_TRUSTED_PROXY_ADDRESSES";
const USER_HEADER = "ALMANAC_TRUSTED_PROXY_USER_HEADER";
const GROUPS_HEADER = "ALMANAC_TRUSTED_PROXY_GROUPS_HEADER";

// RFC 9110's token: what a header name may be made of.
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// Headers that carry something else already; naming one of them would be a mistake.
const TAKEN = new Set(["authorization", "cookie", "host", "x-almanac-proxy-user", "x-almanac-proxy-groups"]);

const isSet = (value: string | undefined): value is string => value !== undefined && value.trim() !== "";

/** Whether ALMANAC_TRUSTED_PROXY_ADDRESSES is set, i.e. the feature is on (its value checked at start). */
export const trustedProxyEnabled = (env: Env = process.env): boolean => isSet(env[ADDRESSES]);

function headerName(env: Env, variable: string, fallback: string): string {
  const value = env[variable];
  if (!isSet(value)) return fallback.toLowerCase();
  const name = value.trim();
  if (!HEADER_NAME.test(name)) throw new Error(`${variable} "${value}" is not a header name.`);
  if (TAKEN.has(name.toLowerCase())) throw new Error(`${variable} "${value}" names a header Almanac reads for itself.`);
  return name.toLowerCase();
}

/**
 * One entry: an address (a peer with exactly that address) or a CIDR range. An IPv4 entry also
 * matches the peer's IPv4-mapped IPv6 form (::ffff:10.0.0.5 on a dual-stack socket); BlockList
 * knows that. /0 is refused: it would believe every client, which is the feature turned against
 * itself.
 */
function addEntry(list: BlockList, entry: string): void {
  const fault = (why: string) => new Error(`${ADDRESSES} entry "${entry}": ${why}.`);
  const [address, prefix, ...rest] = entry.split("/");
  const family = isIP(address);
  if (family === 0 || address.includes("%") || rest.length > 0) {
    throw fault("it must be an IP address or a CIDR range such as 10.0.0.0/8 or fd00::/64");
  }
  const type = family === 4 ? "ipv4" : "ipv6";
  if (prefix === undefined) return list.addAddress(address, type);
  const bits = family === 4 ? 32 : 128;
  if (!/^\d{1,3}$/.test(prefix) || Number(prefix) > bits) {
    throw fault(`the prefix length must be a number from 1 to ${bits}`);
  }
  if (Number(prefix) === 0) throw fault("a /0 range would believe every client; list the proxy's addresses");
  list.addSubnet(address, Number(prefix), type);
}

/** The settings in `env`; throws an error naming the variable and the bad entry. */
export function parseTrustedProxy(env: Env): TrustedProxyConfig {
  const userHeader = headerName(env, USER_HEADER, DEFAULT_USER_HEADER);
  const groupsHeader = headerName(env, GROUPS_HEADER, DEFAULT_GROUPS_HEADER);
  if (userHeader === groupsHeader) {
    throw new Error(`${USER_HEADER} and ${GROUPS_HEADER} name the same header "${userHeader}".`);
  }
  const text = env[ADDRESSES];
  if (!isSet(text)) return { addresses: undefined, userHeader, groupsHeader };
  const addresses = new BlockList();
  for (const entry of text.split(",").map((e) => e.trim())) {
    if (entry === "") throw new Error(`${ADDRESSES} "${text}" has an empty entry between commas.`);
    addEntry(addresses, entry);
  }
  return { addresses, userHeader, groupsHeader };
}

/** The configured settings (process.env); throws when one is malformed. */
export const trustedProxy = (): TrustedProxyConfig => parseTrustedProxy(process.env);
