// Addresses and CIDR ranges (IPv4 and IPv6) in a setting: who may scrape /metrics, which peers
// are the trusted proxy. ipaddr.js reads the addresses (and refuses IPv4's legacy forms such as
// "10" or "0x0a.0.0.1", and IPv6 zone ids: a socket's peer address never carries one); the
// prefix is checked here, so the message can say which lengths are allowed.
import ipaddr from "ipaddr.js";

export interface CidrRange {
  /** The range's first address as written, normalized (fd00::, 10.0.0.0). */
  readonly address: string;
  /** The prefix length: 32 or 128 for a single address. */
  readonly prefix: number;
}

function parseAddress(text: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  if (ipaddr.IPv4.isValidFourPartDecimal(text)) return ipaddr.IPv4.parse(text);
  if (!text.includes("%") && ipaddr.IPv6.isValid(text)) return ipaddr.IPv6.parse(text);
  return undefined;
}

/**
 * One entry: an address or address/prefix. /0 is refused (it would let every address in), with
 * `zeroWhy` as the reason when given. Throws an Error saying what is wrong.
 */
export function parseCidrRange(entry: string, zeroWhy?: string): CidrRange {
  const [addressText, prefixText, ...rest] = entry.split("/");
  const address = parseAddress(addressText);
  if (address === undefined || rest.length > 0)
    throw new Error("it must be an IP address or a CIDR range such as 10.0.0.0/8 or fd00::/64");
  const bits = address.kind() === "ipv4" ? 32 : 128;
  if (prefixText === undefined) return { address: address.toString(), prefix: bits };
  const prefix = /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : Number.NaN;
  if (prefix === 0 && zeroWhy) throw new Error(zeroWhy);
  if (!(prefix >= 1 && prefix <= bits)) throw new Error(`the prefix length must be a number from 1 to ${bits}`);
  return { address: address.toString(), prefix };
}

/**
 * Whether `address` (a socket's peer) is in one of `ranges`. An IPv4-mapped IPv6 peer
 * (::ffff:10.0.0.5, what a dual-stack socket reports) counts as its IPv4 address.
 */
export function inRanges(ranges: readonly CidrRange[], address: string | undefined): boolean {
  if (address === undefined || !ipaddr.isValid(address)) return false;
  const peer = ipaddr.process(address);
  return ranges.some((range) => {
    const start = ipaddr.parse(range.address);
    // The kinds agree, so the union's match() takes its own kind.
    return start.kind() === peer.kind() && (peer as ipaddr.IPv4).match(start as ipaddr.IPv4, range.prefix);
  });
}
