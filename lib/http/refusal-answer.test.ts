// The edge's mapping of refusal codes to statuses, titles and headers: the one place a use case's
// refusal becomes HTTP, so every code is pinned here to what clients have always been answered.
import { describe, expect, it } from "vitest";
import { conflict, forbidden, invalid, Refusal, type RefusalCode, unavailable } from "../api/refusal.ts";
import { GardenUnavailableError } from "../auth/garden-access.ts";
import { refusalAnswer } from "./refusal-answer.ts";

describe("a refusal's answer", () => {
  const expected: [RefusalCode, number, string][] = [
    ["invalid", 400, "Bad Request"],
    ["unauthenticated", 401, "Unauthorized"],
    ["forbidden", 403, "Forbidden"],
    ["not-found", 404, "Not Found"],
    ["conflict", 409, "Conflict"],
    ["too-large", 413, "Content Too Large"],
    ["unsupported-media-type", 415, "Unsupported Media Type"],
    ["unprocessable", 422, "Unprocessable Content"],
    ["client-gone", 499, "Client Closed Request"],
    ["upstream-failed", 502, "Bad Gateway"],
    ["unavailable", 503, "Service Unavailable"],
  ];
  it.each(expected)("answers %s with %i %s", (code, status, title) => {
    const answer = refusalAnswer(new Refusal(code, "why"));
    expect(answer).toMatchObject({ status, title, detail: "why", errors: [], extensions: {} });
  });

  it("passes on the garden's own status, with its standard title", () => {
    expect(refusalAnswer(new Refusal("garden-refused", "no", { gardenStatus: 429 }))).toMatchObject({
      status: 429,
      title: "Too Many Requests",
    });
    expect(refusalAnswer(new Refusal("garden-refused", "no", { gardenStatus: 422 })).status).toBe(422);
  });

  it("asks a client without credentials for a bearer token", () => {
    expect(refusalAnswer(new Refusal("unauthenticated", "sign in")).headers).toEqual({
      "www-authenticate": 'Bearer realm="almanac"',
    });
  });

  it("says when to ask again, for the database or the garden not answering", () => {
    expect(refusalAnswer(unavailable("later")).headers).toEqual({ "retry-after": "5" });
    const garden = refusalAnswer(new GardenUnavailableError("The garden could not say."));
    expect(garden).toMatchObject({ status: 503, detail: "The garden could not say.", headers: { "retry-after": "5" } });
  });

  it("gives a conflict the current version as ETag and keeps extensions and field problems", () => {
    const answer = refusalAnswer(
      conflict("changed", {
        extensions: { currentResourceVersion: "7" },
        currentVersion: "7",
        errors: [{ field: "name", type: "Duplicate", detail: "taken" }],
      }),
    );
    expect(answer.headers).toEqual({ etag: '"7"' });
    expect(answer.extensions).toEqual({ currentResourceVersion: "7" });
    expect(answer.errors).toEqual([{ field: "name", type: "Duplicate", detail: "taken" }]);
    expect(refusalAnswer(forbidden("no", { extensions: { rbac: { verb: "list" } } })).extensions).toEqual({
      rbac: { verb: "list" },
    });
    expect(refusalAnswer(invalid("bad")).headers).toEqual({});
  });
});
