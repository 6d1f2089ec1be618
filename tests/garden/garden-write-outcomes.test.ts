// A live garden's write that the garden accepted is never answered as failed, and its audit event
// and record (migration, deletion) always exist: while a mirror transaction holds the shoot's row
// longer than Prisma's default transaction limit, and when the writer died between the garden's
// answer and the outcome (a later pass resolves its intent from the mirror, or says it cannot tell).
import { KubeConfig } from "@kubernetes/client-node";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { CloudProfile, Shoot } from "../../lib/gardener/types.ts";
import { kubernetesShootWrites } from "../../lib/garden/kubernetes/kubernetes-shoot-writes.ts";
import { PENDING_GRACE_MS, resolveWriteIntents } from "../../lib/garden/kubernetes/write-intents.ts";
import type { Actor, ShootWrites } from "../../lib/garden/shoot-writes.ts";
import { listAuditEvents } from "../../lib/store/audit.ts";
import { latestDeletion } from "../../lib/store/deletions.ts";
import { mirrorObject, mirrorShoot } from "../../lib/store/garden-mirror.ts";
import { insertWriteIntent, intentsOfShoot, markIntentAccepted } from "../../lib/store/garden-write-intents.ts";
import { latestMigration } from "../../lib/store/migrations.ts";
import { metrics } from "../../lib/observability/metrics.ts";
import { startMigration } from "../../lib/engine/migration-flow.ts";
import { seed } from "../support/builders.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { smallLandscape } from "../support/small-landscape.ts";
import { type StandInGarden, startStandInGarden } from "../support/stand-in-garden.ts";

const NS = "garden-dev";
/** Longer than Prisma's default interactive transaction (5 s), which the outcome once ran in. */
const HOLD_MS = 7_000;

let database: TestDatabase;
let garden: StandInGarden;
let writes: ShootWrites;
let profile: CloudProfile;

const actor = (requestId: string): Actor => ({ name: "admin", requestId, identity: { kind: "almanac" } });
const key = (name: string) => ({ namespace: NS, name });

async function sync(name: string): Promise<void> {
  const shoot = garden.get("Shoot", NS, name) as Shoot;
  await database.db.$transaction((tx) => mirrorShoot(tx, shoot, profile, Date.now()));
}

const outcomesCounted = async (outcome: string) =>
  (await metrics().gardenWriteOutcomes.get()).values.find((v) => v.labels.outcome === outcome)?.value ?? 0;

const auditOf = async (name: string) => listAuditEvents(database.db, { kind: "Shoot", namespace: NS, name, limit: 50 });

/**
 * Holds the shoot's row FOR UPDATE, as a mirror transaction (a profile change rewriting its
 * shoots) does, for `ms` from when the lock is taken; resolves `locked` once it is.
 */
function holdShootRow(name: string, ms: number): { locked: Promise<void>; released: Promise<void> } {
  let locked!: () => void;
  const isLocked = new Promise<void>((resolve) => (locked = resolve));
  const released = database.db.$transaction(
    async (tx) => {
      await tx.$queryRaw`SELECT 1 FROM shoots WHERE namespace = ${NS} AND name = ${name} FOR UPDATE`;
      locked();
      await new Promise((resolve) => setTimeout(resolve, ms));
    },
    { timeout: ms + 30_000 },
  );
  return { locked: isLocked, released };
}

beforeAll(async () => {
  database = await createTestDatabase();
  garden = await startStandInGarden();
  const landscape = smallLandscape(Date.now(), 9);
  profile = landscape.cloudProfiles[0];
  const seeds = [seed("seed-1"), seed("seed-2")];
  garden.put("CloudProfile", profile);
  for (const s of seeds) garden.put("Seed", s);
  garden.put("Project", landscape.projects[0]);
  for (const s of landscape.shoots) garden.put("Shoot", s);
  await database.db.$transaction(async (tx) => {
    await mirrorObject(tx, "CloudProfile", garden.get("CloudProfile", undefined, profile.metadata.name));
    for (const s of seeds) await mirrorObject(tx, "Seed", garden.get("Seed", undefined, s.metadata.name));
    await mirrorObject(tx, "Project", garden.get("Project", undefined, "dev"));
  });
  for (const s of landscape.shoots) await sync(s.metadata.name);
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromFile(garden.writeKubeconfig());
  writes = kubernetesShootWrites(database.db, kubeConfig, "impersonation");
});

afterAll(async () => {
  await garden?.close();
  await database?.drop();
});

beforeEach(() => {
  garden.admit = undefined;
});

describe("an accepted write while a mirror transaction holds the shoot's row", () => {
  it("answers a window edit as written and audits it, without waiting for the row", async () => {
    const hold = holdShootRow("cluster-1", HOLD_MS);
    await hold.locked;
    const window = { begin: "030000+0000", end: "040000+0000" };
    const written = await writes.patchShoot(
      actor("req-window"),
      key("cluster-1"),
      { spec: { maintenance: { timeWindow: window } } },
      {},
      Date.now(),
    );
    expect(written).toMatchObject({ ok: true, value: { spec: { maintenance: { timeWindow: window } } } });
    // The audit event is there while the row is still held.
    expect(await auditOf("cluster-1")).toEqual([
      expect.objectContaining({ action: "shoot.update", requestId: "req-window", actor: "admin" }),
    ]);
    expect(await intentsOfShoot(database.db, NS, "cluster-1")).toEqual([
      expect.objectContaining({ state: "recorded", action: "shoot.update" }),
    ]);
    await hold.released;
  });

  it("answers a migration as started and records it, waiting out the row's lock for its record", async () => {
    const hold = holdShootRow("cluster-2", HOLD_MS);
    await hold.locked;
    const written = await writes.migrateShoot(actor("req-migrate"), key("cluster-2"), "seed-2", Date.now());
    expect(written).toMatchObject({ ok: true, value: { flow: { source: "seed-1", destination: "seed-2" } } });
    const id = written.ok ? written.value.id : "";
    expect(await latestMigration(database.db, NS, "cluster-2")).toMatchObject({ id, actor: "admin" });
    expect((await auditOf("cluster-2")).map((e) => e.action)).toEqual(["shoot.migrate"]);
    await hold.released;
  });

  it("answers a deletion as started and records it", async () => {
    garden.put("Shoot", {
      ...garden.get("Shoot", NS, "cluster-3"),
      metadata: {
        ...garden.get("Shoot", NS, "cluster-3").metadata,
        annotations: { "confirmation.gardener.cloud/deletion": "true" },
      },
    });
    await sync("cluster-3");
    const hold = holdShootRow("cluster-3", HOLD_MS);
    await hold.locked;
    const written = await writes.deleteShoot(actor("req-delete"), key("cluster-3"), Date.now());
    expect(written.ok).toBe(true);
    const id = written.ok ? written.value.id : "";
    expect((await latestDeletion(database.db, NS, "cluster-3"))?.id).toBe(id);
    expect((await auditOf("cluster-3")).map((e) => e.action)).toEqual(["shoot.delete"]);
    await hold.released;
  });
});

describe("a write the garden refused", () => {
  it("closes its intent as refused and audits nothing", async () => {
    garden.admit = () => ({ code: 422, reason: "Invalid", message: 'admission webhook "freeze" denied the request' });
    const written = await writes.patchShoot(
      actor("req-refused"),
      key("cluster-7"),
      { spec: { hibernation: { enabled: true } } },
      {},
      Date.now(),
    );
    expect(written).toMatchObject({ ok: false, refusal: { code: "GardenRefused" } });
    expect(await intentsOfShoot(database.db, NS, "cluster-7")).toEqual([
      expect.objectContaining({ state: "refused", action: "shoot.update" }),
    ]);
    expect(await auditOf("cluster-7")).toEqual([]);
  });
});

describe("a later pass over the write intents", () => {
  const later = () => Date.now() + PENDING_GRACE_MS + 1_000;

  it("writes the audit event and record of a write the garden accepted but that could not be recorded", async () => {
    const flow = startMigration("seed-1", "seed-2", Date.now());
    const intent = await insertWriteIntent(database.db, {
      actor: "admin",
      action: "shoot.migrate",
      ...key("cluster-4"),
      changes: [{ field: "spec.seedName", before: "seed-1", after: "seed-2" }],
      record: { kind: "migration", flow },
    });
    await markIntentAccepted(database.db, intent.id, { changes: intent.changes, record: { kind: "migration", flow } });
    // Accepted ones need no grace: their outcome is known.
    expect(await resolveWriteIntents(database.db, Date.now())).toBeGreaterThanOrEqual(1);
    expect(await latestMigration(database.db, NS, "cluster-4")).toMatchObject({ id: intent.recordId });
    expect((await auditOf("cluster-4")).map((e) => e.action)).toEqual(["shoot.migrate"]);
    // Once only.
    await resolveWriteIntents(database.db, later());
    expect((await auditOf("cluster-4")).map((e) => e.action)).toEqual(["shoot.migrate"]);
  });

  it("tells a migration the writer died after from the mirror, and audits a patch it cannot tell as outcome unknown", async () => {
    // The writer asked for cluster-5's move and died; the garden had moved it (the watch brought it).
    const flow = startMigration("seed-1", "seed-2", Date.now());
    const migrating = await insertWriteIntent(database.db, {
      actor: "admin",
      action: "shoot.migrate",
      ...key("cluster-5"),
      uid: garden.get("Shoot", NS, "cluster-5").metadata.uid,
      changes: [{ field: "spec.seedName", before: "seed-1", after: "seed-2" }],
      record: { kind: "migration", flow },
    });
    garden.put("Shoot", {
      ...garden.get("Shoot", NS, "cluster-5"),
      spec: { ...garden.get("Shoot", NS, "cluster-5").spec, seedName: "seed-2" },
    });
    await sync("cluster-5");
    const patching = await insertWriteIntent(database.db, {
      actor: "admin",
      action: "shoot.update",
      ...key("cluster-6"),
      changes: [{ field: "spec.hibernation.enabled", before: false, after: true }],
    });
    // Within the grace the writer may still be at work: nothing is decided.
    await resolveWriteIntents(database.db, Date.now());
    expect((await intentsOfShoot(database.db, NS, "cluster-5"))[0].state).toBe("pending");
    expect(await auditOf("cluster-6")).toEqual([]);

    const unknownBefore = await outcomesCounted("unknown");
    await resolveWriteIntents(database.db, later());
    // Counted in /metrics, where an operator sees that a change needs a look.
    expect(await outcomesCounted("unknown")).toBe(unknownBefore + 1);
    expect(await latestMigration(database.db, NS, "cluster-5")).toMatchObject({ id: migrating.recordId });
    expect((await auditOf("cluster-5")).map((e) => e.action)).toEqual(["shoot.migrate"]);
    expect(await auditOf("cluster-6")).toEqual([
      expect.objectContaining({
        action: "shoot.update.outcome-unknown",
        // Dated when the change was asked for, not when the pass ran.
        at: patching.createdAt.toISOString(),
        changes: [{ field: "spec.hibernation.enabled", before: false, after: true }],
      }),
    ]);
    expect((await intentsOfShoot(database.db, NS, "cluster-6"))[0]).toMatchObject({
      id: patching.id,
      state: "unknown",
    });
  });
});
