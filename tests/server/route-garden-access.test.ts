// A shoot's routes ask the garden too: route() answers 403 naming what the garden's RBAC checked
// when the roles allow the namespace but the garden does not, and 503 when the garden cannot say.
// The route wrapper runs in-process on a test database, with the configured garden replaced.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GardenAccess } from "../../lib/auth/garden-access.ts";
import { GardenUnavailableError } from "../../lib/auth/garden-access.ts";
import type { Db } from "../../lib/db/client.ts";
import { json, route } from "../../lib/http/route.ts";
import { seedLandscape } from "../../lib/server/seed-landscape.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { smallLandscape } from "../support/small-landscape.ts";
import { tokenHeader } from "../support/tokens.ts";

const holder = globalThis as { almanacDb?: Db; almanacGardenAccess?: GardenAccess };
let database: TestDatabase;
let viewer: { authorization: string };
const asked: string[] = [];
let answer: "garden-dev" | Error = "garden-dev";

beforeAll(async () => {
  database = await createTestDatabase();
  const landscape = smallLandscape(Date.now(), 1);
  landscape.projects.push({ metadata: { name: "prod" }, spec: { namespace: "garden-prod" } });
  await seedLandscape(database.db, landscape, { actor: "test", now: Date.now() });
  viewer = await tokenHeader(database.db, "ci", "viewer");
  holder.almanacDb = database.db;
  holder.almanacGardenAccess = {
    readableNamespaces: () => "all",
    mayRead: async (identity, namespace) => {
      asked.push(`${identity.kind === "person" ? identity.user : identity.kind} ${namespace}`);
      if (answer instanceof Error) throw answer;
      return namespace === answer;
    },
  };
});
afterAll(async () => {
  delete holder.almanacGardenAccess;
  delete holder.almanacDb;
  await database?.drop();
});

const shootRoute = route<{ namespace: string; name: string }>({ need: "read", project: "namespace" }, async () =>
  json({ ok: true }),
);
const call = (namespace: string) =>
  shootRoute(new Request(`http://almanac.test/api/v1/namespaces/${namespace}/shoots/x`, { headers: viewer }), {
    params: Promise.resolve({ namespace, name: "x" }),
  });

describe("route() on a garden with its own RBAC", () => {
  it("lets through a namespace the garden lets the caller read, asking as the token's garden user", async () => {
    const response = await call("garden-dev");
    expect(response.status).toBe(200);
    expect(asked.at(-1)).toBe("almanac:token:ci garden-dev");
  });

  it("answers 403 naming the verb and resource the garden's RBAC refused", async () => {
    const response = await call("garden-prod");
    expect(response.status).toBe(403);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    expect(await response.json()).toMatchObject({
      status: 403,
      title: "Forbidden",
      detail:
        'The garden does not let the token "ci" (garden user almanac:token:ci) list shoots in namespace garden-prod (Kubernetes RBAC: verb list, resource shoots.core.gardener.cloud).',
      rbac: { verb: "list", group: "core.gardener.cloud", resource: "shoots", namespace: "garden-prod" },
    });
  });

  it("answers 503 when the garden cannot say, never the shoot", async () => {
    answer = new GardenUnavailableError("The garden could not say what you may read: it did not answer within 5 s.");
    const response = await call("garden-dev");
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("5");
    expect(await response.json()).toMatchObject({
      status: 503,
      detail: "The garden could not say what you may read: it did not answer within 5 s.",
    });
    answer = "garden-dev";
  });
});
