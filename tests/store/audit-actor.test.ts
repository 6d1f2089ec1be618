// The audit log's actor filter matches a part of the name, in any case, and takes % and _ as
// themselves (no wildcards).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listAuditEvents, recordAuditEvents } from "../../lib/store/audit.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
  const event = (actor: string) => ({ actor, action: "shoot.update", target: { kind: "Shoot" }, changes: [] });
  await recordAuditEvents(database.db, [
    event("Alice@example.com"),
    event("token:alice-ci"),
    event("bob@example.com"),
    event("system:maintenance"),
    event("carol_100%@example.com"),
    event("carolX100Y@example.com"),
    event("dave\\ops@example.com"),
  ]);
});
afterAll(async () => {
  await database?.drop();
});

const actors = async (actor: string) =>
  (await listAuditEvents(database.db, { actor, limit: 100 })).map((e) => e.actor).sort();

describe("the audit log's actor filter", () => {
  it("matches a part of the name, case-insensitively", async () => {
    expect(await actors("alice")).toEqual(["Alice@example.com", "token:alice-ci"]);
    expect(await actors("ALICE@")).toEqual(["Alice@example.com"]);
    expect(await actors("system:")).toEqual(["system:maintenance"]);
    expect(await actors("bob@example.com")).toEqual(["bob@example.com"]);
  });

  it("takes % and _ literally", async () => {
    expect(await actors("_100%")).toEqual(["carol_100%@example.com"]);
    expect(await actors("%")).toEqual(["carol_100%@example.com"]);
    expect(await actors("\\")).toEqual(["dave\\ops@example.com"]);
    expect(await actors("nobody")).toEqual([]);
  });
});
