import { describe, expect, it } from "vitest";
import { loadConfig } from "../config/load-config.ts";
import { DEFAULT_WEB_HEAP_MB, WEB_SEMI_SPACE_MB, webHeapOptions as optionsOf } from "./web-heap.ts";

const webHeapOptions = (env: Record<string, string>) => optionsOf(loadConfig(env));

const semi = `--max-semi-space-size=${WEB_SEMI_SPACE_MB}`;

describe("the web processes' heap cap", () => {
  it("is the default, with small semi-spaces, when nothing sets it", () => {
    expect(webHeapOptions({})).toEqual([`--max-old-space-size=${DEFAULT_WEB_HEAP_MB}`, semi]);
    expect(webHeapOptions({ ALMANAC_WEB_HEAP_MB: " ", NODE_OPTIONS: "--enable-source-maps" })).toEqual([
      `--max-old-space-size=${DEFAULT_WEB_HEAP_MB}`,
      semi,
    ]);
  });

  it("is ALMANAC_WEB_HEAP_MB when set, whatever NODE_OPTIONS says", () => {
    expect(webHeapOptions({ ALMANAC_WEB_HEAP_MB: "512" })).toEqual(["--max-old-space-size=512", semi]);
    expect(webHeapOptions({ ALMANAC_WEB_HEAP_MB: "192", NODE_OPTIONS: "--max-old-space-size=4096" })).toEqual([
      "--max-old-space-size=192",
      semi,
    ]);
  });

  it.each([
    ["--max-old-space-size=2048", [semi]],
    ["--enable-source-maps --max_old_space_size=1024", [semi]],
    ["--max-semi-space-size=32", [`--max-old-space-size=${DEFAULT_WEB_HEAP_MB}`]],
    ["--max-old-space-size=2048 --max-semi-space-size=32", []],
  ])("leaves to the operator's NODE_OPTIONS %j what it sets", (options, expected) => {
    expect(webHeapOptions({ NODE_OPTIONS: options })).toEqual(expected);
  });

  it.each(["100", "191", "320MB", "-400", "1e3", "3.5", "lots"])("refuses ALMANAC_WEB_HEAP_MB=%j, naming it", (mb) => {
    expect(() => webHeapOptions({ ALMANAC_WEB_HEAP_MB: mb })).toThrow(
      `ALMANAC_WEB_HEAP_MB is "${mb}", expected a whole number of megabytes at least 192.`,
    );
  });
});
