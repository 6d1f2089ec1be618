import { afterEach, describe, expect, it, vi } from "vitest";
import { listMigrations } from "../api/operations/migrations.ts";
import { getShoot, listShoots, patchShoot } from "../api/operations/shoots.ts";
import { RequestError } from "./api.ts";
import { call, callPath } from "./call.ts";

afterEach(() => vi.unstubAllGlobals());

describe("call()", () => {
  it("makes the path from the operation's, each parameter escaped", () => {
    expect(callPath(getShoot, { params: { namespace: "garden-dev", name: "a/b c" } })).toBe(
      "/namespaces/garden-dev/shoots/a%2Fb%20c",
    );
    expect(() => callPath(getShoot, { params: { namespace: "garden-dev" } })).toThrow(/name/);
  });

  it("sends the query's given values, or a query string as it is", () => {
    expect(callPath(listMigrations, { query: { active: "true", limit: 500 } })).toBe(
      "/migrations?active=true&limit=500",
    );
    expect(callPath(listShoots, { query: { q: "", status: undefined, limit: 5 } })).toBe("/shoots?limit=5");
    expect(callPath(listShoots, { query: new URLSearchParams("sort=-expiry&limit=2") })).toBe(
      "/shoots?sort=-expiry&limit=2",
    );
    expect(callPath(listShoots)).toBe("/shoots");
  });

  it("reads with GET and changes with the operation's method and media type", async () => {
    const fetched = vi.fn(async (_url: string, _init?: RequestInit) => new Response(JSON.stringify({ items: [] })));
    vi.stubGlobal("fetch", fetched);
    const answer = await call(listMigrations, { query: { limit: 1 } });
    expect(answer.items).toEqual([]);
    expect(fetched.mock.calls[0][0]).toBe("/api/v1/migrations?limit=1");

    await call(patchShoot, {
      params: { namespace: "ns", name: "s" },
      body: { spec: { hibernation: { enabled: true } } },
    });
    const [url, init] = fetched.mock.calls[1];
    expect(url).toBe("/api/v1/namespaces/ns/shoots/s");
    expect(init?.method).toBe("PATCH");
    expect((init?.headers as Record<string, string>)["content-type"]).toBe("application/merge-patch+json");
    expect(init?.body).toBe('{"spec":{"hibernation":{"enabled":true}}}');
  });

  it("turns a problem document into a RequestError with its field problems", async () => {
    const problem = {
      title: "Bad Request",
      status: 400,
      detail: "no",
      errors: [{ field: "query.limit", type: "Invalid", detail: "too big" }],
    };
    vi.stubGlobal("fetch", async () => new Response(JSON.stringify(problem), { status: 400 }));
    const error = await call(listShoots, { query: { limit: 9999 } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestError);
    expect((error as RequestError).status).toBe(400);
    expect((error as RequestError).fieldMessage("query.limit")).toBe("too big");
  });
});
