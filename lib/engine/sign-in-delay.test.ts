import { describe, expect, it } from "vitest";
import { delayAfter, FORGET_AFTER_MS, PER_ACCOUNT, PER_ADDRESS, waitBeforeTry } from "./sign-in-delay.ts";

describe("the delay after failed sign-ins", () => {
  it("lets the first failures go, then doubles up to a cap", () => {
    const delays = [1, 2, 3, 4, 5, 6, 20, 40].map((n) => delayAfter(n, PER_ADDRESS));
    expect(delays).toEqual([0, 0, 0, 1_000, 2_000, 4_000, PER_ADDRESS.maxMs, PER_ADDRESS.maxMs]);
  });

  it("keeps the per-account delay short, so a stranger cannot lock the owner out", () => {
    expect(delayAfter(10_000, PER_ACCOUNT)).toBe(30_000);
    expect(delayAfter(PER_ACCOUNT.free, PER_ACCOUNT)).toBe(0);
  });

  it("counts the wait from the latest failure and forgets old failures", () => {
    const count = { failures: 5, lastFailureAt: 100_000 };
    expect(waitBeforeTry(count, PER_ADDRESS, 100_500)).toBe(1_500);
    expect(waitBeforeTry(count, PER_ADDRESS, 102_000)).toBe(0);
    expect(waitBeforeTry({ failures: 50, lastFailureAt: 0 }, PER_ADDRESS, FORGET_AFTER_MS)).toBe(0);
    expect(waitBeforeTry(undefined, PER_ADDRESS, 0)).toBe(0);
  });
});
