// Parses Go duration strings such as "720h", "1h30m" or "90s" (metav1.Duration in the API) the
// way Go's time.ParseDuration does: in whole nanoseconds that must fit an int64, with Go's
// grammar ([-+]?([0-9]*(\.[0-9]*)?[a-z]+)+, or "0" alone), so Almanac accepts and refuses what
// Gardener's API server does.
const UNIT_NS: Record<string, bigint> = {
  ns: 1n,
  us: 1_000n,
  µs: 1_000n, // U+00B5 micro sign
  μs: 1_000n, // U+03BC Greek small letter mu: Go accepts both
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
};
const LIMIT = 1n << 63n;

/** The digits at the start of `s` as an integer, or undefined past 2^63 (Go's leadingInt). */
function leadingInt(digits: string): bigint | undefined {
  const x = digits === "" ? 0n : BigInt(digits);
  return x > LIMIT ? undefined : x;
}

/**
 * The fraction digits as an integer and its scale (Go's leadingFraction): digits that would
 * overflow are consumed but ignored, so "0.1000…0h" with many zeros still parses.
 */
function leadingFraction(digits: string): { f: bigint; scale: number } {
  let f = 0n;
  let scale = 1;
  let overflow = false;
  for (const c of digits) {
    if (overflow) continue;
    if (f > (LIMIT - 1n) / 10n) {
      overflow = true;
      continue;
    }
    const y = f * 10n + BigInt(c);
    if (y > LIMIT) {
      overflow = true;
      continue;
    }
    f = y;
    scale *= 10;
  }
  return { f, scale };
}

/** The duration in nanoseconds, exactly as Go computes it, or undefined where Go returns an error. */
export function goDurationNanoseconds(text: string): bigint | undefined {
  let s = text;
  let negative = false;
  if (s.startsWith("-") || s.startsWith("+")) {
    negative = s[0] === "-";
    s = s.slice(1);
  }
  if (s === "0") return 0n;
  if (s === "") return undefined;
  let total = 0n;
  while (s !== "") {
    const part = /^([0-9]*)(?:\.([0-9]*))?/.exec(s)!;
    const [consumed, whole, fraction] = part;
    // At least one digit, before or after the dot (".s" and "-.s" are not durations).
    if (whole === "" && (fraction ?? "") === "") return undefined;
    let v = leadingInt(whole);
    if (v === undefined) return undefined;
    s = s.slice(consumed.length);
    // The unit runs up to the next digit or dot; it must be one Go knows.
    const unitText = /^[^0-9.]*/.exec(s)![0];
    if (unitText === "") return undefined;
    const unit = UNIT_NS[unitText];
    if (unit === undefined) return undefined;
    s = s.slice(unitText.length);
    if (v > LIMIT / unit) return undefined;
    v *= unit;
    const { f, scale } = leadingFraction(fraction ?? "");
    if (f > 0n) {
      // Go goes through float64 here (exact to the nanosecond for fractions of an hour) and truncates.
      v += BigInt(Math.trunc(Number(f) * (Number(unit) / scale)));
      if (v > LIMIT) return undefined;
    }
    total += v;
    if (total > LIMIT) return undefined;
  }
  if (negative) return -total;
  return total > LIMIT - 1n ? undefined : total;
}

/** The duration in milliseconds (fractional below one), or undefined if Go would refuse it. */
export function parseGoDuration(text: string): number | undefined {
  const ns = goDurationNanoseconds(text);
  return ns === undefined ? undefined : Number(ns) / 1e6;
}
