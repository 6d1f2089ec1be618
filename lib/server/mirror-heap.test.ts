import { describe, expect, it } from "vitest";
import { loadConfig } from "../config/load-config.ts";
import { DEFAULT_MIRROR_HEAP_MB, MIRROR_SEMI_SPACE_MB, mirrorHeapOptions as optionsOf } from "./mirror-heap.ts";

const mirrorHeapOptions = (env: Record<string, string>) => optionsOf(loadConfig(env));

const semi = `--max-semi-space-size=${MIRROR_SEMI_SPACE_MB}`;

describe("the mirror's heap cap", () => {
  it("is the default when nothing sets it", () => {
    expect(mirrorHeapOptions({})).toEqual([`--max-old-space-size=${DEFAULT_MIRROR_HEAP_MB}`, semi]);
    expect(mirrorHeapOptions({ ALMANAC_MIRROR_HEAP_MB: " ", NODE_OPTIONS: "--enable-source-maps" })).toEqual([
      `--max-old-space-size=${DEFAULT_MIRROR_HEAP_MB}`,
      semi,
    ]);
  });

  it("is ALMANAC_MIRROR_HEAP_MB when set, whatever NODE_OPTIONS says", () => {
    expect(mirrorHeapOptions({ ALMANAC_MIRROR_HEAP_MB: "512" })).toEqual(["--max-old-space-size=512", semi]);
    expect(mirrorHeapOptions({ ALMANAC_MIRROR_HEAP_MB: "128", NODE_OPTIONS: "--max-old-space-size=4096" })).toEqual([
      "--max-old-space-size=128",
      semi,
    ]);
  });

  it.each([
    ["--enable-source-maps --max_old_space_size=1024", [semi]],
    ["--max-semi-space-size=32", [`--max-old-space-size=${DEFAULT_MIRROR_HEAP_MB}`]],
    ["--max-old-space-size=2048 --max-semi-space-size=32", []],
  ])("leaves to the operator's NODE_OPTIONS %j what it sets", (options, expected) => {
    expect(mirrorHeapOptions({ NODE_OPTIONS: options })).toEqual(expected);
  });

  it.each(["100", "127", "256MB", "-400", "1e3", "3.5", "lots"])(
    "refuses ALMANAC_MIRROR_HEAP_MB=%j, naming it",
    (mb) => {
      expect(() => mirrorHeapOptions({ ALMANAC_MIRROR_HEAP_MB: mb })).toThrow(
        `ALMANAC_MIRROR_HEAP_MB is "${mb}", expected a whole number of megabytes at least 128.`,
      );
    },
  );
});
