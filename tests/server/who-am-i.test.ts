// GET /api/v1/me's answer: the caller and their roles, each project's with its namespace, so the
// pages can tell what the caller may do to a shoot without the project list.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedLandscape } from "../../lib/server/seed-landscape.ts";
import { whoAmI } from "../../lib/server/who-am-i.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { smallLandscape } from "../support/small-landscape.ts";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
  await seedLandscape(database.db, smallLandscape(Date.now(), 1), { actor: "test", now: Date.now() });
});
afterAll(async () => {
  await database?.drop();
});

describe("whoAmI", () => {
  it("names the namespace of each project the caller holds a role on", async () => {
    const me = await whoAmI(database.db, {
      kind: "token",
      id: "t1",
      name: "ci",
      bindings: [
        { role: "viewer", scope: "*" },
        { role: "operator", scope: "dev" },
        { role: "admin", scope: "gone" },
      ],
    });
    expect(me).toEqual({
      kind: "token",
      name: "ci",
      actor: "token:ci",
      bindings: [
        { role: "viewer", scope: "*" },
        { role: "operator", scope: "dev", namespace: "garden-dev" },
        { role: "admin", scope: "gone" },
      ],
    });
  });

  it("answers a person with their email company groups and how they are signed in", async () => {
    const me = await whoAmI(database.db, {
      kind: "user",
      id: "u1",
      name: "Ada",
      email: "ada@example.com",
      groups: ["landscape-admins"],
      bindings: [{ role: "admin", scope: "*" }],
    });
    expect(me).toEqual({
      kind: "user",
      name: "Ada",
      email: "ada@example.com",
      groups: ["landscape-admins"],
      via: "session",
      actor: "ada@example.com",
      bindings: [{ role: "admin", scope: "*" }],
    });
  });

  it("says when a trusted proxy signed the person in", async () => {
    const me = await whoAmI(database.db, {
      kind: "user",
      id: "u2",
      name: "alice",
      email: "alice",
      groups: ["ops"],
      bindings: [],
      via: "proxy",
    });
    expect(me).toMatchObject({ kind: "user", email: "alice", groups: ["ops"], via: "proxy", actor: "alice" });
  });
});
