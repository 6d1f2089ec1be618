// The simulated garden's side of the write port decides by the same rules as a live garden
// (lib/garden/shoot-change-rules.ts): maintenance now is refused while another operation asked
// with the annotation is pending; a deletion's confirmation is any true boolean, and a project's
// dualApprovalForDeletion asks someone other than the deleter to confirm; new tolerations need the
// project's or the garden's global whitelist (ShootTolerationRestriction).
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
const person = (user: string): Actor => ({
  name: user,
  requestId: `req-${user}`,
  identity: { kind: "person", user, groups: [] },
});

/** Sets labels on the stored shoot. */
async function label(name: string, labels: Record<string, string>): Promise<void> {
  await database.db.$executeRaw`
    UPDATE shoots SET metadata = jsonb_set(metadata, '{labels}',
      COALESCE(metadata->'labels', '{}'::jsonb) || ${JSON.stringify(labels)}::jsonb)
    WHERE namespace = ${namespace} AND name = ${name}`;
}

/** Sets annotations on the stored shoot, as Gardener (or someone with kubectl) would. */
async function annotate(name: string, annotations: Record<string, string>): Promise<void> {
  await database.db.$executeRaw`
    UPDATE shoots SET metadata = jsonb_set(metadata, '{annotations}',
      COALESCE(metadata->'annotations', '{}'::jsonb) || ${JSON.stringify(annotations)}::jsonb)
    WHERE namespace = ${namespace} AND name = ${name}`;
}

beforeAll(async () => {
  database = await createTestDatabase();
  const landscape = smallLandscape(Date.now(), 5);
  await seedLandscape(database.db, landscape, { actor: "test", now: Date.now() });
  namespace = landscape.shoots[0].metadata.namespace!;
  // No worker runs: the jobs a change sends are accepted and left.
  writes = embeddedShootWrites(database.db, () => ({ send: async () => null }) as unknown as PgBoss);
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

  it("deletes a shoot confirmed with any true boolean Go's strconv.ParseBool takes", async () => {
    await annotate("cluster-1", { "confirmation.gardener.cloud/deletion": "T" });
    const answer = await writes.deleteShoot(actor, { namespace, name: "cluster-1" }, Date.now());
    expect(answer.ok).toBe(true);
    await annotate("cluster-2", { "confirmation.gardener.cloud/deletion": "yes" });
    expect(await writes.deleteShoot(actor, { namespace, name: "cluster-2" }, Date.now())).toMatchObject({
      ok: false,
      refusal: { code: "DeletionNotConfirmed" },
    });
  });

  it("under the project's dual approval, records who confirmed and lets only someone else delete", async () => {
    await database.db.$executeRaw`
      UPDATE projects SET document = jsonb_set(document, '{spec,dualApprovalForDeletion}',
        ${JSON.stringify([{ resource: "shoots", selector: { matchLabels: { env: "prod" } } }])}::jsonb)
      WHERE namespace = ${namespace}`;
    await label("cluster-2", { env: "prod" });
    const key = { namespace, name: "cluster-2" };
    const confirm = { metadata: { annotations: { "confirmation.gardener.cloud/deletion": "true" as const } } };
    expect((await writes.patchShoot(person("alice"), key, confirm, {}, Date.now())).ok).toBe(true);
    const confirmed = await findShoot(database.db, namespace, "cluster-2");
    expect(confirmed?.shoot.metadata.annotations?.["deletion.gardener.cloud/confirmed-by"]).toBe("alice");
    expect(await writes.deleteShoot(person("alice"), key, Date.now())).toEqual({
      ok: false,
      refusal: { code: "DeletionNeedsAnotherSubject", confirmedBy: "alice" },
    });
    expect((await writes.deleteShoot(person("bob"), key, Date.now())).ok).toBe(true);
    // A shoot the selector does not match: its confirmer may delete it.
    const other = { namespace, name: "cluster-3" };
    expect((await writes.patchShoot(person("alice"), other, confirm, {}, Date.now())).ok).toBe(true);
    expect((await writes.deleteShoot(person("alice"), other, Date.now())).ok).toBe(true);
  });

  it("lets through only new tolerations the project's or the global whitelist allows, keeping old ones", async () => {
    const name = "cluster-4";
    await database.db.$executeRaw`
      UPDATE projects SET document = jsonb_set(document, '{spec,tolerations}', ${JSON.stringify({ whitelist: [{ key: "gpu" }] })}::jsonb)
      WHERE namespace = ${namespace}`;
    const global = { defaults: [], whitelist: [{ key: "dedicated", value: "payments" }] };
    const withGlobal = embeddedShootWrites(
      database.db,
      () => undefined,
      () => global,
    );
    const patch = (tolerations: { key: string; value?: string }[]) =>
      withGlobal.patchShoot(actor, { namespace, name }, { spec: { tolerations } }, {}, Date.now());

    const accepted = await patch([
      { key: "gpu", value: "a100" },
      { key: "dedicated", value: "payments" },
    ]);
    expect(accepted.ok).toBe(true);
    const refused = await patch([
      { key: "gpu", value: "a100" },
      { key: "dedicated", value: "other" },
    ]);
    expect(refused).toMatchObject({
      ok: false,
      refusal: {
        code: "Invalid",
        problems: [
          {
            field: "spec.tolerations[1].key",
            detail: expect.stringContaining("is not in the project's whitelist nor the global whitelist"),
          },
        ],
      },
    });
    expect((await findShoot(database.db, namespace, name))?.shoot.spec.tolerations).toEqual([
      { key: "gpu", value: "a100" },
      { key: "dedicated", value: "payments" },
    ]);
    // Without the global whitelist, the toleration the shoot already has stays allowed.
    const projectOnly = embeddedShootWrites(
      database.db,
      () => undefined,
      () => ({ defaults: [], whitelist: [] }),
    );
    const kept = await projectOnly.patchShoot(
      actor,
      { namespace, name },
      { spec: { tolerations: [{ key: "dedicated", value: "payments" }] } },
      {},
      Date.now(),
    );
    expect(kept.ok).toBe(true);
  });
});
