// Nobody reads or changes anything without an authorized caller. Every operation of /api/v1
// (lib/api/operations, which tests/api/operations-served.test.ts holds equal to what app/api/v1
// serves) and every other route handler under app/ (found from the files and asked for their
// methods, so a new one cannot be forgotten) is called, method by method: without credentials it
// answers 401, with too small a role 403, both as problem+json. The public ones are exactly the
// health checks, better-auth's sign-in endpoints and the first-admin setup.
import { readdirSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pathOf } from "../../lib/api/operation.ts";
import { API_OPERATIONS } from "../../lib/api/operations/index.ts";
import { createPasswordAccount } from "../../lib/auth/create-account.ts";
import { tokenHash } from "../../lib/auth/token-hash.ts";
import { seedLandscape } from "../../lib/server/seed-landscape.ts";
import { insertToken } from "../../lib/store/api-tokens.ts";
import { call } from "../support/api-client.ts";
import { type AppServer, startNext } from "../support/app-server.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { namespacedProfile } from "../support/namespaced-profile.ts";
import { smallLandscape } from "../support/small-landscape.ts";

const APP = path.resolve(import.meta.dirname, "../../app");
const PUBLIC = new Set(["/healthz", "/readyz", "/api/auth/[...all]", "/api/v1/setup"]);
const SAMPLE: Record<string, string> = {
  namespace: "garden-dev",
  name: "cluster-1",
  id: "x",
  path: "nothing-here",
  all: "session",
};
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"];

interface Endpoint {
  readonly route: string; // the folder path, e.g. /api/v1/namespaces/[namespace]/shoots/[name]
  readonly url: string; // with sample values
  readonly method: string;
}

/** The operations of /api/v1, with their paths written as folders. */
function operationEndpoints(): Endpoint[] {
  return API_OPERATIONS.map((op) => ({
    route: op.path.replace(/\{(\w+)\}/g, "[$1]"),
    url: pathOf(op, Object.fromEntries(op.pathParams.map((name) => [name, SAMPLE[name] ?? "x"]))),
    method: op.method.toUpperCase(),
  }));
}

/** Every route.ts under app/ outside /api/v1, with the HTTP methods its module exports. */
async function otherEndpoints(): Promise<Endpoint[]> {
  const found: Endpoint[] = [];
  const files = readdirSync(APP, { recursive: true, encoding: "utf8" }).filter(
    (entry) => path.basename(entry) === "route.ts" && !entry.startsWith(`api${path.sep}v1${path.sep}`),
  );
  for (const entry of files) {
    const route = `/${path
      .dirname(entry)
      .split(path.sep)
      .filter((s) => !/^\(.*\)$/.test(s))
      .join("/")}`;
    const url = route.replace(/\[(?:\.\.\.)?(\w+)\]/g, (_, name: string) => SAMPLE[name] ?? "x");
    const module = (await import(path.join(APP, entry))) as Record<string, unknown>;
    for (const method of Object.keys(module).filter((m) => METHODS.includes(m))) found.push({ route, url, method });
  }
  return found;
}

const byRoute = (a: Endpoint, b: Endpoint) => `${a.route} ${a.method}`.localeCompare(`${b.route} ${b.method}`);
const ALL = [...operationEndpoints(), ...(await otherEndpoints())].sort(byRoute);
const PROTECTED = ALL.filter((e) => !PUBLIC.has(e.route));
const BODY = { "content-type": "application/json" };
const send = (e: Endpoint, headers: Record<string, string> = {}) =>
  call(server.baseUrl, e.url, {
    method: e.method,
    anonymous: true,
    headers: { ...BODY, ...headers },
    ...(e.method === "GET" ? {} : { body: "{}" }),
  });

let database: TestDatabase;
let server: AppServer;
const ELSEWHERE = "viewer-of-another-project-0123456789";
const NOBODY_PASSWORD = "nobody's long password";
const DEV_VIEWER = "viewer-of-project-dev-0123456789";
let noRoleCookie = "";
/** What a role on any project may read: the landscape's configuration, which every page shows. */
const CONFIGURATION = new Set([
  "/api/v1/cloudprofiles",
  "/api/v1/cloudprofiles/[name]",
  // What the caller's projects run of a profile (counted within them, like the fleet-wide lists).
  "/api/v1/cloudprofiles/[name]/usage",
  "/api/v1/seeds",
  "/api/v1/projects",
]);
/** ... and the fleet-wide lists, which then hold only what the caller's projects have. */
const FLEET_LISTS = new Set([
  "/api/v1/shoots",
  "/api/v1/namespacedcloudprofiles",
  "/api/v1/shoots/summary",
  "/api/v1/forecast",
  "/api/v1/audit",
  "/api/v1/migrations",
  "/api/v1/shoots/export",
  "/api/v1/forecast/export",
  "/api/v1/audit/export",
  // The landscape-wide freezes and those of the caller's projects.
  "/api/v1/freezes",
]);
/**
 * ... and the bulk actions, which answer a caller with a role somewhere only the ones they started
 * (the list) and 404 for any other (one of them by id); likewise the update runs, only those whose
 * every project the caller reads.
 */
const OWN_BULK_ACTIONS = new Set([
  "/api/v1/bulk-actions",
  "/api/v1/bulk-actions/[id]",
  "/api/v1/update-runs",
  "/api/v1/update-runs/[id]",
]);
/** What anyone signed in may read, with or without a role: who they are, and the API's description. */
const SIGNED_IN = new Set(["/api/v1/me", "/api/v1/openapi.json"]);
const VIEWER = "landscape-viewer-token-0123456789";
beforeAll(async () => {
  database = await createTestDatabase();
  const landscape = smallLandscape(Date.now(), 2);
  // Project dev's own profile: listed only to those who may read garden-dev.
  landscape.namespacedCloudProfiles = [namespacedProfile(landscape.cloudProfiles[0], "garden-dev", "cluster-1", [])];
  await seedLandscape(database.db, landscape, { actor: "test", now: Date.now() });
  const token = (name: string, value: string, scope: string) =>
    insertToken(database.db, {
      name,
      tokenHash: tokenHash(value),
      role: "viewer",
      scope,
      createdBy: "test",
      expiresAt: null,
    });
  await token("elsewhere", ELSEWHERE, "another-project");
  await token("viewer", VIEWER, "*");
  await token("dev-viewer", DEV_VIEWER, "dev");
  server = await startNext(database.url);
  // A person who may sign in but holds no role at all.
  await createPasswordAccount(database.db, { name: "Nobody", email: "nobody@example.com", password: NOBODY_PASSWORD });
  const signIn = await call(server.baseUrl, "/api/auth/sign-in/email", {
    method: "POST",
    anonymous: true,
    headers: { ...BODY, origin: server.baseUrl },
    body: JSON.stringify({ email: "nobody@example.com", password: NOBODY_PASSWORD }),
  });
  expect(signIn.status).toBe(200);
  noRoleCookie = (signIn.headers.get("set-cookie") ?? "").split(";")[0];
});
afterAll(async () => {
  await server?.stop();
  await database?.drop();
});

describe("every route handler", () => {
  it("is found: the API's operations, the event stream and the public ones", () => {
    const routes = new Set(ALL.map((e) => e.route));
    for (const r of ["/api/v1/shoots", "/api/v1/events", "/api/v1/namespaces/[namespace]/shoots/[name]", ...PUBLIC]) {
      expect(routes, r).toContain(r);
    }
    expect(PROTECTED.length).toBeGreaterThan(20);
  });

  it("refuses an anonymous caller with 401 and a problem", async () => {
    for (const e of PROTECTED) {
      const answer = await send(e);
      expect(answer.status, `${e.method} ${e.url}`).toBe(401);
      expect(answer.headers.get("content-type"), `${e.method} ${e.url}`).toBe("application/problem+json");
      expect(answer.body.status).toBe(401);
    }
  });

  it("refuses a signed-in person without a role with 403 and a problem that says why", async () => {
    expect(noRoleCookie).toMatch(/session_token=/);
    for (const e of PROTECTED.filter((p) => !SIGNED_IN.has(p.route))) {
      const answer = await send(e, { cookie: noRoleCookie });
      expect(answer.status, `${e.method} ${e.url}`).toBe(403);
      expect(answer.headers.get("content-type")).toBe("application/problem+json");
      expect(answer.body.detail).toMatch(
        /^You have no role on (the whole landscape|project dev); this needs (viewer|operator|admin)\.$/,
      );
    }
  });

  // Subscriptions (issue 30) are read-level on purpose: whoever may read a project may be told
  // about it, so a viewer makes and changes them; which ones is the use case's to decide
  // (tests/notifications/subscriptions.test.ts, tests/api/notifications.test.ts).
  const NOTIFICATIONS = (route: string) =>
    route.startsWith("/api/v1/webhooks") || route.startsWith("/api/v1/email-subscriptions");

  it("refuses a role on another project everything but the landscape's configuration, the fleet-wide lists and the event stream", async () => {
    // The stream answers at once and stays open: only its status is read, then it is closed.
    const abort = new AbortController();
    const stream = await fetch(`${server.baseUrl}/api/v1/events`, {
      headers: { authorization: `Bearer ${ELSEWHERE}` },
      signal: abort.signal,
    });
    expect(stream.status).toBe(200);
    abort.abort();
    for (const e of PROTECTED.filter(
      (p) => !SIGNED_IN.has(p.route) && p.route !== "/api/v1/events" && !NOTIFICATIONS(p.route),
    )) {
      const answer = await send(e, { authorization: `Bearer ${ELSEWHERE}` });
      if (CONFIGURATION.has(e.route) && e.method === "GET") {
        // Let through: answered (no profile is named like the sample shoot: 404).
        expect([200, 404], `${e.method} ${e.url}`).toContain(answer.status);
      } else if (FLEET_LISTS.has(e.route) && e.method === "GET") {
        // Let through, with nothing of project dev's in the answer.
        expect(answer.status, `${e.method} ${e.url}`).toBe(200);
        expect(JSON.stringify(answer.body), `${e.method} ${e.url}`).not.toContain("garden-dev");
      } else if (OWN_BULK_ACTIONS.has(e.route) && e.method === "GET") {
        expect(answer.status, `${e.method} ${e.url}`).toBe(e.route.endsWith("[id]") ? 404 : 200);
        expect(JSON.stringify(answer.body), `${e.method} ${e.url}`).not.toContain("garden-dev");
      } else {
        expect(answer.status, `${e.method} ${e.url}`).toBe(403);
        expect(answer.body.detail).toMatch(/this needs (viewer|operator|admin)/);
      }
    }
  });

  it("lets a role on a project read that project's shoots, also in the fleet-wide lists, and no other's", async () => {
    const as = { headers: { authorization: `Bearer ${DEV_VIEWER}` } };
    expect((await call(server.baseUrl, "/api/v1/namespaces/garden-dev/shoots/cluster-1", as)).status).toBe(200);
    const profile = "/api/v1/namespaces/garden-dev/namespacedcloudprofiles/cluster-1";
    expect((await call(server.baseUrl, profile, as)).body.spec.parent.name).toBe("test-profile");
    expect((await call(server.baseUrl, "/api/v1/namespacedcloudprofiles", as)).body.items).toHaveLength(1);
    expect((await call(server.baseUrl, "/api/v1/forecast?namespace=garden-dev", as)).status).toBe(200);
    expect((await call(server.baseUrl, "/api/v1/forecast", as)).status).toBe(200);
    expect((await call(server.baseUrl, "/api/v1/shoots", as)).body.total).toBe(2);
    const elsewhere = { headers: { authorization: `Bearer ${ELSEWHERE}` } };
    const refused = await call(server.baseUrl, "/api/v1/forecast?namespace=garden-dev", elsewhere);
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toBe(
      'The token "elsewhere" has no role on project dev (namespace garden-dev); this needs viewer.',
    );
    expect((await call(server.baseUrl, "/api/v1/shoots", elsewhere)).body).toEqual({
      items: [],
      total: 0,
      nextCursor: null,
    });
  });

  it("refuses a viewer every change", async () => {
    const changes = PROTECTED.filter(
      (e) => e.method !== "GET" && e.route !== "/api/[...path]" && !NOTIFICATIONS(e.route),
    );
    expect(changes.map((e) => `${e.method} ${e.route}`)).toEqual(
      expect.arrayContaining([
        "PATCH /api/v1/namespaces/[namespace]/shoots/[name]",
        "POST /api/v1/namespaces/[namespace]/shoots/[name]/maintain",
      ]),
    );
    for (const e of changes) {
      const answer = await send(e, { authorization: `Bearer ${VIEWER}` });
      expect(answer.status, `${e.method} ${e.url}`).toBe(403);
    }
    // ... and lets them read.
    expect(
      (await call(server.baseUrl, "/api/v1/shoots", { headers: { authorization: `Bearer ${VIEWER}` } })).status,
    ).toBe(200);
  });

  it("leaves only the public ones open", async () => {
    expect((await call(server.baseUrl, "/healthz", { anonymous: true })).status).toBe(200);
    expect((await call(server.baseUrl, "/api/auth/get-session", { anonymous: true })).status).toBe(200);
    // The setup link's token is the credential: without a valid one, nothing is made.
    const setup = await call(server.baseUrl, "/api/v1/setup", {
      method: "POST",
      anonymous: true,
      headers: BODY,
      body: JSON.stringify({
        token: "setup_wrong",
        name: "Eve",
        email: "eve@example.com",
        password: "long enough password",
      }),
    });
    expect(setup.status).toBe(403);
  });
});

describe("the contracts", () => {
  it("answers 401 to anonymous GET /api/v1/shoots, PATCH of a shoot and POST .../maintain", async () => {
    const shoot = "/api/v1/namespaces/garden-dev/shoots/cluster-1";
    expect((await call(server.baseUrl, "/api/v1/shoots", { anonymous: true })).status).toBe(401);
    const patched = await call(server.baseUrl, shoot, {
      method: "PATCH",
      anonymous: true,
      headers: { "content-type": "application/merge-patch+json" },
      body: "{}",
    });
    expect(patched.status).toBe(401);
    expect((await call(server.baseUrl, `${shoot}/maintain`, { method: "POST", anonymous: true })).status).toBe(401);
  });

  it("takes ALMANAC_ADMIN_TOKEN as an admin on the API and on the pages", async () => {
    expect((await call(server.baseUrl, "/api/v1/shoots")).status).toBe(200);
    const me = await call(server.baseUrl, "/api/v1/me");
    expect(me.body).toMatchObject({ kind: "admin-token", bindings: [{ role: "admin", scope: "*" }] });
    const page = await call(server.baseUrl, "/shoots", { redirect: "manual" });
    expect(page.status).toBe(200);
    const anonymousPage = await call(server.baseUrl, "/shoots?status=unhealthy", {
      anonymous: true,
      redirect: "manual",
    });
    expect(anonymousPage.status).toBe(307);
    expect(anonymousPage.headers.get("location")).toMatch(/\/sign-in\?next=%2Fshoots%3Fstatus%3Dunhealthy$/);
  });
});
