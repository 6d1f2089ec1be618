// The person a trusted proxy names, on a test database: their account made once on first sight
// (and audited), found again by email whatever the case (a built-in account's too), with only
// reads on every later request; their roles are their own and their groups', each once.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createPasswordAccount } from "../../lib/auth/create-account.ts";
import { proxyPerson } from "../../lib/auth/proxy-user.ts";
import { loadConfig, useConfig } from "../../lib/config/load-config.ts";
import { createDb, type Db, poolOf } from "../../lib/db/client.ts";
import { grantRole } from "../../lib/store/role-bindings.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";

let database: TestDatabase;
let db: Db;
let queries: string[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  db = createDb(database.url, 4);
  const pool = poolOf(db)!;
  const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  pool.query = ((...args: unknown[]) => {
    queries.push(String(typeof args[0] === "object" ? (args[0] as { text: string }).text : args[0]));
    return query(...args);
  }) as typeof pool.query;
});
afterAll(async () => {
  await db?.$disconnect();
  await database?.drop();
});
afterEach(() => {
  useConfig(undefined);
});

describe("proxyPerson", () => {
  it("makes the account on first sight, once, and only reads afterwards", async () => {
    const first = await proxyPerson(db, { user: "Dana@Example.com", groups: [] });
    expect(first).toMatchObject({ name: "Dana@Example.com", email: "dana@example.com", bindings: [] });
    expect(first.id).toMatch(/^[A-Za-z0-9]{32}$/);
    const row = await db.user.findUniqueOrThrow({ where: { id: first.id } });
    expect(row.emailVerified).toBe(false);
    const audit = await db.auditEvent.findMany({ where: { action: "account.create" } });
    expect(audit).toEqual([
      expect.objectContaining({
        actor: "dana@example.com",
        targetName: "dana@example.com",
        changes: [
          { field: "name", before: null, after: "Dana@Example.com" },
          { field: "signed in by", before: null, after: "trusted proxy" },
        ],
      }),
    ]);

    // Outside a transaction (spied on), the client's queries go through pool.query (recorded).
    queries = [];
    const transactions = vi.spyOn(db, "$transaction");
    const again = await proxyPerson(db, { user: "DANA@example.com", groups: [] });
    expect(again.id).toBe(first.id);
    expect(transactions).not.toHaveBeenCalled();
    transactions.mockRestore();
    expect(queries.length).toBeGreaterThan(0);
    expect(
      queries.every((q) => /^\s*SELECT/i.test(q)),
      queries.join("\n"),
    ).toBe(true);
    expect(await db.user.count()).toBe(1);
  });

  it("finds a built-in account by its email, with its roles", async () => {
    const made = await createPasswordAccount(db, {
      name: "Erik",
      email: "erik@example.com",
      password: "a long enough password",
    });
    await grantRole(db, made.id, "operator", "dev");
    const person = await proxyPerson(db, { user: "Erik@example.com", groups: [] });
    expect(person).toEqual({
      id: made.id,
      name: "Erik",
      email: "erik@example.com",
      bindings: [{ role: "operator", scope: "dev" }],
    });
  });

  it("adds the roles of the groups, each binding once", async () => {
    useConfig(loadConfig({ ALMANAC_GROUP_ROLES: "ops=operator:dev; readers=viewer; other=admin" }));
    const person = await proxyPerson(db, { user: "erik@example.com", groups: ["ops", "readers", "unmapped"] });
    expect(person.bindings).toEqual([
      { role: "operator", scope: "dev" },
      { role: "viewer", scope: "*" },
    ]);
  });

  it("keys a login name without '@' as it is, in lower case", async () => {
    const person = await proxyPerson(db, { user: "DOMAIN\\Frank", groups: [] });
    expect(person).toMatchObject({ name: "DOMAIN\\Frank", email: "domain\\frank" });
  });
});
