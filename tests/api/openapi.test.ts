// GET /api/v1/openapi.json: the document lists exactly the operations of lib/api/operations (which
// tests/api/operations-served.test.ts holds equal to what app/api/v1 serves), each with the access
// its route() checks; it is a valid OpenAPI 3.1 document; and what the real
// server answers (reads, writes, errors) validates against the document's own schema for that
// operation and status, checked by a JSON Schema 2020-12 validator, not by the zod schemas.
import { randomUUID } from "node:crypto";
import { Validator } from "@seriousme/openapi-schema-validator";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_OPERATIONS } from "../../lib/api/operations/index.ts";
import { seedLandscape } from "../../lib/server/seed-landscape.ts";
import { ADMIN_HEADERS, type ApiResponse, call } from "../support/api-client.ts";
import { type AppServer, startWebServer } from "../support/app-server.ts";
import { seed } from "../support/builders.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { namespacedProfile } from "../support/namespaced-profile.ts";
import { smallLandscape } from "../support/small-landscape.ts";

type Method = "get" | "post" | "put" | "patch" | "delete";
interface Operation {
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
  "x-almanac-access": { role: string; on?: string };
}
interface Document {
  openapi: string;
  paths: Record<string, Partial<Record<Method, Operation>>>;
  components: Record<string, unknown>;
}

let database: TestDatabase;
let server: AppServer;
let base: string;
let document: Document;

beforeAll(async () => {
  database = await createTestDatabase();
  const now = Date.now();
  const landscape = smallLandscape(now, 4);
  landscape.seeds = [seed("seed-1"), seed("seed-2")];
  landscape.namespacedCloudProfiles = [
    namespacedProfile(landscape.cloudProfiles[0], "garden-dev", "dev-extended", [{ version: "1.31.2" }]),
  ];
  await seedLandscape(database.db, landscape, { actor: "test", now });
  server = await startWebServer(database.url);
  base = server.baseUrl;
  const answer = await call<Document>(base, "/api/v1/openapi.json");
  expect(answer.status).toBe(200);
  document = answer.body;
}, 180_000);

afterAll(async () => {
  await server?.stop();
  await database?.drop();
});

describe("the document's operations", () => {
  it("are exactly the operations", () => {
    const operations = API_OPERATIONS.map((op) => `${op.method.toUpperCase()} ${op.path}`);
    const inDocument = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(operations.length).toBeGreaterThan(30);
    expect(inDocument.sort()).toEqual(operations.sort());
  });

  it("say who may call them as their route() checks", () => {
    const roles: Record<string, string> = { read: "viewer", operate: "operator", administer: "admin" };
    const scopes: Record<string, string> = { namespace: "project", any: "any-project" };
    for (const { method, path, access } of API_OPERATIONS) {
      const documented = document.paths[path][method]!["x-almanac-access"];
      const expected =
        access.need === "public" || access.need === "signed-in"
          ? { role: access.need }
          : { role: roles[access.need], on: access.project ? scopes[access.project] : "landscape" };
      expect(documented, `${method} ${path}`).toEqual(expected);
    }
  });

  it("form a valid OpenAPI 3.1 document", async () => {
    const validator = new Validator();
    const result = await validator.validate(document as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
  });

  it("is kept by the client: the same ETag answers 304", async () => {
    const first = await call(base, "/api/v1/openapi.json");
    const etag = first.headers.get("etag")!;
    expect(first.headers.get("cache-control")).toContain("max-age");
    const again = await call(base, "/api/v1/openapi.json", { headers: { "if-none-match": etag } });
    expect(again.status).toBe(304);
    expect((await call(base, "/api/v1/openapi.json", { anonymous: true })).status).toBe(401);
  });
});

describe("real answers", () => {
  const SHOOT = "/api/v1/namespaces/{namespace}/shoots/{name}";
  const checked = new Set<string>();
  let ajv: Ajv2020;
  const validators = new Map<string, ValidateFunction>();

  beforeAll(() => {
    ajv = new Ajv2020({ allErrors: true, strict: true });
    addFormats.default(ajv);
    // The document is the schema resource; its OpenAPI members only hold the schemas referred to.
    for (const member of ["openapi", "info", "servers", "tags", "security", "paths", "components"]) {
      ajv.addKeyword(member);
    }
    ajv.addSchema(document, "urn:almanac:openapi");
  });

  const pointer = (...parts: string[]) => parts.map((p) => p.replaceAll("~", "~0").replaceAll("/", "~1")).join("/");

  /**
   * The answer's status and media type are documented for the operation, and a JSON body is
   * valid against the document's schema for them.
   */
  function conforms(method: Method, template: string, answer: ApiResponse) {
    const label = `${method.toUpperCase()} ${template} ${answer.status}`;
    const responses = document.paths[template]?.[method]?.responses;
    expect(responses, label).toBeDefined();
    const documented = responses![String(answer.status)];
    expect(documented, `${label} is not documented: ${JSON.stringify(answer.body)}`).toBeDefined();
    const mediaType = (answer.headers.get("content-type") ?? "").split(";")[0].trim();
    if (answer.status === 304 || answer.status === 204) {
      expect(documented.content, label).toBeUndefined();
    } else {
      expect(Object.keys(documented.content ?? {}), label).toContain(mediaType);
    }
    if (mediaType.endsWith("json")) {
      const ref = `urn:almanac:openapi#/${pointer("paths", template, method, "responses", String(answer.status), "content", mediaType, "schema")}`;
      let validate = validators.get(ref);
      if (!validate) {
        validate = ajv.compile({ $ref: ref });
        validators.set(ref, validate);
      }
      const valid = validate(answer.body);
      expect(valid ? [] : validate.errors, `${label}: ${JSON.stringify(answer.body).slice(0, 400)}`).toEqual([]);
    }
    checked.add(`${method} ${template} ${answer.status}`);
    return answer;
  }

  const get = async (template: string, path: string, init: RequestInit & { anonymous?: boolean } = {}) =>
    conforms("get", template, await call(base, path, init));
  const send = async (method: Method, template: string, path: string, body?: unknown, type = "application/json") =>
    conforms(
      method,
      template,
      await call(base, path, {
        method: method.toUpperCase(),
        ...(body === undefined ? {} : { headers: { "content-type": type }, body: JSON.stringify(body) }),
      }),
    );
  const shoot = (name: string, rest = "") => `/api/v1/namespaces/garden-dev/shoots/${name}${rest}`;

  it("of every read validate", async () => {
    expect((await get("/api/v1/shoots", "/api/v1/shoots?limit=2")).body.nextCursor).not.toBeNull();
    await get("/api/v1/shoots", "/api/v1/shoots?status=healthy,unknown&sort=-expiry");
    await get("/api/v1/shoots/summary", "/api/v1/shoots/summary");
    await get("/api/v1/shoots/export", "/api/v1/shoots/export?format=json");
    await get("/api/v1/shoots/export", "/api/v1/shoots/export?format=csv");
    const read = await get(SHOOT, shoot("cluster-1"));
    expect(
      (await get(SHOOT, shoot("cluster-1"), { headers: { "if-none-match": read.headers.get("etag")! } })).status,
    ).toBe(304);
    await get(`${SHOOT}/history`, shoot("cluster-1", "/history"));
    await get(`${SHOOT}/maintenance-plan`, shoot("cluster-0", "/maintenance-plan"));
    await get(`${SHOOT}/nodes`, shoot("cluster-0", "/nodes"));
    await get(`${SHOOT}/cleanup`, shoot("cluster-0", "/cleanup"));
    await get(`${SHOOT}/migration`, shoot("cluster-1", "/migration"));
    await get(`${SHOOT}/calendar.ics`, shoot("cluster-1", "/calendar.ics"));
    await get("/api/v1/namespaces/{namespace}/calendar.ics", "/api/v1/namespaces/garden-dev/calendar.ics");
    await get("/api/v1/forecast", "/api/v1/forecast?days=366");
    await get("/api/v1/forecast", "/api/v1/forecast?days=366&atRisk=true&limit=3&summary=true");
    await get("/api/v1/forecast/export", "/api/v1/forecast/export?format=json&days=366");
    await get("/api/v1/migrations", "/api/v1/migrations");
    await get("/api/v1/audit", "/api/v1/audit");
    await get("/api/v1/audit/export", "/api/v1/audit/export?format=json");
    await get("/api/v1/cloudprofiles", "/api/v1/cloudprofiles");
    const profile = (await call(base, "/api/v1/cloudprofiles")).body.items[0].metadata.name;
    await get("/api/v1/cloudprofiles/{name}", `/api/v1/cloudprofiles/${profile}`);
    await get("/api/v1/cloudprofiles/{name}/usage", `/api/v1/cloudprofiles/${profile}/usage`);
    await get("/api/v1/namespacedcloudprofiles", `/api/v1/namespacedcloudprofiles?parent=${profile}`);
    await get(
      "/api/v1/namespaces/{namespace}/namespacedcloudprofiles/{name}",
      "/api/v1/namespaces/garden-dev/namespacedcloudprofiles/dev-extended",
    );
    await get("/api/v1/seeds", "/api/v1/seeds");
    await get("/api/v1/projects", "/api/v1/projects");
    await get("/api/v1/me", "/api/v1/me");
    await get("/api/v1/accounts", "/api/v1/accounts");
    await get("/api/v1/tokens", "/api/v1/tokens");
    await get("/api/v1/jobs", "/api/v1/jobs");
    await get("/api/v1/openapi.json", "/api/v1/openapi.json");
  });

  it("of the event stream is the documented media type", async () => {
    const stop = new AbortController();
    const response = await fetch(`${base}/api/v1/events`, {
      headers: ADMIN_HEADERS,
      signal: stop.signal,
    });
    const documented = document.paths["/api/v1/events"].get!.responses["200"].content!;
    expect(response.status).toBe(200);
    expect(Object.keys(documented)).toContain(response.headers.get("content-type"));
    stop.abort();
  });

  it("of the writes validate", async () => {
    const read = await call(base, shoot("cluster-1"));
    const patched = await conforms(
      "patch",
      SHOOT,
      await call(base, shoot("cluster-1"), {
        method: "PATCH",
        headers: { "content-type": "application/merge-patch+json", "if-match": read.headers.get("etag")! },
        body: JSON.stringify({ spec: { maintenance: { timeWindow: { begin: "030000+0200", end: "040000+0200" } } } }),
      }),
    );
    expect(patched.status).toBe(200);
    expect((await send("post", `${SHOOT}/maintain`, shoot("cluster-2", "/maintain"))).status).toBe(202);
    expect(
      (await send("post", `${SHOOT}/migrate`, shoot("cluster-3", "/migrate"), { seedName: "seed-2" })).status,
    ).toBe(202);
    await get(`${SHOOT}/migration`, shoot("cluster-3", "/migration"));
    await get("/api/v1/migrations", "/api/v1/migrations?active=true");
    await get(`${SHOOT}/history`, shoot("cluster-1", "/history"));

    const confirm = { metadata: { annotations: { "confirmation.gardener.cloud/deletion": "true" } } };
    expect((await send("patch", SHOOT, shoot("cluster-0"), confirm, "application/merge-patch+json")).status).toBe(200);
    expect((await send("delete", SHOOT, shoot("cluster-0"))).status).toBe(202);
    await get(`${SHOOT}/deletion`, shoot("cluster-0", "/deletion"));

    const account = await send("post", "/api/v1/accounts", "/api/v1/accounts", {
      name: "Ada",
      email: "ada@example.com",
      password: "a long enough password",
      role: "viewer",
      scope: "dev",
    });
    expect(account.status).toBe(201);
    const roles = [{ role: "operator", scope: "*" }];
    expect(
      (
        await send("put", "/api/v1/accounts/{id}/roles", `/api/v1/accounts/${account.body.id}/roles`, {
          bindings: roles,
        })
      ).status,
    ).toBe(200);
    await get("/api/v1/accounts", "/api/v1/accounts");
    expect((await send("delete", "/api/v1/accounts/{id}", `/api/v1/accounts/${account.body.id}`)).status).toBe(200);

    const token = await send("post", "/api/v1/tokens", "/api/v1/tokens", {
      name: "ci",
      role: "viewer",
      scope: "*",
      expiresInDays: 30,
    });
    expect(token.status).toBe(201);
    await get("/api/v1/tokens", "/api/v1/tokens");
    expect((await send("delete", "/api/v1/tokens/{id}", `/api/v1/tokens/${token.body.id}`)).status).toBe(200);

    const freeze = await send("post", "/api/v1/freezes", "/api/v1/freezes", {
      start: new Date(Date.now() + 3_600_000).toISOString(),
      end: new Date(Date.now() + 30 * 86_400_000).toISOString(),
      reason: "year-end",
    });
    expect(freeze.status).toBe(201);
    await get("/api/v1/freezes", "/api/v1/freezes?forcedUpdates=true");
    await get("/api/v1/forecast", "/api/v1/forecast?days=60&limit=20&summary=true");
    expect((await send("delete", "/api/v1/freezes/{id}", `/api/v1/freezes/${freeze.body.id}`)).status).toBe(204);
    await get("/api/v1/audit", "/api/v1/audit?limit=5");

    // An update run's preview (dryRun), with a freeze that holds its first stage and marks it.
    const RUNS = "/api/v1/update-runs";
    const held = await send("post", "/api/v1/freezes", "/api/v1/freezes", {
      start: new Date(Date.now() - 60_000).toISOString(),
      end: new Date(Date.now() + 3_600_000).toISOString(),
      reason: "Release week",
    });
    expect(held.status).toBe(201);
    const runPreview = await send("post", RUNS, RUNS, {
      name: "to 1.31",
      target: { kubernetes: "1.31" },
      stages: [
        { name: "first", shoots: [{ namespace: "garden-dev", name: "cluster-0" }], when: "now", soakSeconds: 60 },
        { name: "rest", shoots: [{ namespace: "garden-dev", name: "cluster-1" }], when: "window", approval: true },
      ],
      healthGate: { healthySeconds: 60 },
      dryRun: true,
    });
    expect(runPreview.status, JSON.stringify(runPreview.body)).toBe(200);
    expect(runPreview.body.stages[0].freeze.id).toBe(held.body.id);
    expect((await send("delete", "/api/v1/freezes/{id}", `/api/v1/freezes/${held.body.id}`)).status).toBe(204);

    const BULK = "/api/v1/bulk-actions";
    const preview = await send("post", BULK, BULK, {
      action: "set-auto-update",
      filter: { namespace: "garden-dev" },
      params: { kubernetesVersion: true },
      dryRun: true,
    });
    expect(preview.status).toBe(200);
    const started = await send("post", BULK, BULK, {
      action: "set-confine-rollout",
      shoots: [{ namespace: "garden-dev", name: "cluster-1" }],
      params: { confineSpecUpdateRollout: true },
    });
    expect(started.status).toBe(202);
    await get(`${BULK}/{id}`, `${BULK}/${started.body.id}`);
    await get(BULK, BULK);
    // No worker runs here, so it is still running when cancelled.
    expect((await send("post", `${BULK}/{id}/cancel`, `${BULK}/${started.body.id}/cancel`)).status).toBe(202);
    await get("/api/v1/audit", `/api/v1/audit?bulkAction=${started.body.id}`);

    // An update run: made (201), read, listed, paused, resumed, approved, refused an approval it
    // does not wait for (409), cancelled. No worker runs here: the wait for the approval is set
    // as the run's job would set it.
    const run = await send("post", RUNS, RUNS, {
      name: "to 1.31.4",
      target: { kubernetes: "1.31.4" },
      stages: [
        { name: "only", shoots: [{ namespace: "garden-dev", name: "cluster-2" }], when: "window", approval: true },
      ],
      healthGate: { healthySeconds: 60 },
    });
    expect(run.status, JSON.stringify(run.body)).toBe(201);
    const runPath = `${RUNS}/${run.body.id}`;
    await get(`${RUNS}/{id}`, runPath);
    await get(RUNS, `${RUNS}?limit=5`);
    expect((await send("post", `${RUNS}/{id}/pause`, `${runPath}/pause`)).status).toBe(202);
    expect((await send("post", `${RUNS}/{id}/resume`, `${runPath}/resume`)).status).toBe(202);
    await database.db.$executeRawUnsafe(
      `UPDATE update_runs SET state = 'WaitingForApproval' WHERE id = $1::uuid`,
      run.body.id,
    );
    await database.db.$executeRawUnsafe(
      `UPDATE update_run_stages SET state = 'WaitingForApproval' WHERE run_id = $1::uuid`,
      run.body.id,
    );
    expect((await send("post", `${RUNS}/{id}/approve`, `${runPath}/approve`)).status).toBe(202);
    expect((await send("post", `${RUNS}/{id}/approve`, `${runPath}/approve`)).status).toBe(409);
    expect((await send("post", `${RUNS}/{id}/cancel`, `${runPath}/cancel`)).status).toBe(202);
    await get("/api/v1/audit", `/api/v1/audit?updateRun=${run.body.id}`);
  });

  it("of errors validate as problems", async () => {
    expect((await get("/api/v1/shoots", "/api/v1/shoots", { anonymous: true })).status).toBe(401);
    expect((await get("/api/v1/shoots", "/api/v1/shoots?limit=0&colour=red")).status).toBe(400);
    expect((await get(SHOOT, shoot("no-such-cluster"))).status).toBe(404);
    expect((await get(`${SHOOT}/deletion`, shoot("cluster-1", "/deletion"))).status).toBe(404);
    expect((await get("/api/v1/cloudprofiles/{name}", "/api/v1/cloudprofiles/none")).status).toBe(404);
    const noProfile = "/api/v1/namespaces/garden-dev/namespacedcloudprofiles/none";
    expect((await get("/api/v1/namespaces/{namespace}/namespacedcloudprofiles/{name}", noProfile)).status).toBe(404);
    expect((await get("/api/v1/namespacedcloudprofiles", "/api/v1/namespacedcloudprofiles?kind=x")).status).toBe(400);
    expect((await get("/api/v1/cloudprofiles/{name}/usage", "/api/v1/cloudprofiles/none/usage")).status).toBe(404);
    const stale = await call(base, shoot("cluster-1"), {
      method: "PATCH",
      headers: { "content-type": "application/merge-patch+json", "if-match": '"1"' },
      body: JSON.stringify({ spec: { hibernation: { enabled: true } } }),
    });
    expect(conforms("patch", SHOOT, stale).status).toBe(409);
    expect(
      (await send("patch", SHOOT, shoot("cluster-1"), { spec: { colour: "red" } }, "application/merge-patch+json"))
        .status,
    ).toBe(400);
    expect((await send("patch", SHOOT, shoot("cluster-1"), {}, "text/plain")).status).toBe(415);
    expect(
      (
        await send(
          "patch",
          SHOOT,
          shoot("cluster-1"),
          { spec: { kubernetes: { version: "9.9.9" } } },
          "application/merge-patch+json",
        )
      ).status,
    ).toBe(422);
    expect(
      (await send("post", `${SHOOT}/migrate`, shoot("cluster-1", "/migrate"), { seedName: "seed-9" })).status,
    ).toBeGreaterThanOrEqual(400);
    expect(
      (
        await send("post", "/api/v1/tokens", "/api/v1/tokens", {
          name: "Bad Name",
          role: "viewer",
          scope: "*",
          expiresInDays: null,
        })
      ).status,
    ).toBe(400);
    expect((await send("post", "/api/v1/freezes", "/api/v1/freezes", { reason: "no times" })).status).toBe(422);
    expect((await send("post", "/api/v1/freezes", "/api/v1/freezes", { start: 1 })).status).toBe(400);
    expect((await send("delete", "/api/v1/freezes/{id}", `/api/v1/freezes/${randomUUID()}`)).status).toBe(404);
    // Notifications (issue 30): both families answer alike.
    for (const [base, body] of [
      ["/api/v1/webhooks", { url: "https://hooks.example.com/almanac", secret: "0123456789abcdef", events: ["stuck"] }],
      ["/api/v1/email-subscriptions", { to: "ops@example.com", events: ["stuck"], digest: "daily" }],
    ] as const) {
      const made = await send("post", base, base, body);
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      const one = `${base}/${made.body.id}`;
      await get(base, base);
      await get(`${base}/{id}`, one);
      expect((await send("patch", `${base}/{id}`, one, { name: "renamed", days: [3] })).status).toBe(200);
      expect((await send("post", `${base}/{id}/test`, `${one}/test`)).status).toBe(202);
      await get(`${base}/{id}/deliveries`, `${one}/deliveries`);
      expect((await send("post", base, base, { ...body, events: ["nope"] })).status).toBe(422);
      expect((await send("delete", `${base}/{id}`, one)).status).toBe(204);
    }
    const retry = (id: string) => send("post", "/api/v1/jobs/{id}/retry", `/api/v1/jobs/${id}/retry`);
    expect((await retry("no-such-job")).status).toBe(400);
    expect((await retry(randomUUID())).status).toBe(404);
    expect((await send("post", "/api/v1/setup", "/api/v1/setup", { token: "x" })).status).toBe(400);
  });

  it("cover every operation that answers JSON", () => {
    const jsonOperations = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item).flatMap(([method, op]) =>
        Object.entries(op!.responses)
          .filter(([status, r]) => Number(status) < 300 && r.content?.["application/json"])
          .map(([status]) => `${method} ${path} ${status}`),
      ),
    );
    expect(jsonOperations.filter((o) => !checked.has(o))).toEqual([
      "post /api/v1/jobs/{id}/retry 202",
      "post /api/v1/setup 201",
    ]);
  });
});
