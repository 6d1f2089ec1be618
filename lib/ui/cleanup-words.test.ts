import { describe, expect, it } from "vitest";
import { describeSeconds } from "./cleanup-words.ts";

describe("describeSeconds", () => {
  it("reads seconds, minutes and hours", () => {
    expect([0, 45, 90, 300, 330, 3600, 5400, -5].map(describeSeconds)).toEqual([
      "0 s",
      "45 s",
      "90 s",
      "5 min",
      "5 min 30 s",
      "1 h",
      "1 h 30 min",
      "-5 s",
    ]);
  });
});
