// Accounts and API tokens over HTTP, as an admin manages them: accounts made with a role, roles
// replaced, the last landscape-wide admin kept, a deleted account's sessions ended at once; tokens
// made (the value answered once, never stored or audited), used, and revoked with immediate effect.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedLandscape } from "../../lib/server/seed-landscape.ts";
import { call } from "../support/api-client.ts";
import { type AppServer, startNext } from "../support/app-server.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { smallLandscape } from "../support/small-landscape.ts";
import { tokenHeader } from "../support/tokens.ts";

let database: TestDatabase;
let server: AppServer;
let base: string;
const PASSWORD = "a long enough password";

beforeAll(async () => {
  database = await createTestDatabase();
  await seedLandscape(database.db, smallLandscape(Date.now(), 2), { actor: "test", now: Date.now() });
  server = await startNext(database.url);
  base = server.baseUrl;
});
afterAll(async () => {
  await server?.stop();
  await database?.drop();
});

const JSON_BODY = { "content-type": "application/json" };
/** As the admin token, or as the person whose session `headers.cookie` carries. */
const send = (method: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
  call(base, path, {
    method,
    anonymous: "cookie" in headers,
    headers: { ...JSON_BODY, ...headers },
    body: JSON.stringify(body),
  });
const createAccount = (email: string, role = "operator", scope = "*", headers: Record<string, string> = {}) =>
  send("POST", "/api/v1/accounts", { name: email.split("@")[0], email, password: PASSWORD, role, scope }, headers);

/** Signs in as a person and answers their session cookie. */
async function signIn(email: string): Promise<string> {
  const response = await fetch(`${base}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { ...JSON_BODY, origin: base },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  expect(response.status).toBe(200);
  return response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

/** The whole audit log and the server's output, to look for secrets in. */
const auditText = async () =>
  JSON.stringify(await database.db.auditEvent.findMany(), (_, v) => (typeof v === "bigint" ? String(v) : v)) +
  server.output();

describe("accounts", () => {
  it("are made with a role, listed, and refused for a taken email or an unknown project", async () => {
    const made = await createAccount("Olga@Example.com", "operator", "dev", { "x-request-id": "make-olga" });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toMatchObject({
      name: "Olga",
      email: "olga@example.com",
      bindings: [{ role: "operator", scope: "dev" }],
    });
    expect(JSON.stringify(made.body)).not.toContain(PASSWORD);

    const list = await call(base, "/api/v1/accounts");
    expect(list.status).toBe(200);
    expect(list.body.items).toContainEqual(
      expect.objectContaining({ email: "olga@example.com", bindings: [{ role: "operator", scope: "dev" }] }),
    );

    const again = await createAccount("olga@example.com");
    expect(again.status).toBe(409);
    expect(again.body.errors).toEqual([expect.objectContaining({ field: "email" })]);

    const unknown = await createAccount("nobody@example.com", "viewer", "no-such-project");
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors).toEqual([expect.objectContaining({ field: "scope", type: "NotFound" })]);

    const short = await send("POST", "/api/v1/accounts", {
      name: "Short",
      email: "short@example.com",
      password: "too short",
      role: "viewer",
      scope: "*",
    });
    expect(short.status).toBe(400);
    expect(short.body.errors).toEqual([expect.objectContaining({ field: "password" })]);
    expect(JSON.stringify(short.body)).not.toContain("too short");

    const event = await database.db.auditEvent.findFirst({
      where: { action: "account.create", requestId: "make-olga" },
    });
    expect(event).toMatchObject({ actor: "admin-token", targetKind: "Account", targetName: "olga@example.com" });
    expect(event?.changes).toContainEqual({ field: "role[dev]", before: null, after: "operator" });
    expect(await auditText()).not.toContain(PASSWORD);
  });

  it("have their roles replaced, audited before and after", async () => {
    const { body: account } = await createAccount("rolf@example.com", "viewer", "*");
    const changed = await send(
      "PUT",
      `/api/v1/accounts/${account.id}/roles`,
      {
        bindings: [
          { role: "operator", scope: "dev" },
          { role: "viewer", scope: "*" },
        ],
      },
      { "x-request-id": "roles-rolf" },
    );
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.bindings).toEqual([
      { role: "viewer", scope: "*" },
      { role: "operator", scope: "dev" },
    ]);
    const event = await database.db.auditEvent.findFirst({ where: { action: "role.change", requestId: "roles-rolf" } });
    expect(event).toMatchObject({ actor: "admin-token", targetName: "rolf@example.com" });
    expect(event?.changes).toEqual([{ field: "role[dev]", before: null, after: "operator" }]);

    const twice = await send("PUT", `/api/v1/accounts/${account.id}/roles`, {
      bindings: [
        { role: "operator", scope: "dev" },
        { role: "admin", scope: "dev" },
      ],
    });
    expect(twice.status).toBe(400);
    const unknown = await send("PUT", `/api/v1/accounts/${account.id}/roles`, {
      bindings: [{ role: "viewer", scope: "elsewhere" }],
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors).toEqual([expect.objectContaining({ field: "bindings[0].scope" })]);
    expect((await send("PUT", "/api/v1/accounts/nobody/roles", { bindings: [] })).status).toBe(404);
  });

  it("keep the last landscape-wide admin, and an admin cannot delete themself", async () => {
    // Two admins: the first may lose the role, the second then may not.
    const { body: first } = await createAccount("first-admin@example.com", "admin", "*");
    const { body: second } = await createAccount("second-admin@example.com", "admin", "*");
    const cookie = await signIn("second-admin@example.com");
    const asSecond = { cookie, origin: base };

    expect((await send("PUT", `/api/v1/accounts/${first.id}/roles`, { bindings: [] }, asSecond)).status).toBe(200);
    const last = await send(
      "PUT",
      `/api/v1/accounts/${second.id}/roles`,
      { bindings: [{ role: "operator", scope: "*" }] },
      asSecond,
    );
    expect(last.status).toBe(409);
    expect(last.body).toMatchObject({ reason: "LastLandscapeAdmin" });
    expect(last.body.detail).toMatch(/last person with the admin role on the whole landscape/);
    // Admin on a project only does not count.
    const projectOnly = await send("PUT", `/api/v1/accounts/${second.id}/roles`, {
      bindings: [{ role: "admin", scope: "dev" }],
    });
    expect(projectOnly.status).toBe(409);

    const deleteLast = await call(base, `/api/v1/accounts/${second.id}`, { method: "DELETE" });
    expect(deleteLast.status).toBe(409);
    expect(deleteLast.body.reason).toBe("LastLandscapeAdmin");
    const deleteSelf = await call(base, `/api/v1/accounts/${second.id}`, {
      method: "DELETE",
      anonymous: true,
      headers: asSecond,
    });
    expect(deleteSelf.status).toBe(409);
    expect(deleteSelf.body.detail).toMatch(/your own account/);
    expect((await call(base, "/api/v1/me", { anonymous: true, headers: asSecond })).status).toBe(200);
  });

  it("are deleted with their sessions: the signed-in browser is refused at once", async () => {
    const { body: account } = await createAccount("leaving@example.com", "viewer", "*");
    const cookie = await signIn("leaving@example.com");
    const asThem = { anonymous: true, headers: { cookie } };
    expect((await call(base, "/api/v1/shoots", asThem)).status).toBe(200);

    const deleted = await call(base, `/api/v1/accounts/${account.id}`, {
      method: "DELETE",
      headers: { "x-request-id": "delete-leaving" },
    });
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    expect(await database.db.session.count({ where: { userId: account.id } })).toBe(0);
    expect((await call(base, "/api/v1/shoots", asThem)).status).toBe(401);
    expect((await call(base, `/api/v1/accounts/${account.id}`, { method: "DELETE" })).status).toBe(404);
    const event = await database.db.auditEvent.findFirst({
      where: { action: "account.delete", requestId: "delete-leaving" },
    });
    expect(event?.changes).toContainEqual({ field: "role[*]", before: "viewer", after: null });
  });
});

describe("API tokens", () => {
  it("answer the value once; it works as a Bearer token until revoked, then 401 at once", async () => {
    const made = await send(
      "POST",
      "/api/v1/tokens",
      { name: "ci-reader", role: "viewer", scope: "*", expiresInDays: 30 },
      { "x-request-id": "make-ci-reader" },
    );
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.headers.get("cache-control")).toBe("no-store");
    const value: string = made.body.value;
    expect(value).toMatch(/^almanac_[\w-]{40,}$/);
    expect(made.body).toMatchObject({
      name: "ci-reader",
      role: "viewer",
      scope: "*",
      createdBy: "admin-token",
      revoked: null,
    });
    const days = (Date.parse(made.body.expires) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThan(30.1);

    const bearer = { authorization: `Bearer ${value}` };
    expect((await call(base, "/api/v1/shoots", { headers: bearer })).status).toBe(200);
    expect((await call(base, "/api/v1/tokens", { headers: bearer })).status).toBe(403);

    const list = await call(base, "/api/v1/tokens");
    expect(list.status).toBe(200);
    const listed = list.body.items.find((t: { name: string }) => t.name === "ci-reader");
    expect(listed).toMatchObject({ id: made.body.id, role: "viewer", revoked: null });
    expect(listed.lastUsed).not.toBeNull();
    expect(JSON.stringify(list.body)).not.toContain(value);

    const revoked = await call(base, `/api/v1/tokens/${made.body.id}`, {
      method: "DELETE",
      headers: { "x-request-id": "revoke-ci-reader" },
    });
    expect(revoked.status).toBe(200);
    expect(revoked.body.revoked).not.toBeNull();
    const after = await call(base, "/api/v1/shoots", { headers: bearer });
    expect(after.status).toBe(401);
    expect(after.body.detail).not.toContain(value);

    // Again is fine, and audited once; an unknown id is 404.
    expect((await call(base, `/api/v1/tokens/${made.body.id}`, { method: "DELETE" })).status).toBe(200);
    expect(await database.db.auditEvent.count({ where: { action: "token.revoke", targetName: "ci-reader" } })).toBe(1);
    expect((await call(base, "/api/v1/tokens/00000000-0000-4000-8000-000000000000", { method: "DELETE" })).status).toBe(
      404,
    );
    expect((await call(base, "/api/v1/tokens/not-an-id", { method: "DELETE" })).status).toBe(404);

    const create = await database.db.auditEvent.findFirst({
      where: { action: "token.create", requestId: "make-ci-reader" },
    });
    expect(create).toMatchObject({ actor: "admin-token", targetKind: "ApiToken", targetName: "ci-reader" });
    expect(create?.changes).toContainEqual({ field: "role[*]", before: null, after: "viewer" });
    expect(
      await database.db.auditEvent.count({ where: { action: "token.revoke", requestId: "revoke-ci-reader" } }),
    ).toBe(1);
    const audit = await auditText();
    expect(audit).not.toContain(value);
    expect(audit).not.toContain(value.slice("almanac_".length));
    // Only the hash is stored.
    expect(JSON.stringify(await database.db.apiToken.findMany())).not.toContain(value);
  });

  it("refuse a taken name, a bad name, an unknown project and a bad expiry; never expiring is null", async () => {
    const body = { name: "deployer", role: "operator", scope: "dev", expiresInDays: null };
    const made = await send("POST", "/api/v1/tokens", body);
    expect(made.status).toBe(201);
    expect(made.body.expires).toBeNull();
    const taken = await send("POST", "/api/v1/tokens", body);
    expect(taken.status).toBe(409);
    expect(taken.body.errors).toEqual([expect.objectContaining({ field: "name" })]);
    const bad = await send("POST", "/api/v1/tokens", { ...body, name: "Not OK", expiresInDays: 366 });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(["expiresInDays", "name"]);
    const unknown = await send("POST", "/api/v1/tokens", { ...body, name: "other", scope: "nope" });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors).toEqual([expect.objectContaining({ field: "scope" })]);
  });

  it("and accounts are for admins only: a landscape viewer gets 403 on every one of these", async () => {
    const viewer = await tokenHeader(database.db, "just-a-viewer", "viewer");
    const projectAdmin = await tokenHeader(database.db, "project-admin", "admin", "dev");
    for (const headers of [viewer, projectAdmin]) {
      expect((await call(base, "/api/v1/accounts", { headers })).status).toBe(403);
      expect((await call(base, "/api/v1/tokens", { headers })).status).toBe(403);
      expect((await createAccount("sneaky@example.com", "admin", "*", headers)).status).toBe(403);
      expect(
        (
          await send(
            "POST",
            "/api/v1/tokens",
            { name: "sneaky", role: "admin", scope: "*", expiresInDays: null },
            headers,
          )
        ).status,
      ).toBe(403);
      expect((await send("PUT", "/api/v1/accounts/x/roles", { bindings: [] }, headers)).status).toBe(403);
      expect((await call(base, "/api/v1/accounts/x", { method: "DELETE", headers })).status).toBe(403);
      expect((await call(base, "/api/v1/tokens/x", { method: "DELETE", headers })).status).toBe(403);
    }
  });
});
