// Go's time.ParseDuration, which metav1.Duration fields (rotationPeriod) go through in Gardener.
// The cases follow Go's own table (src/time/time_test.go), in nanoseconds where precision matters.
import { describe, expect, it } from "vitest";
import { goDurationNanoseconds, parseGoDuration } from "./go-duration.ts";

const MAX = (1n << 63n) - 1n;
const MIN = -(1n << 63n);

describe("parseGoDuration: the units Go accepts, in milliseconds", () => {
  it.each([
    ["10ns", 0.00001],
    ["11us", 0.011],
    ["12µs", 0.012], // U+00B5 MICRO SIGN
    ["12μs", 0.012], // U+03BC GREEK SMALL LETTER MU: Go accepts both
    ["13ms", 13],
    ["14s", 14_000],
    ["15m", 900_000],
    ["16h", 57_600_000],
    ["720h", 2_592_000_000],
  ])("%s is %d ms", (text, ms) => {
    expect(parseGoDuration(text)).toBe(ms);
  });
});

describe("parseGoDuration: numbers, fractions, signs and combinations", () => {
  it.each([
    ["0", 0],
    ["+0", 0],
    ["-0", 0],
    ["0s", 0],
    ["-0s", 0],
    ["5s", 5_000],
    ["30s", 30_000],
    ["1478s", 1_478_000],
    ["01h", 3_600_000],
    ["-5s", -5_000],
    ["+5s", 5_000],
    ["-0.5h", -1_800_000],
    ["5.0s", 5_000],
    ["5.6s", 5_600],
    ["5.s", 5_000],
    [".5s", 500],
    ["1.0s", 1_000],
    ["1.00s", 1_000],
    ["1.004s", 1_004],
    ["1.0040s", 1_004],
    ["100.00100s", 100_001],
    ["1.5h", 5_400_000],
    ["0.5m", 30_000],
    ["1h30m", 5_400_000],
    ["3h30m", 12_600_000],
    ["1m30s", 90_000],
    ["10.5s4m", 250_500],
    ["-2m3.4s", -123_400],
    ["1h2m3s4ms5us6ns", 3_723_004.005006],
    ["39h9m14.425s", 140_954_425],
    ["52763797000ns", 52_763.797],
    ["0.3333333333333333333h", 1_200_000],
    ["0.100000000000000000000h", 360_000],
    ["1h1h", 7_200_000],
  ])("%s is %d ms", (text, ms) => {
    // toBe compares with Object.is, so a negative zero would fail too.
    expect(parseGoDuration(text)).toBe(ms);
  });
});

describe("goDurationNanoseconds: Go's exact arithmetic and its int64 range", () => {
  it.each([
    ["1h2m3s4ms5us6ns", 3_723_004_005_006n],
    ["0.830103483285477580700h", 2_988_372_539_827n], // 49m48.372539827s: fractions of hours are exact to the nanosecond
    ["9007199254740993ns", 9_007_199_254_740_993n], // beyond 2^53, where a float64 would round
    ["9223372036854775807ns", MAX],
    ["9223372036854775.807us", MAX],
    ["9223372036s854ms775us807ns", MAX],
    ["2562047h47m16.854775807s", MAX],
    ["-9223372036854775808ns", MIN],
    ["-2562047h47m16.854775808s", MIN],
  ])("%s", (text, ns) => {
    expect(goDurationNanoseconds(text)).toBe(ns);
  });

  it.each([
    "9223372036854775808ns",
    "9223372036854775810ns",
    "-9223372036854775809ns",
    "9223372036854776us",
    "9223372036854775.808us",
    "9223372036854ms775us808ns",
    "2562047h47m16.854775808s",
    "3000000h",
    "99999999999999999999h",
  ])("refuses %s: it does not fit Go's int64 nanoseconds", (text) => {
    expect(goDurationNanoseconds(text)).toBeUndefined();
    expect(parseGoDuration(text)).toBeUndefined();
  });
});

describe("parseGoDuration: what Go refuses", () => {
  it.each([
    ["the empty string", ""],
    ["a sign alone", "-"],
    ["a plus alone", "+"],
    ["a number without unit", "3"],
    ["a zero that is not exactly 0", "00"],
    ["a fraction of zero without unit", "0.0"],
    ["a unit without number", "s"],
    ["a dot alone", "."],
    ["a sign and a dot", "-."],
    ["a dot and a unit", ".s"],
    ["a sign, a dot and a unit", "+.s"],
    ["a trailing number without unit", "5m3"],
    ["days (not a Go unit)", "1d"],
    ["weeks", "2w"],
    ["upper-case hours", "1H"],
    ["upper-case milliseconds", "1MS"],
    ["a spelled-out unit", "1sec"],
    ["a doubled unit", "1hh"],
    ["two units run together", "1mh"],
    ["a sign inside", "1h-30m"],
    ["two signs", "--1s"],
    ["mixed signs", "+-1s"],
    ["two dots", "1.5.5s"],
    ["an exponent", "1e3s"],
    ["a leading space", " 1s"],
    ["a trailing space", "1s "],
    ["a space before the unit", "1 s"],
    ["a comma as decimal separator", "1,5h"],
    ["garbage", "hello"],
    ["garbage around a duration", "hello 1s world"],
    ["non-ASCII garbage", "\u0085\u0085"],
    ["the replacement character", "\uFFFD"],
  ])("refuses %s (%j)", (_what, text) => {
    expect(parseGoDuration(text)).toBeUndefined();
  });
});
