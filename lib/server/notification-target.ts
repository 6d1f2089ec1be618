// The webhook guard against request forgery (issue 30): a webhook must not become Almanac's way
// into the network it runs in. Targets in loopback, private, link-local, unspecified, multicast
// and every other special-purpose range (anything ipaddr.js does not call "unicast") are refused,
// at creation (422 naming url) and again at each delivery on the address actually connected to,
// because a name may resolve elsewhere by then. ALMANAC_WEBHOOK_ALLOW_PRIVATE=true lifts it.
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import type { LookupFunction } from "node:net";
import ipaddr from "ipaddr.js";

/** Why `address` may not be a webhook's target (its range, in words), or undefined when it may. */
export function refusedRange(address: string): string | undefined {
  if (!ipaddr.isValid(address)) return "not an IP address";
  // An IPv4 address written as IPv6 (::ffff:10.0.0.1) is judged as the IPv4 address.
  const range = ipaddr.process(address).range();
  return range === "unicast" ? undefined : range;
}

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

/** Where the refused address came from (an address in the URL, or what a name resolves to), and why. */
function refusalText(host: string, address: string, range: string): string {
  const why = rangeInWords(range);
  const written = host.replace(/^\[(.*)\]$/, "$1");
  const same =
    written === address ||
    (ipaddr.isValid(written) &&
      ipaddr.isValid(address) &&
      ipaddr.process(written).toString() === ipaddr.process(address).toString());
  return same ? `${written} is ${why}` : `${written} resolves to ${address}, ${why}`;
}

export class RefusedTargetError extends Error {
  readonly host: string;
  readonly address: string;
  readonly range: string;
  constructor(host: string, address: string, range: string) {
    super(
      `${refusalText(host, address, range)}: webhooks to loopback, private, link-local and other special addresses are refused unless ALMANAC_WEBHOOK_ALLOW_PRIVATE=true`,
    );
    this.name = "RefusedTargetError";
    this.host = host;
    this.address = address;
    this.range = range;
  }
}

/** The URL's host as an address or a name (IPv6 literals without their brackets). */
export const urlHost = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, "$1");

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
    if (range) return new RefusedTargetError(host, address, range);
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
        callback(new RefusedTargetError(hostname, a.address, range), options.all ? [] : "", 0);
        return;
      }
    }
    if (options.all) callback(null, addresses);
    else callback(null, addresses[0].address, addresses[0].family);
  });
};
