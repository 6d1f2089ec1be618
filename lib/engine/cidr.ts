// IP networks in CIDR notation, IPv4 and IPv6, and whether two of them overlap: Gardener's
// NetworksIntersect (pkg/utils/validation/cidr/disjoint.go), which the shoot admission uses to keep
// a shoot's networks apart from its seed's.
import ipaddr from "ipaddr.js";

export interface Cidr {
  readonly family: 4 | 6;
  /** The network address as a number (the host bits cleared). */
  readonly network: bigint;
  readonly prefix: number;
}

/**
 * The address as a number, read by ipaddr.js: IPv4 only in four decimal parts without leading
 * zeros, as Go's net.ParseCIDR (Gardener's) reads it; IPv6 without a zone, which a CIDR has none of.
 */
function addressValue(text: string, family: 4 | 6): bigint | undefined {
  const valid =
    family === 4 ? ipaddr.IPv4.isValidFourPartDecimal(text) : !text.includes("%") && ipaddr.IPv6.isValid(text);
  if (!valid) return undefined;
  const bytes = (family === 4 ? ipaddr.IPv4 : ipaddr.IPv6).parse(text).toByteArray();
  return bytes.reduce((value, byte) => (value << 8n) | BigInt(byte), 0n);
}

/** A CIDR such as "10.250.0.0/16" or "fd8f:6d53:b97a:1::/96"; undefined when it is not one. */
export function parseCidr(text: string): Cidr | undefined {
  const [address, prefixText, ...rest] = text.trim().split("/");
  if (rest.length > 0 || prefixText === undefined || !/^\d{1,3}$/.test(prefixText)) return undefined;
  const family = address.includes(":") ? 6 : 4;
  const bits = family === 4 ? 32 : 128;
  const prefix = Number(prefixText);
  if (prefix > bits) return undefined;
  const value = addressValue(address, family);
  if (value === undefined) return undefined;
  const hostBits = BigInt(bits - prefix);
  return { family, prefix, network: (value >> hostBits) << hostBits };
}

const contains = (outer: Cidr, inner: Cidr) => {
  const bits = outer.family === 4 ? 32 : 128;
  const hostBits = BigInt(bits - outer.prefix);
  return outer.prefix <= inner.prefix && inner.network >> hostBits === outer.network >> hostBits;
};

/**
 * Gardener's NetworksIntersect: two networks of the same family intersect when one contains the
 * other. Networks of different families never do; nor does text that is no CIDR here (Gardener's
 * API validation refuses such a network before admission compares it).
 */
export function networksIntersect(a: string, b: string): boolean {
  const x = parseCidr(a);
  const y = parseCidr(b);
  if (!x || !y || x.family !== y.family) return false;
  return contains(x, y) || contains(y, x);
}
