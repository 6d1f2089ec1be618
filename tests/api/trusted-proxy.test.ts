// Signing in through a trusted reverse proxy, over HTTP through `npm start`'s web server
// (scripts/web-worker.mjs, which alone sees the TCP peer): the proxy's user header is believed
// only when ALMANAC_TRUSTED_PROXY_ADDRESSES is set and lists the peer; the person's roles are
// their own and their groups'; a client's copy of the internal header is never believed; and a
// bearer token still wins. A malformed setting stops `npm start` before it serves.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROXY_GROUPS_HEADER, PROXY_USER_HEADER } from "../../lib/auth/proxy-headers.ts";
import { seedLandscape } from "../../lib/server/seed-landscape.ts";
import { call } from "../support/api-client.ts";
import { type AppServer, startNext, startWebServer } from "../support/app-server.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { smallLandscape } from "../support/small-landscape.ts";

const GROUP_ROLES = "almanac-viewers=viewer; almanac-operators=operator";
const SHOOT = "/api/v1/namespaces/garden-dev/shoots/cluster-1";
const WINDOW = { spec: { maintenance: { timeWindow: { begin: "030000+0200", end: "040000+0200" } } } };

let database: TestDatabase;
/** Believes the proxy on this machine (127.0.0.1, which a dual-stack socket sees as ::ffff:127.0.0.1, and ::1). */
let trusting: AppServer;
/** Without the setting: the feature is off. */
let off: AppServer;
/** Believes only 10.9.9.9, which these requests never come from. */
let elsewhere: AppServer;
/** `next start` with the setting but without the web server's guard in front. */
let unguarded: AppServer;

beforeAll(async () => {
  database = await createTestDatabase();
  const now = Date.now();
  await seedLandscape(database.db, smallLandscape(now, 3), { actor: "test", now });
  const proxied = (addresses: string) => ({
    ALMANAC_TRUSTED_PROXY_ADDRESSES: addresses,
    ALMANAC_GROUP_ROLES: GROUP_ROLES,
  });
  [trusting, off, elsewhere, unguarded] = await Promise.all([
    startWebServer(database.url, proxied("127.0.0.1/32, ::1")),
    startWebServer(database.url, proxied("")),
    startWebServer(database.url, proxied("10.9.9.9/32")),
    startNext(database.url, proxied("127.0.0.1/32, ::1")),
  ]);
});
afterAll(async () => {
  await Promise.all([trusting, off, elsewhere, unguarded].map((s) => s?.stop()));
  await database?.drop();
});

/** A request as the proxy would send it, without any credential of Almanac's own. */
const asProxied = (server: AppServer, path: string, headers: Record<string, string>, init: RequestInit = {}) =>
  call(server.baseUrl, path, { ...init, anonymous: true, headers: { ...headers, ...(init.headers ?? {}) } });
const viewer = { "x-remote-user": "alice@example.com", "x-remote-group": "almanac-viewers" };
const operator = { "x-remote-user": "alice@example.com", "x-remote-group": "staff, almanac-operators" };

describe("a trusted proxy's user header", () => {
  it("signs the person in with their groups' roles: a viewer reads and may not change", async () => {
    const list = await asProxied(trusting, "/api/v1/shoots", viewer);
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    expect(list.body.total).toBe(3);

    const changed = await asProxied(trusting, SHOOT, viewer, {
      method: "PATCH",
      headers: { "content-type": "application/merge-patch+json" },
      body: JSON.stringify(WINDOW),
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(403);
    expect(changed.body.detail).toContain("You have the role viewer");
  });

  it("gives a person without a group or a role of their own 403", async () => {
    const list = await asProxied(trusting, "/api/v1/shoots", { "x-remote-user": "bob@example.com" });
    expect(list.status).toBe(403);
    expect(list.body.detail).toContain("You have no role");
  });

  it("names the person in the audit log for a change they make as an operator", async () => {
    const changed = await asProxied(trusting, SHOOT, operator, {
      method: "PATCH",
      headers: { "content-type": "application/merge-patch+json", "x-request-id": "proxy-change-1" },
      body: JSON.stringify(WINDOW),
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    const audit = await call(trusting.baseUrl, "/api/v1/audit?action=shoot.update");
    expect(audit.body.items).toContainEqual(
      expect.objectContaining({ actor: "alice@example.com", requestId: "proxy-change-1" }),
    );
  });

  it("shows the person at /api/v1/me, signed in by the proxy, by email in any case, with their groups", async () => {
    const me = await asProxied(trusting, "/api/v1/me", { ...viewer, "x-remote-user": "Alice@Example.COM" });
    expect(me.status).toBe(200);
    expect(me.body).toEqual({
      kind: "user",
      name: "alice@example.com",
      email: "alice@example.com",
      groups: ["almanac-viewers"],
      via: "proxy",
      actor: "alice@example.com",
      bindings: [{ role: "viewer", scope: "*" }],
    });
  });

  it("makes an account on first sight, once, to which an admin grants roles", async () => {
    const first = await Promise.all(
      [1, 2, 3].map(() => asProxied(trusting, "/api/v1/me", { "x-remote-user": "carol" })),
    );
    expect(first.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(await database.db.user.count({ where: { email: "carol" } })).toBe(1);
    expect(await database.db.auditEvent.count({ where: { action: "account.create", targetName: "carol" } })).toBe(1);

    const accounts = await call(trusting.baseUrl, "/api/v1/accounts");
    const carol = accounts.body.items.find((a: { email: string }) => a.email === "carol");
    expect(carol).toMatchObject({ name: "carol", bindings: [] });
    const granted = await call(trusting.baseUrl, `/api/v1/accounts/${carol.id}/roles`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ bindings: [{ role: "viewer", scope: "dev" }] }),
    });
    expect(granted.status, JSON.stringify(granted.body)).toBe(200);
    // Her own role and her group's, together.
    const me = await asProxied(trusting, "/api/v1/me", {
      "x-remote-user": "carol",
      "x-remote-group": "almanac-operators",
    });
    expect(me.body.bindings).toEqual([
      { role: "viewer", scope: "dev", namespace: "garden-dev" },
      { role: "operator", scope: "*" },
    ]);
    const read = await asProxied(trusting, SHOOT, { "x-remote-user": "carol" });
    expect(read.status).toBe(200);
  });

  it("is believed from ::1 too", async () => {
    const url = trusting.baseUrl.replace("127.0.0.1", "[::1]");
    const me = await fetch(`${url}/api/v1/me`, { headers: viewer });
    expect(me.status).toBe(200);
    expect((await me.json()).email).toBe("alice@example.com");
  });

  it("lets a bearer token win, and refuses a wrong one rather than fall back to the proxy's person", async () => {
    const me = await call(trusting.baseUrl, "/api/v1/me", { headers: viewer });
    expect(me.body).toMatchObject({ kind: "admin-token" });
    const wrong = await asProxied(trusting, "/api/v1/me", { ...viewer, authorization: "Bearer not-a-token" });
    expect(wrong.status).toBe(401);
  });

  it("ignores a cookie that is no session (the proxy's own, say)", async () => {
    const me = await asProxied(trusting, "/api/v1/me", {
      ...viewer,
      cookie: "_oauth2_proxy=abc; almanac.session_token=x",
    });
    expect(me.status).toBe(200);
    expect(me.body.via).toBe("proxy");
  });

  it("signs the person in on the pages, where only the proxy can sign them out", async () => {
    const page = await fetch(`${trusting.baseUrl}/audit`, { headers: viewer, redirect: "manual" });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Signed in by proxy");
    expect(html).not.toContain("Sign out");
  });
});

describe("the user header is not believed", () => {
  it("while the feature is off", async () => {
    const list = await asProxied(off, "/api/v1/shoots", viewer);
    expect(list.status).toBe(401);
    const page = await fetch(`${off.baseUrl}/audit`, { headers: viewer, redirect: "manual" });
    expect(page.status).toBe(307);
    expect(page.headers.get("location")).toContain("/sign-in?next=%2Faudit");
  });

  it("from an address that is not listed", async () => {
    expect((await asProxied(elsewhere, "/api/v1/shoots", viewer)).status).toBe(401);
    expect((await asProxied(elsewhere, "/api/v1/me", viewer)).status).toBe(401);
  });

  it("nor a client's own internal header, from any address, with the feature on or off", async () => {
    const forged = { [PROXY_USER_HEADER]: "alice@example.com", [PROXY_GROUPS_HEADER]: "almanac-operators" };
    for (const server of [trusting, off, elsewhere]) {
      expect((await asProxied(server, "/api/v1/shoots", forged)).status).toBe(401);
    }
    // With a real user header beside it, the forged one changes nothing: bob has no role.
    const beside = await asProxied(trusting, "/api/v1/me", { ...forged, "x-remote-user": "bob@example.com" });
    expect(beside.body).toMatchObject({ email: "bob@example.com", bindings: [] });
  });

  it("where no web server guards the headers (`next start` with the setting)", async () => {
    const forged = { [PROXY_USER_HEADER]: "alice@example.com", [PROXY_GROUPS_HEADER]: "almanac-operators" };
    expect((await asProxied(unguarded, "/api/v1/shoots", forged)).status).toBe(401);
    expect((await asProxied(unguarded, "/api/v1/shoots", viewer)).status).toBe(401);
  });
});

describe("a malformed setting", () => {
  it("stops npm start with the variable and the entry named", () => {
    const result = spawnSync(process.execPath, [path.join(import.meta.dirname, "../../scripts/start.mjs")], {
      env: { ...process.env, ALMANAC_TRUSTED_PROXY_ADDRESSES: "10.0.0.1, 10.0.0.0/40", DATABASE_URL: "" },
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(
      'Almanac cannot start: ALMANAC_TRUSTED_PROXY_ADDRESSES is "10.0.0.1, 10.0.0.0/40" (entry "10.0.0.0/40": the prefix length must be a number from 1 to 32)',
    );
  });
});
