// IP networks in CIDR notation, IPv4 and IPv6, and whether two of them overlap: Gardener's
// NetworksIntersect (pkg/utils/validation/cidr/disjoint.go), which the shoot admission uses to keep
// a shoot's networks apart from its seed's.

export interface Cidr {
  readonly family: 4 | 6;
  /** The network address as a number (the host bits cleared). */
  readonly network: bigint;
  readonly prefix: number;
}

function parseIPv4(text: string): bigint | undefined {
  const parts = text.split(".");
  if (parts.length !== 4) return undefined;
  let value = 0n;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part) || Number(part) > 255) return undefined;
    value = (value << 8n) | BigInt(Number(part));
  }
  return value;
}

function parseIPv6(text: string): bigint | undefined {
  const halves = text.split("::");
  if (halves.length > 2) return undefined;
  const groups = (s: string) => (s === "" ? [] : s.split(":"));
  const head = groups(halves[0]);
  const tail = halves.length === 2 ? groups(halves[1]) : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  let value = 0n;
  for (const group of [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill("0"), ...tail]) {
    if (!/^[0-9a-fA-F]{1,4}$/.test(group)) return undefined;
    value = (value << 16n) | BigInt(parseInt(group, 16));
  }
  return value;
}

/** A CIDR such as "10.250.0.0/16" or "fd8f:6d53:b97a:1::/96"; undefined when it is not one. */
export function parseCidr(text: string): Cidr | undefined {
  const [address, prefixText, ...rest] = text.trim().split("/");
  if (rest.length > 0 || prefixText === undefined || !/^\d{1,3}$/.test(prefixText)) return undefined;
  const family = address.includes(":") ? 6 : 4;
  const bits = family === 4 ? 32 : 128;
  const prefix = Number(prefixText);
  if (prefix > bits) return undefined;
  const value = family === 4 ? parseIPv4(address) : parseIPv6(address);
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
