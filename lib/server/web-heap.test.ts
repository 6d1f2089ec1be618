import { describe, expect, it } from "vitest";
import { DEFAULT_WEB_HEAP_MB, webHeapOptions } from "./web-heap.ts";

describe("the web processes' heap cap", () => {
  it("is the default when nothing sets it", () => {
    expect(webHeapOptions({})).toEqual([`--max-old-space-size=${DEFAULT_WEB_HEAP_MB}`]);
    expect(webHeapOptions({ ALMANAC_WEB_HEAP_MB: " ", NODE_OPTIONS: "--enable-source-maps" })).toEqual([
      `--max-old-space-size=${DEFAULT_WEB_HEAP_MB}`,
    ]);
  });

  it("is ALMANAC_WEB_HEAP_MB when set, whatever NODE_OPTIONS says", () => {
    expect(webHeapOptions({ ALMANAC_WEB_HEAP_MB: "512" })).toEqual(["--max-old-space-size=512"]);
    expect(webHeapOptions({ ALMANAC_WEB_HEAP_MB: "192", NODE_OPTIONS: "--max-old-space-size=4096" })).toEqual([
      "--max-old-space-size=192",
    ]);
  });

  it.each(["--max-old-space-size=2048", "--enable-source-maps --max_old_space_size=1024"])(
    "is left to the operator's NODE_OPTIONS %j",
    (options) => {
      expect(webHeapOptions({ NODE_OPTIONS: options })).toEqual([]);
    },
  );

  it.each(["100", "191", "320MB", "-400", "1e3", "3.5", "lots"])("refuses ALMANAC_WEB_HEAP_MB=%j, naming it", (mb) => {
    expect(() => webHeapOptions({ ALMANAC_WEB_HEAP_MB: mb })).toThrow(
      `ALMANAC_WEB_HEAP_MB must be a whole number of megabytes, at least 192 (it is "${mb}").`,
    );
  });
});
