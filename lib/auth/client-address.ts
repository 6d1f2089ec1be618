// Who is asking, by address, for the sign-in limits: the TCP peer, or, when the peer is one of
// the trusted proxies (ALMANAC_TRUSTED_PROXY_ADDRESSES), the address that proxy put into
// X-Forwarded-For. A client's own X-Forwarded-For is never believed: with a new value per try it
// would be a new client per try, and with a shared value it could throttle someone else. Route
// handlers see headers, not the socket, so the Node server in front of Next
// (scripts/web-worker.mjs) writes the address into an internal header, after removing any copy a
// client sent; the header is believed only in a process whose every request passed through there.
import type { IncomingHttpHeaders } from "node:http";
import { isIP } from "node:net";
import { type CidrRange, inRanges } from "../config/cidr-ranges.ts";
import { type TrustedProxyConfig, trustedProxy } from "./trusted-proxy.ts";

export const CLIENT_ADDRESS_HEADER = "x-almanac-client-address";

/**
 * The client's address: `peer`, unless `peer` is a trusted proxy; then the nearest address in
 * `forwardedFor` (read from the right, as each proxy appends the address it saw) that is not a
 * trusted proxy itself. Only what trusted proxies appended is read: an entry that is not an
 * address, or a chain of nothing but proxies, leaves the last trusted hop as the client.
 */
export function clientAddress(
  peer: string | undefined,
  forwardedFor: string | readonly string[] | undefined,
  trusted: readonly CidrRange[],
): string | undefined {
  if (peer === undefined || isIP(peer) === 0) return undefined;
  if (!inRanges(trusted, peer)) return peer;
  const hops = [forwardedFor ?? []]
    .flat()
    .flatMap((value) => value.split(","))
    .map((hop) => hop.trim())
    .filter((hop) => hop !== "");
  let client = peer;
  for (const hop of hops.reverse()) {
    if (isIP(hop) === 0) return client;
    client = hop;
    if (!inRanges(trusted, hop)) return hop;
  }
  return client;
}

// Next bundles its own copy of this module, so the mark lives on globalThis.
const STAMPED = Symbol.for("almanac.client-address-stamped");
const marks = globalThis as { [STAMPED]?: boolean };

interface NodeRequest {
  headers: IncomingHttpHeaders;
  socket: { remoteAddress?: string };
}

/** The web server's stamp, for every request: the header holds the client's address and nothing else. */
export function clientAddressStamp(config: TrustedProxyConfig = trustedProxy()): (request: NodeRequest) => void {
  marks[STAMPED] = true;
  return (request) => {
    delete request.headers[CLIENT_ADDRESS_HEADER];
    const address = clientAddress(request.socket.remoteAddress, request.headers["x-forwarded-for"], config.addresses);
    if (address) request.headers[CLIENT_ADDRESS_HEADER] = address;
  };
}

/** The client's address, when this process's web server stamped it; else undefined. */
export function clientAddressOf(headers: Headers): string | undefined {
  if (!marks[STAMPED]) return undefined;
  return headers.get(CLIENT_ADDRESS_HEADER) ?? undefined;
}

/**
 * The bucket a client address counts in: an IPv6 client by its /64 (what one host or one
 * household is handed, so a client cannot spread guesses over its own addresses), an IPv4-mapped
 * IPv6 address as the IPv4 one, an IPv4 address as itself.
 */
export function addressBucket(address: string): string {
  const plain = address.split("%")[0].toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(plain);
  if (mapped && isIP(mapped[1]) === 4) return mapped[1];
  if (isIP(plain) !== 6) return address;
  const [head, tail = ""] = plain.split("::");
  const front = head ? head.split(":") : [];
  const back = plain.includes("::") && tail ? tail.split(":") : [];
  // An embedded IPv4 tail (a.b.c.d) stands for two groups; it never reaches the first four.
  const missing = 8 - front.length - back.length - back.filter((g) => g.includes(".")).length;
  const groups = [...front, ...Array(Math.max(0, missing)).fill("0"), ...back];
  return `${groups
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(":")}::/64`;
}
