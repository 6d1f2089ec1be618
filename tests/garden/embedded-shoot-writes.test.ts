// The simulated garden's side of the write port decides by the same rules as a live garden
// (lib/garden/shoot-change-rules.ts): maintenance now is refused while another operation asked
// with the annotation is pending; a deletion's confirmation is any true boolean, and a project's
// dualApprovalForDeletion asks someone other than the deleter to confirm.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { embeddedShootWrites } from "../../lib/garden/embedded/embedded-shoot-writes.ts";
import type { Actor, ShootWrites } from "../../lib/garden/shoot-writes.ts";
import type { PgBoss } from "../../lib/jobs/queue.ts";
import { seedLandscape } from "../../lib/server/seed-landscape.ts";
import { findShoot } from "../../lib/store/shoots.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { smallLandscape } from "../support/small-landscape.ts";

let database: TestDatabase;
let writes: ShootWrites;
let namespace: string;

const actor: Actor = { name: "admin", requestId: "req-1", identity: { kind: "almanac" } };

/** Sets annotations on the stored shoot, as Gardener (or someone with kubectl) would. */
async function annotate(name: string, annotations: Record<string, string>): Promise<void> {
  await database.db.$executeRaw`
    UPDATE shoots SET metadata = jsonb_set(metadata, '{annotations}',
      COALESCE(metadata->'annotations', '{}'::jsonb) || ${JSON.stringify(annotations)}::jsonb)
    WHERE namespace = ${namespace} AND name = ${name}`;
}

beforeAll(async () => {
  database = await createTestDatabase();
  const landscape = smallLandscape(Date.now(), 4);
  await seedLandscape(database.db, landscape, { actor: "test", now: Date.now() });
  namespace = landscape.shoots[0].metadata.namespace!;
  // A refusal is decided before any job is sent: these tests need no running queue.
  writes = embeddedShootWrites(database.db, () => ({}) as PgBoss);
});

afterAll(async () => {
  await database?.drop();
});

describe("the simulated garden's writes", () => {
  it("refuses maintenance now while a rotation asked with the annotation is pending, naming it", async () => {
    const name = "cluster-0";
    await annotate(name, { "gardener.cloud/operation": "rotate-serviceaccount-key-start" });
    const before = await findShoot(database.db, namespace, name);
    const answer = await writes.maintainNow(actor, { namespace, name }, Date.now());
    expect(answer).toEqual({
      ok: false,
      refusal: { code: "OperationPending", operations: ["rotate-serviceaccount-key-start"] },
    });
    const after = await findShoot(database.db, namespace, name);
    expect(after?.resourceVersion).toBe(before?.resourceVersion);
    expect(after?.shoot.metadata.annotations?.["gardener.cloud/operation"]).toBe("rotate-serviceaccount-key-start");
  });
});
