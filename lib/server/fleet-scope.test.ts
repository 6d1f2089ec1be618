// The fleet scope's cache key tells apart every two callers whose answers or refusals could
// differ, and its check lets the landscape's roles filter on anything.
import { describe, expect, it } from "vitest";
import type { Principal } from "../auth/principal.ts";
import type { Db } from "../db/client.ts";
import { type FleetScope, refuseUnreadable, scopeKey } from "./fleet-scope.ts";

const token = (...scopes: string[]): Principal => ({
  kind: "token",
  id: "t",
  name: "t",
  bindings: scopes.map((scope) => ({ role: "viewer", scope })),
});
const scope = (principal: Principal, namespaces: FleetScope["namespaces"]): FleetScope => ({ principal, namespaces });
// The checks below never need to look a namespace's project up.
const noDatabase = {} as Db;

describe("scopeKey", () => {
  it("is one key for the whole landscape, another for every set of namespaces and projects", () => {
    const keys = [
      scopeKey(scope(token("*"), "all")),
      scopeKey(scope(token("dev"), ["garden-dev"])),
      scopeKey(scope(token("dev", "gone"), ["garden-dev"])),
      scopeKey(scope(token("dev", "prod"), ["garden-dev", "garden-prod"])),
      scopeKey(scope(token("gone"), [])),
      scopeKey(scope(token(), [])),
    ];
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys[0]).toBe("*");
  });

  it("does not depend on the order the roles were granted in", () => {
    expect(scopeKey(scope(token("prod", "dev"), ["garden-dev", "garden-prod"]))).toBe(
      scopeKey(scope(token("dev", "prod", "dev"), ["garden-dev", "garden-prod"])),
    );
  });
});

describe("refuseUnreadable", () => {
  it("lets the landscape's roles filter on any namespace or project", async () => {
    await expect(
      refuseUnreadable(noDatabase, scope(token("*"), "all"), { namespace: "garden-x", project: "x" }),
    ).resolves.toBeUndefined();
  });

  it("lets a project's viewer filter on their own namespace and project, and refuses another project", async () => {
    const dev = scope(token("dev"), ["garden-dev"]);
    await expect(
      refuseUnreadable(noDatabase, dev, { namespace: "garden-dev", project: "dev" }),
    ).resolves.toBeUndefined();
    await expect(refuseUnreadable(noDatabase, dev, { project: "prod" })).rejects.toMatchObject({
      code: "forbidden",
      message: 'The token "t" has no role on project prod; this needs viewer.',
    });
  });
});
