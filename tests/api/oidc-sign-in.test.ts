// Sign-in with the company's identity, end to end over HTTP: Almanac against a stand-in OpenID
// provider (oauth2-mock-server, which speaks the protocol on the wire: discovery, JWKS, the
// authorization redirect with PKCE and nonce, the token endpoint, signed ID tokens). A first
// sign-in makes the account; groups bring roles through ALMANAC_GROUP_ROLES and follow every
// sign-in; an ID token that fails verification or a refusal at the issuer signs nobody in.
import { OAuth2Server } from "oauth2-mock-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedLandscape } from "../../lib/server/seed-landscape.ts";
import { call } from "../support/api-client.ts";
import { type AppServer, freePort, startNext } from "../support/app-server.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { smallLandscape } from "../support/small-landscape.ts";

const CLIENT_ID = "almanac";
const SHOOT = "/api/v1/namespaces/garden-dev/shoots/cluster-1";

interface Identity {
  sub: string;
  email: string;
  email_verified?: boolean;
  name?: string;
  groups?: unknown;
  /** Signs the ID token for another audience, as a token meant for another client would be. */
  audience?: string;
}

let issuer: OAuth2Server;
let database: TestDatabase;
let server: AppServer;
let base: string;
let identity: Identity;

beforeAll(async () => {
  issuer = new OAuth2Server();
  await issuer.issuer.keys.generate("RS256");
  await issuer.start(await freePort(), "127.0.0.1");
  issuer.service.on("beforeTokenSigning", (token: { payload: Record<string, unknown> }) => {
    const { audience, ...claims } = identity;
    Object.assign(token.payload, claims, audience ? { aud: audience } : {});
  });
  database = await createTestDatabase();
  await seedLandscape(database.db, smallLandscape(Date.now(), 2), { actor: "test", now: Date.now() });
  const port = await freePort();
  server = await startNext(
    database.url,
    {
      ALMANAC_PUBLIC_URL: `http://127.0.0.1:${port}`,
      ALMANAC_OIDC_ISSUER: issuer.issuer.url!,
      ALMANAC_OIDC_CLIENT_ID: CLIENT_ID,
      ALMANAC_OIDC_CLIENT_SECRET: "client-secret-of-almanac",
      ALMANAC_OIDC_NAME: "Acme SSO",
      ALMANAC_GROUP_ROLES: "fleet-operators=operator; dev-team=viewer:dev",
    },
    port,
  );
  base = server.baseUrl;
}, 90_000);
afterAll(async () => {
  await server?.stop();
  await database?.drop();
  await issuer?.stop();
});

/** The cookies a response sets, merged into `jar`. */
function keep(jar: Map<string, string>, response: Response): void {
  for (const cookie of response.headers.getSetCookie()) {
    const [pair] = cookie.split(";");
    const at = pair.indexOf("=");
    jar.set(pair.slice(0, at), pair.slice(at + 1));
  }
}
const cookieHeader = (jar: Map<string, string>) => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");

/**
 * What a browser does on "Sign in with Acme SSO": ask Almanac for the issuer's address, follow it
 * (the stand-in approves at once), and come back with the code. Answers where Almanac sent the
 * browser in the end, and the cookies it holds then.
 */
async function signInAs(who: Identity) {
  identity = who;
  const jar = new Map<string, string>();
  const start = await fetch(`${base}/api/auth/sign-in/social`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base },
    body: JSON.stringify({ provider: "oidc", callbackURL: "/shoots", errorCallbackURL: "/sign-in?failed=oidc" }),
  });
  expect(start.status).toBe(200);
  keep(jar, start);
  const { url } = (await start.json()) as { url: string };
  const authorization = new URL(url);
  expect(authorization.origin).toBe(new URL(issuer.issuer.url!).origin);
  expect(authorization.searchParams.get("code_challenge_method")).toBe("S256");
  expect(authorization.searchParams.get("nonce")).toBeTruthy();
  expect(authorization.searchParams.get("redirect_uri")).toBe(`${base}/api/auth/callback/oidc`);
  const approved = await fetch(authorization, { redirect: "manual" });
  const callback = approved.headers.get("location");
  expect(callback, await approved.text()).toMatch(new RegExp(`^${base}/api/auth/callback/oidc\\?`));
  const back = await fetch(callback!, { redirect: "manual", headers: { cookie: cookieHeader(jar) } });
  keep(jar, back);
  return { location: new URL(back.headers.get("location") ?? "", base), cookie: cookieHeader(jar) };
}

/** A merge patch of the shoot from the person's browser (their cookie, Almanac's own origin). */
const patchAs = (cookie: string, body: unknown) =>
  call(base, SHOOT, {
    method: "PATCH",
    anonymous: true,
    headers: { cookie, origin: base, "content-type": "application/merge-patch+json" },
    body: JSON.stringify(body),
  });
const me = (cookie: string) => call(base, "/api/v1/me", { anonymous: true, headers: { cookie } });
const auditOf = async (action: string) =>
  database.db.auditEvent.findMany({ where: { action }, orderBy: { id: "asc" } });

describe("sign-in with the company's identity", () => {
  it("is offered on the sign-in page by the configured name", async () => {
    const page = await fetch(`${base}/sign-in`);
    expect(await page.text()).toContain("Sign in with Acme SSO");
  });

  it("makes the account at the first sign-in, with the roles the groups bring", async () => {
    const { location, cookie } = await signInAs({
      sub: "u-1001",
      email: "olga@acme.example",
      name: "Olga Operator",
      groups: ["fleet-operators", "unmapped"],
    });
    expect(location.pathname).toBe("/shoots");
    const answer = await me(cookie);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      kind: "user",
      name: "Olga Operator",
      email: "olga@acme.example",
      groups: ["fleet-operators", "unmapped"],
      bindings: [{ role: "operator", scope: "*" }],
    });
    // An operator changes a cluster; the audit log names her.
    const before = await call(base, SHOOT, { anonymous: true, headers: { cookie } });
    const autoUpdate = before.body.spec.maintenance?.autoUpdate?.kubernetesVersion === true;
    const changed = await patchAs(cookie, {
      spec: { maintenance: { autoUpdate: { kubernetesVersion: !autoUpdate } } },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    const [event] = (await auditOf("shoot.update")).slice(-1);
    expect(event.actor).toBe("olga@acme.example");
    expect((await auditOf("auth.sign-in")).map((e) => e.actor)).toContain("olga@acme.example");
    const [made] = (await auditOf("account.create")).filter((e) => e.actor === "olga@acme.example");
    expect(made.changes).toEqual([
      { field: "name", before: null, after: "Olga Operator" },
      { field: "signed in by", before: null, after: "company sign-in" },
    ]);
  });

  it("renews the groups, and the roles they bring, at every sign-in", async () => {
    const first = await signInAs({ sub: "u-1002", email: "dev@acme.example", groups: "dev-team" });
    expect((await me(first.cookie)).body.bindings).toEqual([{ role: "viewer", scope: "dev", namespace: "garden-dev" }]);
    const shoot = await call(base, SHOOT, { anonymous: true, headers: { cookie: first.cookie } });
    expect(shoot.status).toBe(200);
    const refused = await patchAs(first.cookie, { spec: { hibernation: { enabled: true } } });
    expect(refused.status).toBe(403);

    // Left the team at the company: the next sign-in brings no role.
    const again = await signInAs({ sub: "u-1002", email: "dev@acme.example", groups: [] });
    const answer = await me(again.cookie);
    expect(answer.body).toMatchObject({ groups: [], bindings: [] });
    expect((await call(base, SHOOT, { anonymous: true, headers: { cookie: again.cookie } })).status).toBe(403);
    expect(await database.db.user.count({ where: { email: "dev@acme.example" } })).toBe(1);
  });

  it("keeps the roles an admin granted the person, beside those of their groups", async () => {
    const { cookie } = await signInAs({ sub: "u-1003", email: "vera@acme.example", groups: ["dev-team"] });
    const { id } = await database.db.user.findUniqueOrThrow({ where: { email: "vera@acme.example" } });
    const granted = await call(base, `/api/v1/accounts/${id}/roles`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ bindings: [{ role: "admin", scope: "*" }] }),
    });
    expect(granted.status, JSON.stringify(granted.body)).toBe(200);
    expect((await me(cookie)).body.bindings).toEqual(
      expect.arrayContaining([
        { role: "admin", scope: "*" },
        { role: "viewer", scope: "dev", namespace: "garden-dev" },
      ]),
    );
    // The accounts page tells the two apart: granted here, and brought by a group.
    const accounts = await call(base, "/api/v1/accounts");
    expect(accounts.body.items.find((a: { email: string }) => a.email === "vera@acme.example")).toMatchObject({
      bindings: [{ role: "admin", scope: "*" }],
      groups: ["dev-team"],
      groupBindings: [{ role: "viewer", scope: "dev" }],
    });
  });

  it("joins an Almanac account of the same email only when the issuer vouches for the address", async () => {
    const made = await call(base, "/api/v1/accounts", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        name: "Ada",
        email: "ada@acme.example",
        password: "a long enough password",
        role: "admin",
        scope: "*",
      }),
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const unverified = await signInAs({ sub: "u-1005", email: "ada@acme.example" });
    expect(unverified.location.pathname).toBe("/sign-in");
    expect(unverified.location.searchParams.get("error")).toBe("account_not_linked");
    const page = await (await fetch(unverified.location)).text();
    expect(page).toContain("the issuer does not vouch for the address");

    const verified = await signInAs({
      sub: "u-1005",
      email: "ada@acme.example",
      email_verified: true,
      groups: ["dev-team"],
    });
    expect(verified.location.pathname).toBe("/shoots");
    expect((await me(verified.cookie)).body).toMatchObject({
      email: "ada@acme.example",
      groups: ["dev-team"],
      bindings: [{ role: "admin" }, { role: "viewer", scope: "dev" }],
    });
    expect(await database.db.user.count({ where: { email: "ada@acme.example" } })).toBe(1);
    const links = (await auditOf("account.link")).filter((e) => e.actor === "ada@acme.example");
    expect(links.map((e) => e.changes)).toEqual([[{ field: "company identity", before: null, after: "u-1005" }]]);

    // Signing in with the password drops the groups: they were the issuer's word, and may be stale.
    const withPassword = await fetch(`${base}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: base },
      body: JSON.stringify({ email: "ada@acme.example", password: "a long enough password" }),
    });
    expect(withPassword.status).toBe(200);
    const cookie = withPassword.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    expect((await me(cookie)).body).toMatchObject({ groups: [], bindings: [{ role: "admin", scope: "*" }] });
  });

  // (Changing one's own password is offered since issue 25; tests/api/sign-in-security.test.ts.)
  it("takes no bare ID token, and offers none of better-auth's other paths", async () => {
    const bare = await fetch(`${base}/api/auth/sign-in/social`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: base },
      body: JSON.stringify({ provider: "oidc", idToken: { token: "eyJhbGciOiJub25lIn0.e30." } }),
    });
    expect(bare.status).toBe(400);
    expect(bare.headers.getSetCookie()).toEqual([]);
    for (const [method, path] of [
      ["POST", "/api/auth/update-user"],
      ["POST", "/api/auth/change-email"],
      ["POST", "/api/auth/reset-password"],
      ["GET", "/api/auth/list-accounts"],
      ["POST", "/api/auth/get-access-token"],
      ["POST", "/api/auth/link-social"],
      ["GET", "/api/auth/callback/other"],
    ]) {
      const response = await fetch(`${base}${path}`, { method, headers: { origin: base } });
      expect(response.status, `${method} ${path}`).toBe(404);
    }
  });

  it("sends nobody back to another site, whatever host the request names", async () => {
    const response = await fetch(`${base}/api/auth/sign-in/social`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-host": "evil.example" },
      body: JSON.stringify({
        provider: "oidc",
        callbackURL: "/shoots",
        errorCallbackURL: "https://evil.example/phish",
      }),
    });
    expect(response.status).toBe(403);
    const page = await (await fetch(`${base}/sign-in?failed=oidc&error=Call+0800+now`)).text();
    expect(page).not.toContain("Call 0800 now");
    expect(page).toContain("failed. Try again, or ask an admin.");
  });

  it("signs nobody in when the ID token was made for another client", async () => {
    const users = await database.db.user.count();
    const { location, cookie } = await signInAs({ sub: "u-666", email: "mallory@acme.example", audience: "other-app" });
    expect(location.pathname).toBe("/sign-in");
    expect(location.searchParams.get("failed")).toBe("oidc");
    expect(location.searchParams.get("error")).toBeTruthy();
    expect((await me(cookie)).status).toBe(401);
    expect(await database.db.user.count()).toBe(users);
    expect((await auditOf("auth.sign-in-failed")).length).toBeGreaterThan(0);
  });

  it("signs nobody in when the issuer refuses", async () => {
    // The person cancels at the issuer: it sends the browser back with an error and no code.
    issuer.service.once("beforeAuthorizeRedirect", (redirect: { url: URL }) => {
      redirect.url.searchParams.delete("code");
      redirect.url.searchParams.set("error", "access_denied");
    });
    const { location, cookie } = await signInAs({ sub: "u-1004", email: "nora@acme.example" });
    expect(location.pathname).toBe("/sign-in");
    expect(location.searchParams.get("error")).toBe("access_denied");
    expect((await me(cookie)).status).toBe(401);
  });
});
