// The demo's only source of randomness: small seeded generators, one independent stream per
// purpose and item, so that the landscape is repeatable and shoot i does not depend on how many
// shoots come before or after it.

export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Integer in [min, max], both inclusive. */
  int(min: number, max: number): number;
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
  weighted<T>(entries: readonly (readonly [T, number])[]): T;
}

/**
 * sfc32 (Chris Doty-Humphrey's Small Fast Counting generator): tiny and fast, with 128 bits of
 * state. A 32-bit generator such as mulberry32 is not enough here: its per-shoot streams overlap
 * and it can only produce 2^32 distinct uids, so 100000 shoots would share some.
 */
function sfc32(a: number, b: number, c: number, d: number): () => number {
  return () => {
    a >>>= 0;
    b >>>= 0;
    c >>>= 0;
    d >>>= 0;
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4_294_967_296;
  };
}

/** Mixes numbers into one 32-bit seed, so that neighbouring indexes get unrelated streams. */
function hashSeed(...parts: number[]): number {
  let h = 0x811c9dc5;
  for (const part of parts) {
    h = Math.imul(h ^ (part >>> 0), 0x01000193);
    h ^= h >>> 15;
    h = Math.imul(h, 0x85ebca6b);
    h ^= h >>> 13;
  }
  return h >>> 0;
}

/** A generator for one purpose (stream) of one item, independent of every other one. */
export function createRng(...parts: number[]): Rng {
  const next = sfc32(hashSeed(...parts, 1), hashSeed(...parts, 2), hashSeed(...parts, 3), hashSeed(...parts, 4));
  for (let i = 0; i < 12; i++) next(); // the recommended warm-up, to spread similar seeds apart
  const rng: Rng = {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    chance: (p) => next() < p,
    pick: (items) => items[Math.floor(next() * items.length)],
    weighted: (entries) => {
      const total = entries.reduce((sum, [, w]) => sum + w, 0);
      let r = next() * total;
      for (const [item, w] of entries) {
        r -= w;
        if (r < 0) return item;
      }
      return entries[entries.length - 1][0];
    },
  };
  return rng;
}

/** A UUID v4-looking string (the version and variant nibbles are set like real ones). */
export function uuid(rng: Rng): string {
  let hex = "";
  for (let i = 0; i < 4; i++)
    hex += Math.floor(rng.next() * 0x1_0000_0000)
      .toString(16)
      .padStart(8, "0");
  const variant = "89ab"[Math.floor(rng.next() * 4)];
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
