// The outside probe's findings on signing in, over HTTP through `npm start`'s web server
// (scripts/web-worker.mjs, which alone sees the TCP peer): the ten-a-minute limit holds whatever
// X-Forwarded-For a client sends, and follows a trusted proxy's; failures at one account make the
// next try wait longer without locking its owner out; bodies are capped before parsing; the
// audit log records what was typed only when it is an email address, and repeated failures as
// one row per ten; a person changes their own password, which signs their other sessions out;
// answers with personal data are not cached; sessions end at their absolute lifetime; HSTS over
// https; sign-in never sends anyone to another site.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPasswordAccount } from "../../lib/auth/create-account.ts";
import { seedLandscape } from "../../lib/server/seed-landscape.ts";
import { call } from "../support/api-client.ts";
import { type AppServer, startWebServer } from "../support/app-server.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { smallLandscape } from "../support/small-landscape.ts";

const PASSWORD = "a long enough password";
const JSON_BODY = { "content-type": "application/json" };

let database: TestDatabase;
/** Believes no proxy: the client is the TCP peer. */
let plain: AppServer;
/** Believes this machine as a proxy, so X-Forwarded-For names the client. */
let proxied: AppServer;
/** Served over https, as its public URL says. */
let https: AppServer;

beforeAll(async () => {
  database = await createTestDatabase();
  await seedLandscape(database.db, smallLandscape(Date.now(), 2), { actor: "test", now: Date.now() });
  for (const email of ["owner@example.com", "changer@example.com", "old@example.com", "spread@example.com"])
    await createPasswordAccount(database.db, { name: email.split("@")[0], email, password: PASSWORD });
  [plain, proxied, https] = await Promise.all([
    startWebServer(database.url),
    startWebServer(database.url, { ALMANAC_TRUSTED_PROXY_ADDRESSES: "127.0.0.1/32, ::1" }),
    startWebServer(database.url, { ALMANAC_PUBLIC_URL: "https://almanac.example" }),
  ]);
});
afterAll(async () => {
  await Promise.all([plain, proxied, https].map((s) => s?.stop()));
  await database?.drop();
});

/** A password sign-in at `server`, as a browser on its pages sends it. */
const signIn = (server: AppServer, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  call(server.baseUrl, "/api/auth/sign-in/email", {
    method: "POST",
    anonymous: true,
    headers: { ...JSON_BODY, origin: server.baseUrl, ...headers },
    body: JSON.stringify(body),
  });

const cookieOf = (response: { headers: Headers }) =>
  response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");

const auditOf = (actor: string) =>
  database.db.auditEvent.findMany({ where: { action: "auth.sign-in-failed", actor }, orderBy: { id: "asc" } });

describe("the sign-in limit per client address", () => {
  it("holds at ten tries a minute whatever X-Forwarded-For a client sends", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      // A new account and a new forwarded address per try: neither gives a new bucket.
      const answer = await signIn(
        plain,
        { email: `guess-${i}@example.com`, password: "not the password" },
        { "x-forwarded-for": `198.51.100.${i + 1}`, "x-almanac-client-address": `192.0.2.${i + 1}` },
      );
      statuses.push(answer.status);
    }
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(10)).toEqual([429, 429]);
  });

  it("follows a trusted proxy's X-Forwarded-For: each client has its own ten", async () => {
    const client = (n: number) => ({ "x-forwarded-for": `203.0.113.${n}` });
    for (let i = 0; i < 10; i++) {
      const answer = await signIn(proxied, { email: `spray-${i}@example.com`, password: "nope nope nope" }, client(1));
      expect(answer.status).toBe(401);
    }
    expect(
      (await signIn(proxied, { email: "spray-x@example.com", password: "nope nope nope" }, client(1))).status,
    ).toBe(429);
    // Another client behind the same proxy is not held back by the first.
    expect((await signIn(proxied, { email: "owner@example.com", password: PASSWORD }, client(2))).status).toBe(200);
  });
});

describe("failed sign-ins at one account", () => {
  it("make the next try from that address wait longer, without locking out the owner elsewhere", async () => {
    const stranger = { "x-forwarded-for": "203.0.113.50" };
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++)
      statuses.push(
        (await signIn(proxied, { email: "owner@example.com", password: `guess number ${i}` }, stranger)).status,
      );
    // Three free failures, the fourth counted too; then the next try must wait (a growing delay).
    expect(statuses.slice(0, 4)).toEqual([401, 401, 401, 401]);
    expect(statuses[4]).toBe(429);
    const waiting = await signIn(proxied, { email: "owner@example.com", password: PASSWORD }, stranger);
    expect(waiting.status).toBe(429);
    expect(Number(waiting.headers.get("retry-after"))).toBeGreaterThan(0);
    // The owner, at their own address, gets in at once.
    const owner = await signIn(
      proxied,
      { email: "owner@example.com", password: PASSWORD },
      { "x-forwarded-for": "203.0.113.60" },
    );
    expect(owner.status).toBe(200);
  });
});

describe("failed sign-ins at one account from many addresses", () => {
  it("slow the strangers down, never the owner at an address that has not failed", async () => {
    const statuses: number[] = [];
    // 22 failures at the account, one from each address: past the account's free 20, while no
    // address reaches its own delay.
    for (let n = 0; n < 22; n++)
      statuses.push(
        (
          await signIn(
            proxied,
            { email: "spread@example.com", password: `guess ${n}` },
            { "x-forwarded-for": `198.18.0.${n + 1}` },
          )
        ).status,
      );
    expect(statuses).toEqual(Array(22).fill(401));
    // A stranger's address that failed before now waits for the account's delay...
    const stranger = await signIn(
      proxied,
      { email: "spread@example.com", password: "guess again" },
      { "x-forwarded-for": "198.18.0.1" },
    );
    expect(stranger.status).toBe(429);
    // ...and the owner, from their own address, is checked at once.
    const owner = await signIn(
      proxied,
      { email: "spread@example.com", password: PASSWORD },
      { "x-forwarded-for": "198.18.0.200" },
    );
    expect(owner.status).toBe(200);
  });
});

describe("bodies", () => {
  it("larger than any Almanac reads are refused with 413 before they are read", async () => {
    const declared = await rawPost(plain, "/api/auth/sign-in/email", 200 * 1024 * 1024);
    expect(declared).toMatch(/^HTTP\/1\.1 413/);
  });

  it("of /api/auth/* without a declared length are read only up to 16 KiB (413)", async () => {
    const chunk = new TextEncoder().encode(`{"email":"${"a".repeat(64 * 1024)}@example.com","password":"x"}`);
    const response = await fetch(`${plain.baseUrl}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { ...JSON_BODY, origin: plain.baseUrl },
      body: new ReadableStream({
        start(controller) {
          controller.enqueue(chunk);
          controller.close();
        },
      }),
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(413);
  });
});

describe("the audit log of failed sign-ins", () => {
  it("records what is no email address as (invalid), never the text typed", async () => {
    const typed = "evil\r\n<script>=HYPERLINK(1)\u202e@x";
    expect(
      (await signIn(proxied, { email: typed, password: "whatever it is" }, { "x-forwarded-for": "203.0.113.70" }))
        .status,
    ).toBe(400);
    const events = await database.db.auditEvent.findMany({ where: { action: "auth.sign-in-failed" } });
    expect(events.some((e) => e.actor.includes("evil") || /[\r\n\u202e]/.test(e.actor))).toBe(false);
    expect((await auditOf("(invalid)")).length).toBeGreaterThan(0);
  });

  it("aggregates repeated failures: one row for the first, then one per ten with the count", async () => {
    for (let i = 0; i < 12; i++) {
      const answer = await signIn(
        proxied,
        { email: "nobody-here@example.com", password: "wrong wrong wrong" },
        { "x-forwarded-for": `203.0.113.${100 + i}` },
      );
      expect(answer.status).toBe(401);
    }
    const rows = await auditOf("nobody-here@example.com");
    expect(rows.map((r) => r.changes)).toEqual([[], [{ field: "failures in the last hour", before: null, after: 10 }]]);
  });
});

describe("changing one's own password", () => {
  it("needs the current one and a good new one, and signs the person's other sessions out", async () => {
    const at = (n: number) => ({ "x-forwarded-for": `203.0.113.${200 + n}` });
    const first = cookieOf(await signIn(proxied, { email: "changer@example.com", password: PASSWORD }, at(1)));
    const second = cookieOf(await signIn(proxied, { email: "changer@example.com", password: PASSWORD }, at(2)));
    const change = (body: Record<string, unknown>) =>
      call(proxied.baseUrl, "/api/auth/change-password", {
        method: "POST",
        anonymous: true,
        headers: { ...JSON_BODY, origin: proxied.baseUrl, cookie: first, ...at(1) },
        body: JSON.stringify(body),
      });
    const me = (cookie: string) => call(proxied.baseUrl, "/api/v1/me", { anonymous: true, headers: { cookie } });

    expect((await change({ currentPassword: "not my password", newPassword: "a brand new passphrase" })).status).toBe(
      400,
    );
    const weak = await change({ currentPassword: PASSWORD, newPassword: "password1234" });
    expect(weak.status).toBe(400);
    expect(weak.body.message).toMatch(/most common/);
    expect((await me(second)).status).toBe(200);

    const changed = await change({ currentPassword: PASSWORD, newPassword: "a brand new passphrase" });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect((await me(second)).status).toBe(401);
    expect(
      (await signIn(proxied, { email: "changer@example.com", password: "a brand new passphrase" }, at(3))).status,
    ).toBe(200);
  });

  it("is offered as a page", async () => {
    const cookie = cookieOf(
      await signIn(proxied, { email: "owner@example.com", password: PASSWORD }, { "x-forwarded-for": "203.0.113.240" }),
    );
    const page = await call(proxied.baseUrl, "/password", { anonymous: true, headers: { cookie } });
    expect(page.status).toBe(200);
    expect(page.body).toContain("Change password");
  });
});

describe("answers and sessions", () => {
  it("with people's or access data carry Cache-Control: no-store", async () => {
    for (const path of ["/api/v1/accounts", "/api/v1/me", "/api/v1/tokens", "/api/v1/audit", "/api/v1/shoots"]) {
      const answer = await call(plain.baseUrl, path);
      expect(answer.status, path).toBe(200);
      expect(answer.headers.get("cache-control"), path).toBe("no-store");
    }
    const session = await call(plain.baseUrl, "/api/auth/get-session", { anonymous: true });
    expect(session.headers.get("cache-control")).toBe("no-store");
  });

  it("end at the absolute lifetime however recently they were used", async () => {
    const cookie = cookieOf(
      await signIn(proxied, { email: "old@example.com", password: PASSWORD }, { "x-forwarded-for": "203.0.113.241" }),
    );
    const me = () => call(proxied.baseUrl, "/api/v1/me", { anonymous: true, headers: { cookie } });
    expect((await me()).status).toBe(200);
    const user = await database.db.user.findUniqueOrThrow({ where: { email: "old@example.com" } });
    await database.db.session.updateMany({
      where: { userId: user.id },
      data: { createdAt: new Date(Date.now() - 13 * 3600_000) },
    });
    expect((await me()).status).toBe(401);
  });

  it("over https carry HSTS; over http they do not", async () => {
    expect((await fetch(`${https.baseUrl}/healthz`)).headers.get("strict-transport-security")).toBe("max-age=31536000");
    expect((await fetch(`${plain.baseUrl}/healthz`)).headers.get("strict-transport-security")).toBeNull();
  });
});

describe("where sign-in sends people", () => {
  it("refuses a callbackURL that resolves to another site", async () => {
    for (const callbackURL of ["/..//evil.example", "//evil.example", "https://evil.example/"]) {
      const answer = await signIn(
        proxied,
        { email: "owner@example.com", password: PASSWORD, callbackURL },
        { "x-forwarded-for": "203.0.113.242" },
      );
      // better-auth refuses some itself (403); "/..//evil.example" it would take, Almanac refuses (400).
      expect([400, 403], callbackURL).toContain(answer.status);
    }
  });
});

describe("a namespace's calendar", () => {
  it("is 404 for a namespace no project has", async () => {
    expect((await call(plain.baseUrl, "/api/v1/namespaces/garden-nowhere/calendar.ics")).status).toBe(404);
    expect((await call(plain.baseUrl, "/api/v1/namespaces/garden-dev/calendar.ics")).status).toBe(200);
  });
});

/** A POST declaring `length` bytes of body, sent raw (fetch will not lie about a length): the status line. */
async function rawPost(server: AppServer, path: string, length: number): Promise<string> {
  const net = await import("node:net");
  const { port } = new URL(server.baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), "127.0.0.1");
    let answer = "";
    socket.on("data", (d) => (answer += d));
    socket.on("close", () => resolve(answer));
    socket.on("error", (error) => (answer ? resolve(answer) : reject(error)));
    socket.write(
      `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n{"email":`,
    );
  });
}
