// The webhook guard against request forgery (issue 30): a webhook must not become Almanac's way
// into the network it runs in. Targets in loopback, private, link-local, unspecified, multicast
// and every other special-purpose range (anything ipaddr.js does not call "unicast", and IPv6
// outside 2000::/3) are refused, at creation (422 naming url) and again at each delivery on the
// address actually connected to, because a name may resolve elsewhere by then.
// ALMANAC_WEBHOOK_ALLOW_PRIVATE=true lifts it. A refusal never tells what a name resolves to (the
// 422 and a delivery's lastError are read by every project reader, and would map the internal
// network for them): the server log keeps it.
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import type { LookupFunction } from "node:net";
import ipaddr from "ipaddr.js";
import { logger } from "../observability/logger.ts";

// IPv6 unicast on the internet is 2000::/3; ipaddr.js calls much of the rest "unicast" too, among
// it the IPv4-compatible ::/96 (::127.0.0.1 is ::7f00:1), which some stacks route to IPv4.
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR("2000::/3");

/** Why `address` may not be a webhook's target (its range, in words), or undefined when it may. */
export function refusedRange(address: string): string | undefined {
  if (!ipaddr.isValid(address)) return "not an IP address";
  // An IPv4 address written as IPv6 (::ffff:10.0.0.1) is judged as the IPv4 address.
  const parsed = ipaddr.process(address);
  const range = parsed.range();
  if (range !== "unicast") return range;
  if (parsed.kind() === "ipv6" && !parsed.match(GLOBAL_UNICAST_V6)) return "reserved";
  return undefined;
}

/** A host as written in a URL, an IPv6 literal without its brackets. */
const withoutBrackets = (host: string): string => host.replace(/^\[(.*)\]$/, "$1");

// ipaddr.js' names of the ranges, where they are not already words.
const RANGE_WORDS: Readonly<Record<string, string>> = {
  linkLocal: "link-local",
  uniqueLocal: "unique local",
  carrierGradeNat: "carrier-grade NAT",
  ipv4Mapped: "IPv4-mapped",
  "6to4": "6to4",
  rfc6145: "translated (RFC 6145)",
  rfc6052: "translated (RFC 6052)",
  as112: "AS112",
  as112v6: "AS112",
  amt: "AMT",
  orchid2: "ORCHIDv2",
  droneRemoteIdProtocolEntityTags: "drone remote ID",
};

/** "a loopback address", "an unspecified address", … */
export function rangeInWords(range: string): string {
  const words = RANGE_WORDS[range] ?? range;
  // "an unspecified", "an IPv4-mapped", but "a unique local".
  return `${/^([aeio]|un(?!i))/i.test(words) ? "an" : "a"} ${words} address`;
}

/**
 * The refusal in words for the caller: an address written in the URL is named with its range
 * ("127.0.0.1 is a loopback address"); what a name resolves to never is.
 */
function refusalText(host: string, range: string): string {
  const written = withoutBrackets(host);
  return ipaddr.isValid(written)
    ? `${written} is ${rangeInWords(range)}`
    : `${written} resolves to a loopback, private, link-local or other special-purpose address`;
}

export class RefusedTargetError extends Error {
  readonly host: string;
  readonly address: string;
  readonly range: string;
  constructor(host: string, address: string, range: string) {
    super(
      `${refusalText(host, range)}: webhooks to loopback, private, link-local and other special addresses are refused unless ALMANAC_WEBHOOK_ALLOW_PRIVATE=true`,
    );
    this.name = "RefusedTargetError";
    this.host = host;
    this.address = address;
    this.range = range;
  }

  /** For the server log only: what the host resolved to, and that range. */
  get detail(): string {
    return `webhook target ${this.host} resolves to ${this.address} (${this.range}): refused`;
  }
}

/** A refusal of a name, its address kept in the server log (the caller is told less). */
function loggedRefusal(host: string, address: string, range: string): RefusedTargetError {
  const refusal = new RefusedTargetError(host, address, range);
  if (!ipaddr.isValid(withoutBrackets(host))) logger().warn(refusal.detail);
  return refusal;
}

/** The URL's host as an address or a name (IPv6 literals without their brackets). */
export const urlHost = (url: URL): string => withoutBrackets(url.hostname);

type Resolve = (host: string) => Promise<readonly string[]>;

const resolveAll: Resolve = (host) =>
  new Promise((resolve, reject) =>
    dnsLookup(host, { all: true }, (error, addresses) =>
      error ? reject(error) : resolve(addresses.map((a) => a.address)),
    ),
  );

/**
 * The refusal of a webhook address at creation, or undefined: an address in the URL is judged as
 * it is; a name by every address it resolves to now (one that does not resolve yet is let be: the
 * delivery's guard judges what it resolves to then).
 */
export async function refusedTarget(
  url: string,
  resolve: Resolve = resolveAll,
): Promise<RefusedTargetError | undefined> {
  const host = urlHost(new URL(url));
  let addresses: readonly string[];
  if (ipaddr.isValid(host)) addresses = [host];
  else {
    try {
      addresses = await resolve(host);
    } catch {
      return undefined;
    }
  }
  for (const address of addresses) {
    const range = refusedRange(address);
    if (range) return loggedRefusal(host, address, range);
  }
  return undefined;
}

/**
 * A lookup for net.connect that answers only allowed addresses (a name that resolves to a refused
 * one fails with RefusedTargetError, before any connection is made). Node skips the lookup for
 * an address literal: the connector checks the socket's remote address as well.
 */
export const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) {
      callback(error, options.all ? [] : "", 0);
      return;
    }
    for (const a of addresses) {
      const range = refusedRange(a.address);
      if (range) {
        callback(loggedRefusal(hostname, a.address, range), options.all ? [] : "", 0);
        return;
      }
    }
    if (options.all) callback(null, addresses);
    else callback(null, addresses[0].address, addresses[0].family);
  });
};
