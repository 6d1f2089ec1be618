import { describe, expect, it } from "vitest";
import { formProblems, retryUnlessRefused, scopeLabel, tokenState } from "./access.ts";
import { RequestError } from "./api.ts";

const token = {
  id: "1",
  name: "t",
  role: "viewer",
  scope: "*",
  createdBy: "a",
  created: "2026-01-01T00:00:00Z",
} as const;

describe("access", () => {
  it("reads scopes", () => {
    expect(scopeLabel("*")).toBe("Whole landscape");
    expect(scopeLabel("dev")).toBe("Project dev");
  });

  it("tells a token's state: revoked before expired before active", () => {
    const now = Date.parse("2026-02-01T00:00:00Z");
    expect(tokenState({ ...token, expires: null, lastUsed: null, revoked: null }, now)).toBe("active");
    expect(tokenState({ ...token, expires: "2026-01-31T00:00:00Z", lastUsed: null, revoked: null }, now)).toBe(
      "expired",
    );
    expect(
      tokenState({ ...token, expires: "2026-01-31T00:00:00Z", lastUsed: null, revoked: "2026-01-02T00:00:00Z" }, now),
    ).toBe("revoked");
  });

  it("does not retry a refusal, and keeps the first problem per field", () => {
    expect(retryUnlessRefused(0, new RequestError(403, {}))).toBe(false);
    expect(retryUnlessRefused(0, new RequestError(503, {}))).toBe(true);
    const problems = formProblems(
      new RequestError(400, {
        detail: "bad",
        errors: [
          { field: "name", type: "Invalid", detail: "first" },
          { field: "name", type: "Invalid", detail: "second" },
        ],
      }),
    );
    expect(problems).toEqual({ fields: { name: "first" }, message: "Some fields need another look." });
    expect(formProblems(new RequestError(409, { detail: "taken" })).message).toBe("taken");
  });
});
