import { describe, expect, it } from "vitest";
import { passwordProblem } from "./password-policy.ts";

describe("the password policy", () => {
  it.each([
    "aaaaaaaaaaaa",
    "password1234",
    "Password123!",
    "P@ssw0rd2024!",
    "qwertyuiopas",
    "123456789012",
    "abcdefghijkl",
    "iloveyou2026",
    "!!Welcome!!2026",
    "letmeinletmein",
    "121212121212",
    "almanac-2026!",
  ])("refuses the common %j", (password) => {
    expect(passwordProblem(password)).toBeDefined();
  });

  it("refuses control and invisible characters", () => {
    expect(passwordProblem("\0".repeat(12))).toBeDefined();
    expect(passwordProblem("correct horse\nbattery")).toMatch(/control/);
    expect(passwordProblem("correct\u202ehorse battery")).toMatch(/control/);
  });

  it("refuses what is too short or too long", () => {
    expect(passwordProblem("Xk9#mQ2!")).toMatch(/at least 12/);
    expect(passwordProblem("Xk9#mQ2!vL".repeat(30))).toMatch(/at most 256/);
  });

  it.each([
    "correct horse battery staple",
    "Xk9#mQ2!vLp4",
    "tea-kettle-on-the-moon",
    "Jörg's Garten 1984",
    "739201846253",
  ])("accepts %j", (password) => {
    expect(passwordProblem(password)).toBeUndefined();
  });
});

describe("the password schema", () => {
  it("reports a short password once, and a common one with the policy's reason", async () => {
    const { passwordSchema } = await import("./password-policy.ts");
    expect(passwordSchema.safeParse("short").error?.issues.map((i) => i.message)).toEqual(["at least 12 characters"]);
    expect(passwordSchema.safeParse("password1234").error?.issues.map((i) => i.message)).toEqual([
      "one of the most common passwords; choose another",
    ]);
    expect(passwordSchema.safeParse("correct horse battery staple").success).toBe(true);
  });
});
