// The live garden's write port against the stand-in garden (a kube-apiserver speaking Gardener's
// API) and a real PostgreSQL mirror: the engine decides first, the garden gets exactly the change
// as the person who asks, its answer is in the mirror at once, and its refusals reach the caller.
import { randomUUID } from "node:crypto";
import { KubeConfig } from "@kubernetes/client-node";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { GardenIdentity } from "../../lib/auth/garden-identity.ts";
import type { CloudProfile, Shoot } from "../../lib/gardener/types.ts";
import { impersonating, SystemImpersonationError } from "../../lib/garden/kubernetes/impersonation.ts";
import { kubernetesShootWrites } from "../../lib/garden/kubernetes/kubernetes-shoot-writes.ts";
import type { Actor, ShootWrites } from "../../lib/garden/shoot-writes.ts";
import { Refusal } from "../../lib/api/refusal.ts";
import { type ProblemAnswer, refusalAnswer } from "../../lib/http/refusal-answer.ts";
import { deleteShoot } from "../../lib/server/delete-shoot.ts";
import { requestMaintainNow } from "../../lib/server/maintain-now.ts";
import { startShootMigration } from "../../lib/server/start-migration.ts";
import { updateShootFromPatch } from "../../lib/server/update-shoot.ts";
import { latestDeletion } from "../../lib/store/deletions.ts";
import { mirrorObject, mirrorShoot } from "../../lib/store/garden-mirror.ts";
import { latestMigration } from "../../lib/store/migrations.ts";
import { findShoot } from "../../lib/store/shoots.ts";
import { seed } from "../support/builders.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { smallLandscape } from "../support/small-landscape.ts";
import { type StandInGarden, startStandInGarden } from "../support/stand-in-garden.ts";

const NS = "garden-dev";
const SHOOTS = `/apis/core.gardener.cloud/v1beta1/namespaces/${NS}/shoots`;
const ADA: GardenIdentity = { kind: "person", user: "ada@example.com", groups: ["team-a", "shoot-editors"] };

let database: TestDatabase;
let garden: StandInGarden;
let writes: ShootWrites;
let profile: CloudProfile;

const actor = (identity: GardenIdentity = { kind: "almanac" }): Actor => ({
  name: identity.kind === "person" ? identity.user : "admin",
  requestId: "req-1",
  identity,
});
const key = (name: string) => ({ namespace: NS, name });
/** A use case's request about `name`, by the admin token unless `identity` says otherwise. */
const asked = (name: string, identity: GardenIdentity = { kind: "almanac" }) => ({
  namespace: NS,
  name,
  actor: identity.kind === "person" ? identity.user : "admin",
  requestId: `req-${name}`,
  identity,
  now: Date.now(),
});
const row = async (name: string) => (await findShoot(database.db, NS, name))!;
/** The requests that change something, in order. */
const writesSent = () => garden.requests.filter((r) => r.method !== "GET");

/** Writes the garden's shoot into the mirror, as the watch would. */
async function sync(name: string): Promise<void> {
  const shoot = garden.get("Shoot", NS, name) as Shoot;
  await database.db.$transaction((tx) => mirrorShoot(tx, shoot, profile, Date.now()));
}

/** The refusal the use case threw, as the HTTP edge answers it (status, headers...) with its message. */
async function thrown(promise: Promise<unknown>): Promise<ProblemAnswer & { message: string }> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(Refusal);
  return { ...refusalAnswer(error as Refusal), message: (error as Refusal).message };
}

beforeAll(async () => {
  database = await createTestDatabase();
  garden = await startStandInGarden();
  const landscape = smallLandscape(Date.now(), 9);
  // A second image, so a pool may switch to it.
  const small = landscape.cloudProfiles[0];
  profile = {
    ...small,
    spec: {
      ...small.spec,
      machineImages: [
        ...(small.spec.machineImages ?? []),
        { name: "suse-chost", versions: [{ version: "15.6.0", classification: "supported" }] },
      ],
    },
  };
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
  // Ada may change shoots in garden-dev through her group; nobody else but Almanac may.
  garden.rbac.push({
    groups: ["shoot-editors"],
    verbs: ["get", "patch", "delete"],
    resources: ["shoots"],
    namespaces: [NS],
  });
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromFile(garden.writeKubeconfig());
  writes = kubernetesShootWrites(database.db, kubeConfig, "impersonation");
});

afterAll(async () => {
  await garden?.close();
  await database?.drop();
});

beforeEach(() => {
  garden.requests.length = 0;
  garden.admit = undefined;
});

describe("the live garden's write port", () => {
  it("sends a window edit as a merge patch of spec.maintenance alone, guarded by the garden's resourceVersion, and mirrors the answer", async () => {
    const before = await row("cluster-1");
    const written = await writes.patchShoot(
      actor(ADA),
      key("cluster-1"),
      { spec: { maintenance: { timeWindow: { begin: "030000+0000", end: "040000+0000" } } } },
      { exactly: before.resourceVersion },
      Date.now(),
    );
    expect(written.ok).toBe(true);
    expect(writesSent()).toHaveLength(1);
    const sent = writesSent()[0];
    expect(sent).toMatchObject({
      method: "PATCH",
      path: `${SHOOTS}/cluster-1`,
      contentType: "application/merge-patch+json",
    });
    expect(sent.body).toEqual({
      metadata: { resourceVersion: before.gardenResourceVersion },
      spec: { maintenance: { timeWindow: { begin: "030000+0000", end: "040000+0000" } } },
    });
    // The garden's answer is in the mirror at once, under Almanac's next resourceVersion.
    const after = await row("cluster-1");
    expect(after.resourceVersion).toBe(before.resourceVersion + 1);
    expect(after.gardenResourceVersion).toBe(garden.get("Shoot", NS, "cluster-1").metadata.resourceVersion);
    expect(after.shoot.spec.maintenance?.timeWindow).toEqual({ begin: "030000+0000", end: "040000+0000" });
    if (written.ok) expect(written.value.metadata.resourceVersion).toBe(String(after.resourceVersion));
    // The watch event that follows changes nothing.
    await sync("cluster-1");
    expect((await row("cluster-1")).resourceVersion).toBe(after.resourceVersion);
    const audit = await database.db.auditEvent.findFirst({
      where: { targetName: "cluster-1", action: "shoot.update" },
      orderBy: { at: "desc" },
    });
    expect(audit).toMatchObject({ actor: "ada@example.com", requestId: "req-1" });
    expect(audit?.changes).toEqual([
      { field: "spec.maintenance.timeWindow.begin", before: "220000+0000", after: "030000+0000" },
      { field: "spec.maintenance.timeWindow.end", before: "230000+0000", after: "040000+0000" },
    ]);
  });

  it("sends a worker pool's image update as a JSON patch: the resourceVersion, a test of the pool's place, the one field", async () => {
    const before = await row("cluster-2");
    const written = await writes.patchShoot(
      actor(),
      key("cluster-2"),
      { spec: { provider: { workers: [{ name: "pool-b", machine: { image: { version: "1877.2.0" } } }] } } },
      {},
      Date.now(),
    );
    expect(written.ok).toBe(true);
    const sent = writesSent()[0];
    expect(sent).toMatchObject({
      method: "PATCH",
      path: `${SHOOTS}/cluster-2`,
      contentType: "application/json-patch+json",
    });
    expect(sent.body).toEqual([
      { op: "replace", path: "/metadata/resourceVersion", value: before.gardenResourceVersion },
      { op: "test", path: "/spec/provider/workers/1/name", value: "pool-b" },
      { op: "replace", path: "/spec/provider/workers/1/machine/image/version", value: "1877.2.0" },
    ]);
    const workers = (await row("cluster-2")).shoot.spec.provider!.workers!;
    expect(workers.map((w) => w.machine.image?.version)).toEqual(["1592.4.0", "1877.2.0"]);
  });

  it("sends a pool's switch to another image as its name and version, and audits both", async () => {
    const before = await row("cluster-8");
    const written = await writes.patchShoot(
      actor(),
      key("cluster-8"),
      {
        spec: {
          provider: { workers: [{ name: "pool-a", machine: { image: { name: "suse-chost", version: "15.6.0" } } }] },
        },
      },
      {},
      Date.now(),
    );
    expect(written.ok).toBe(true);
    expect(writesSent()[0].body).toEqual([
      { op: "replace", path: "/metadata/resourceVersion", value: before.gardenResourceVersion },
      { op: "test", path: "/spec/provider/workers/0/name", value: "pool-a" },
      { op: "replace", path: "/spec/provider/workers/0/machine/image/name", value: "suse-chost" },
      { op: "replace", path: "/spec/provider/workers/0/machine/image/version", value: "15.6.0" },
    ]);
    const workers = (await row("cluster-8")).shoot.spec.provider!.workers!;
    expect(workers.map((w) => w.machine.image)).toEqual([
      { name: "suse-chost", version: "15.6.0" },
      { name: "gardenlinux", version: "1592.4.0" },
    ]);
    const audit = await database.db.auditEvent.findFirst({
      where: { targetName: "cluster-8", action: "shoot.update" },
      orderBy: { at: "desc" },
    });
    expect(audit?.changes).toEqual([
      { field: "spec.provider.workers[name=pool-a].machine.image.name", before: "gardenlinux", after: "suse-chost" },
      { field: "spec.provider.workers[name=pool-a].machine.image.version", before: "1592.4.0", after: "15.6.0" },
    ]);
  });

  it("lets the engine refuse first: nothing reaches the garden", async () => {
    const written = await writes.patchShoot(
      actor(),
      key("cluster-3"),
      { spec: { kubernetes: { version: "1.30.5" } } },
      {},
      Date.now(),
    );
    expect(written).toMatchObject({ ok: false, refusal: { code: "Invalid" } });
    const stale = await writes.patchShoot(
      actor(),
      key("cluster-3"),
      { spec: { hibernation: { enabled: true } } },
      { exactly: 999 },
      Date.now(),
    );
    expect(stale).toMatchObject({ ok: false, refusal: { code: "Stale", yours: "999" } });
    expect(writesSent()).toEqual([]);
  });

  it("answers the garden's 409 as Stale when the garden's shoot moved on since the mirror, and mirrors it", async () => {
    const before = await row("cluster-3");
    garden.update("Shoot", NS, "cluster-3", (s) => {
      s.status = { ...s.status, lastOperation: { type: "Reconcile", state: "Processing", progress: 50 } };
    });
    const error = await thrown(
      updateShootFromPatch(writes, {
        ...asked("cluster-3"),
        body: {
          metadata: { resourceVersion: String(before.resourceVersion) },
          spec: { hibernation: { enabled: true } },
        },
        ifMatch: null,
      }),
    );
    expect(error.status).toBe(409);
    expect(writesSent()).toHaveLength(1);
    // The garden's shoot is mirrored at once, so the page's re-check reads what the garden has.
    const refreshed = await row("cluster-3");
    expect(refreshed.resourceVersion).toBe(before.resourceVersion + 1);
    expect(refreshed.shoot.status?.lastOperation?.state).toBe("Processing");
    expect(refreshed.shoot.spec.hibernation?.enabled).not.toBe(true);
    expect(error.extensions).toEqual({ currentResourceVersion: String(refreshed.resourceVersion) });
    // A pool patch whose pool moved in the garden: the `test` fails, also Stale.
    garden.update("Shoot", NS, "cluster-3", (s) => s.spec.provider.workers.reverse());
    await sync("cluster-3");
    garden.update("Shoot", NS, "cluster-3", (s) => s.spec.provider.workers.reverse());
    const pool = await writes.patchShoot(
      actor(),
      key("cluster-3"),
      { spec: { provider: { workers: [{ name: "pool-a", kubernetes: { version: "1.31.2" } }] } } },
      {},
      Date.now(),
    );
    expect(pool).toMatchObject({ ok: false, refusal: { code: "Stale" } });
    expect((await row("cluster-3")).gardenResourceVersion).toBe(
      garden.get("Shoot", NS, "cluster-3").metadata.resourceVersion,
    );
  });

  it("asks for maintenance with the operation annotation, once", async () => {
    const before = await row("cluster-4");
    const answer = await requestMaintainNow(writes, asked("cluster-4"));
    expect(answer.queued).toBe(true);
    expect(writesSent()).toHaveLength(1);
    expect(writesSent()[0]).toMatchObject({
      method: "PATCH",
      path: `${SHOOTS}/cluster-4`,
      contentType: "application/merge-patch+json",
      body: {
        metadata: {
          resourceVersion: before.gardenResourceVersion,
          annotations: { "gardener.cloud/operation": "maintain" },
        },
      },
    });
    expect(garden.get("Shoot", NS, "cluster-4").metadata.annotations["gardener.cloud/operation"]).toBe("maintain");
    expect(answer.resourceVersion).toBe(String((await row("cluster-4")).resourceVersion));
    // Already asked: nothing more is sent.
    const again = await requestMaintainNow(writes, asked("cluster-4"));
    expect(again.queued).toBe(false);
    expect(writesSent()).toHaveLength(1);
  });

  it("moves a control plane through the shoots/binding subresource and records the migration", async () => {
    const before = await row("cluster-5");
    const answer = await startShootMigration(writes, { ...asked("cluster-5"), body: { seedName: "seed-2" } });
    expect(answer).toMatchObject({ source: "seed-1", destination: "seed-2" });
    expect(writesSent()).toEqual([
      expect.objectContaining({
        method: "PATCH",
        path: `${SHOOTS}/cluster-5/binding`,
        contentType: "application/merge-patch+json",
        body: { metadata: { resourceVersion: before.gardenResourceVersion }, spec: { seedName: "seed-2" } },
      }),
    ]);
    expect((await row("cluster-5")).shoot.spec.seedName).toBe("seed-2");
    const migration = await latestMigration(database.db, NS, "cluster-5");
    expect(migration).toMatchObject({
      id: answer.id,
      actor: "admin",
      flow: { source: "seed-1", destination: "seed-2" },
    });
    // The engine's admission still refuses first.
    const refused = await writes.migrateShoot(actor(), key("cluster-6"), "seed-9", Date.now());
    expect(refused).toMatchObject({ ok: false, refusal: { code: "MigrationRefused" } });
    expect(writesSent()).toHaveLength(1);
  });

  it("deletes only a confirmed shoot, with DELETE as the person, and records the deletion", async () => {
    const unconfirmed = await writes.deleteShoot(actor(ADA), key("cluster-6"), Date.now());
    expect(unconfirmed).toMatchObject({ ok: false, refusal: { code: "DeletionNotConfirmed" } });
    expect(writesSent()).toEqual([]);
    const confirmed = await writes.patchShoot(
      actor(ADA),
      key("cluster-6"),
      { metadata: { annotations: { "confirmation.gardener.cloud/deletion": "true" } } },
      {},
      Date.now(),
    );
    expect(confirmed.ok).toBe(true);
    expect(writesSent()[0].body).toEqual({
      metadata: {
        resourceVersion: expect.any(String),
        annotations: { "confirmation.gardener.cloud/deletion": "true" },
      },
    });
    const before = await row("cluster-6");
    const answer = await deleteShoot(writes, asked("cluster-6", ADA));
    const sent = writesSent()[1];
    expect(sent).toMatchObject({ method: "DELETE", path: `${SHOOTS}/cluster-6`, user: "ada@example.com" });
    expect(sent.body).toMatchObject({
      preconditions: { uid: before.shoot.metadata.uid, resourceVersion: before.gardenResourceVersion },
    });
    const after = await row("cluster-6");
    expect(after.shoot.metadata.deletionTimestamp).toBe(
      garden.get("Shoot", NS, "cluster-6").metadata.deletionTimestamp,
    );
    expect((await latestDeletion(database.db, NS, "cluster-6"))?.id).toBe(answer.id);
    // Being deleted now: refused by the engine, not sent again.
    const again = await writes.deleteShoot(actor(ADA), key("cluster-6"), Date.now());
    expect(again).toMatchObject({ ok: false, refusal: { code: "BeingDeleted" } });
    expect(writesSent()).toHaveLength(2);
  });

  it("answers the garden's RBAC refusal as 403 naming the verb and resource, in the garden's words", async () => {
    const eve: GardenIdentity = { kind: "person", user: "eve@example.com", groups: ["viewers"] };
    const written = await writes.patchShoot(
      actor(eve),
      key("cluster-7"),
      { spec: { hibernation: { enabled: true } } },
      {},
      Date.now(),
    );
    expect(written).toEqual({
      ok: false,
      refusal: {
        code: "GardenForbidden",
        verb: "patch",
        resource: "shoots",
        message: `shoots.core.gardener.cloud "cluster-7" is forbidden: User "eve@example.com" cannot patch resource "shoots" in API group "core.gardener.cloud" in the namespace "${NS}"`,
      },
    });
    const error = await thrown(
      updateShootFromPatch(writes, {
        ...asked("cluster-7", eve),
        body: { spec: { hibernation: { enabled: true } } },
        ifMatch: null,
      }),
    );
    expect(error.status).toBe(403);
    expect(error.message).toContain("patch shoots");
    expect(error.message).toContain('User "eve@example.com" cannot patch resource "shoots"');
    expect(error.extensions).toMatchObject({ verb: "patch", resource: "shoots" });
  });

  it("answers a webhook's refusal (422) with its message", async () => {
    garden.admit = () => ({
      code: 422,
      reason: "Invalid",
      message: 'admission webhook "freeze.example.com" denied the request: production freeze until Monday',
    });
    const error = await thrown(
      updateShootFromPatch(writes, {
        ...asked("cluster-7"),
        body: { spec: { maintenance: { autoUpdate: { kubernetesVersion: true } } } },
        ifMatch: null,
      }),
    );
    expect(error.status).toBe(422);
    expect(error.message).toContain("production freeze until Monday");
    expect(error.errors[0]).toMatchObject({ detail: expect.stringContaining("production freeze until Monday") });
    // A webhook's denial with Kubernetes' default code 403 is the garden refusing, not the person's rights.
    garden.admit = () => ({
      code: 403,
      reason: "Forbidden",
      message: 'admission webhook "freeze.example.com" denied the request: production freeze until Monday',
    });
    const denied = await writes.patchShoot(
      actor(),
      key("cluster-7"),
      { spec: { maintenance: { autoUpdate: { kubernetesVersion: true } } } },
      {},
      Date.now(),
    );
    expect(denied).toMatchObject({ ok: false, refusal: { code: "GardenRefused", status: 403 } });
  });

  it("sends tolerations no whitelist Almanac knows allows, and passes on the garden's refusal in its words", async () => {
    // The project in the mirror whitelists nothing, but the garden's global whitelist may: the
    // garden decides. Its ShootTolerationRestriction answers 403 Forbidden.
    const message =
      'shoots.core.gardener.cloud "cluster-7" is forbidden: error while validating tolerations against allowlist: [spec.tolerations[0]: Forbidden: only the following tolerations are allowed: []]';
    garden.admit = () => ({ code: 403, reason: "Forbidden", message });
    const before = await row("cluster-7");
    const refused = await writes.patchShoot(
      actor(),
      key("cluster-7"),
      { spec: { tolerations: [{ key: "gpu" }, { key: "dedicated", value: "payments" }] } },
      {},
      Date.now(),
    );
    expect(writesSent()).toHaveLength(1);
    expect(writesSent()[0]).toMatchObject({ method: "PATCH", contentType: "application/merge-patch+json" });
    expect(writesSent()[0].body).toEqual({
      metadata: { resourceVersion: before.gardenResourceVersion },
      spec: { tolerations: [{ key: "gpu" }, { key: "dedicated", value: "payments" }] },
    });
    expect(refused).toMatchObject({ ok: false, refusal: { code: "GardenRefused", status: 403, message } });
    expect((await row("cluster-7")).shoot.spec.tolerations).toBeUndefined();
    // What the shoot's validation refuses never reaches the garden.
    garden.requests.length = 0;
    const invalid = await writes.patchShoot(
      actor(),
      key("cluster-7"),
      { spec: { tolerations: [{ key: "" }] } },
      {},
      Date.now(),
    );
    expect(invalid).toMatchObject({
      ok: false,
      refusal: { code: "Invalid", problems: [{ field: "spec.tolerations[0].key", type: "Required" }] },
    });
    expect(writesSent()).toHaveLength(0);
  });

  it("sends hibernation schedules as the same merge patch, mirrors them, removes them with null, and refuses a bad cron first", async () => {
    const before = await row("cluster-8");
    const schedules = [{ start: "0 19 * * 1-5", end: "0 7 * * 1-5", location: "Europe/Berlin" }];
    const written = await writes.patchShoot(
      actor(),
      key("cluster-8"),
      { spec: { hibernation: { schedules } } },
      {},
      Date.now(),
    );
    expect(written, JSON.stringify(written)).toMatchObject({ ok: true });
    expect(writesSent()).toHaveLength(1);
    expect(writesSent()[0]).toMatchObject({ method: "PATCH", contentType: "application/merge-patch+json" });
    expect(writesSent()[0].body).toEqual({
      metadata: { resourceVersion: before.gardenResourceVersion },
      spec: { hibernation: { schedules } },
    });
    expect((garden.get("Shoot", NS, "cluster-8") as Shoot).spec.hibernation?.schedules).toEqual(schedules);
    expect((await row("cluster-8")).shoot.spec.hibernation?.schedules).toEqual(schedules);
    garden.requests.length = 0;
    const removed = await writes.patchShoot(
      actor(),
      key("cluster-8"),
      { spec: { hibernation: { schedules: null } } },
      {},
      Date.now(),
    );
    expect(removed.ok).toBe(true);
    expect(writesSent()[0].body).toMatchObject({ spec: { hibernation: { schedules: null } } });
    expect((await row("cluster-8")).shoot.spec.hibernation?.schedules).toBeUndefined();
    garden.requests.length = 0;
    const invalid = await writes.patchShoot(
      actor(),
      key("cluster-8"),
      { spec: { hibernation: { schedules: [{ start: "0 25 * * *", location: "Mars/Olympus" }] } } },
      {},
      Date.now(),
    );
    expect(invalid).toMatchObject({
      ok: false,
      refusal: {
        code: "Invalid",
        problems: [
          { field: "spec.hibernation.schedules[0].start", type: "Invalid" },
          { field: "spec.hibernation.schedules[0].location", type: "Invalid" },
        ],
      },
    });
    expect(writesSent()).toHaveLength(0);
  });

  it("impersonates a person: their user, and each group on its own header line", async () => {
    await writes.patchShoot(actor(ADA), key("cluster-7"), { spec: { hibernation: { enabled: true } } }, {}, Date.now());
    const sent = writesSent()[0];
    expect(sent.user).toBe("ada@example.com");
    expect(sent.groups).toEqual(expect.arrayContaining(["team-a", "shoot-editors"]));
    expect(sent.groups).not.toContain("team-a, shoot-editors");
    expect(sent.impersonatedBy).toBe(garden.almanacUser);
  });

  it("acts as Almanac itself for the admin token: no impersonation", async () => {
    await writes.patchShoot(actor(), key("cluster-7"), { spec: { hibernation: { enabled: false } } }, {}, Date.now());
    const sent = writesSent()[0];
    expect(sent.user).toBe(garden.almanacUser);
    expect(sent.impersonatedBy).toBeUndefined();
  });

  it("says when the garden refuses Almanac's own credentials (502) or does not answer (503, Retry-After)", async () => {
    const wrongToken = new KubeConfig();
    wrongToken.loadFromFile(garden.writeKubeconfig({ token: "not-a-token" }));
    const refused = await thrown(
      requestMaintainNow(kubernetesShootWrites(database.db, wrongToken, "impersonation"), asked("cluster-0")),
    );
    expect(refused.status).toBe(502);
    expect(refused.message).toContain("refused Almanac's own credentials");

    const nowhere = new KubeConfig();
    nowhere.loadFromOptions({
      clusters: [{ name: "gone", server: "http://127.0.0.1:9", skipTLSVerify: true }],
      users: [{ name: "almanac", token: garden.almanacToken }],
      contexts: [{ name: "gone", cluster: "gone", user: "almanac" }],
      currentContext: "gone",
    });
    const unanswered = await thrown(
      requestMaintainNow(kubernetesShootWrites(database.db, nowhere, "impersonation"), asked("cluster-0")),
    );
    expect(unanswered.status).toBe(503);
    expect(unanswered.headers).toMatchObject({ "retry-after": "5" });
    expect(unanswered.message).toContain("The garden did not answer");
  });
});

describe("the live garden's write port: registry mirrors (spec.extensions)", () => {
  const config = (host: string) => ({
    apiVersion: "mirror.extensions.gardener.cloud/v1alpha1",
    kind: "MirrorConfig",
    mirrors: [{ upstream: "docker.io", hosts: [{ host }] }],
  });
  const mirrors = (providerConfig: unknown) => ({
    spec: { extensions: [{ type: "registry-mirror", providerConfig }] },
  });

  it("sends a JSON patch of that extension alone, keeping the shoot's other extensions, and mirrors the answer", async () => {
    garden.update("Shoot", NS, "cluster-1", (s) => {
      s.spec.extensions = [{ type: "shoot-dns-service" }];
    });
    await sync("cluster-1");
    const before = await row("cluster-1");
    const written = await writes.patchShoot(
      actor(ADA),
      key("cluster-1"),
      mirrors(config("https://a.example.com")),
      {},
      Date.now(),
    );
    expect(written.ok).toBe(true);
    expect(writesSent()[0]).toMatchObject({ method: "PATCH", contentType: "application/json-patch+json" });
    expect(writesSent()[0].body).toEqual([
      { op: "replace", path: "/metadata/resourceVersion", value: before.gardenResourceVersion },
      {
        op: "add",
        path: "/spec/extensions/-",
        value: { type: "registry-mirror", providerConfig: config("https://a.example.com") },
      },
    ]);
    expect(garden.get("Shoot", NS, "cluster-1").spec.extensions.map((e: { type: string }) => e.type)).toEqual([
      "shoot-dns-service",
      "registry-mirror",
    ]);
    expect((await row("cluster-1")).shoot.spec.extensions?.[1].providerConfig).toEqual(config("https://a.example.com"));

    garden.requests.length = 0;
    const added = await row("cluster-1");
    const removed = await writes.patchShoot(actor(ADA), key("cluster-1"), mirrors(null), {}, Date.now());
    expect(removed.ok).toBe(true);
    expect(writesSent()[0].body).toEqual([
      { op: "replace", path: "/metadata/resourceVersion", value: added.gardenResourceVersion },
      { op: "test", path: "/spec/extensions/1/type", value: "registry-mirror" },
      { op: "remove", path: "/spec/extensions/1" },
    ]);
    expect(garden.get("Shoot", NS, "cluster-1").spec.extensions).toEqual([{ type: "shoot-dns-service" }]);
  });

  it("refuses an invalid configuration before the garden is asked, and passes the garden's refusal on in its words", async () => {
    const invalid = await writes.patchShoot(
      actor(),
      key("cluster-1"),
      mirrors(config("mirror.example.com")),
      {},
      Date.now(),
    );
    expect(invalid).toMatchObject({
      ok: false,
      refusal: {
        code: "Invalid",
        problems: [{ field: "spec.extensions[type=registry-mirror].providerConfig.mirrors[0].hosts[0].host" }],
      },
    });
    expect(writesSent()).toEqual([]);

    const words =
      'admission webhook "validator.registry-cache.extensions.gardener.cloud" denied the request: ' +
      "upstream host 'docker.io' is also configured as a registry cache upstream";
    garden.admit = () => ({ code: 422, reason: "Invalid", message: words });
    const error = await thrown(
      updateShootFromPatch(writes, {
        ...asked("cluster-1"),
        body: mirrors(config("https://b.example.com")),
        ifMatch: null,
      }),
    );
    expect(error.status).toBe(422);
    expect(error.message).toContain(words);
  });
});

describe("the live garden's write port with ALMANAC_GARDEN_IDENTITY=oidc", () => {
  const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const idToken = (exp: number) =>
    `${b64({ alg: "RS256" })}.${b64({ sub: "grace", exp: Math.floor(exp / 1000), jti: randomUUID() })}.sig`;
  const GRACE: GardenIdentity = {
    kind: "person",
    user: "grace@example.com",
    groups: ["shoot-editors"],
    userId: "u-grace",
  };
  let oidcWrites: ShootWrites;

  beforeAll(async () => {
    await database.db.user.create({ data: { id: "u-grace", name: "Grace", email: "grace@example.com" } });
    await database.db.user.create({ data: { id: "u-hal", name: "Hal", email: "hal@example.com" } });
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromFile(garden.writeKubeconfig());
    oidcWrites = kubernetesShootWrites(database.db, kubeConfig, "oidc");
  });

  const signIn = (token: string) =>
    database.db.account.upsert({
      where: { id: "a-grace" },
      create: { id: "a-grace", accountId: "grace", providerId: "oidc", userId: "u-grace", idToken: token },
      update: { idToken: token },
    });

  it("sends the person's own ID token, not Almanac's credentials", async () => {
    const token = idToken(Date.now() + 3_600_000);
    await signIn(token);
    garden.addToken(token, "grace@example.com", ["shoot-editors"]);
    const written = await oidcWrites.patchShoot(
      actor(GRACE),
      key("cluster-0"),
      { spec: { hibernation: { enabled: true } } },
      {},
      Date.now(),
    );
    expect(written.ok).toBe(true);
    const sent = writesSent()[0];
    expect(sent.user).toBe("grace@example.com");
    expect(sent.groups).toContain("shoot-editors");
    expect(sent.impersonatedBy).toBeUndefined();
  });

  it("refuses an expired token with 401, sending nothing, and a token the garden does not accept likewise", async () => {
    await signIn(idToken(Date.now() - 60_000));
    const error = await thrown(
      updateShootFromPatch(oidcWrites, {
        ...asked("cluster-0", GRACE),
        body: { spec: { hibernation: { enabled: false } } },
        ifMatch: null,
      }),
    );
    expect(error.status).toBe(401);
    expect(error.message).toContain("Sign in again");
    expect(writesSent()).toEqual([]);
    await signIn(idToken(Date.now() + 3_600_000)); // a token the garden does not know
    const refused = await oidcWrites.patchShoot(
      actor(GRACE),
      key("cluster-0"),
      { spec: { hibernation: { enabled: false } } },
      {},
      Date.now(),
    );
    expect(refused).toMatchObject({ ok: false, refusal: { code: "SignInAgain" } });
  });

  it("refuses, saying what they can do, someone without a garden identity of their own, sending nothing", async () => {
    const hal: GardenIdentity = { kind: "person", user: "hal@example.com", groups: ["shoot-editors"], userId: "u-hal" };
    const password: GardenIdentity = { kind: "person", user: "almanac:user:ivy@example.com", groups: [] };
    const token: GardenIdentity = { kind: "person", user: "almanac:token:ci", groups: [] };
    for (const who of [hal, password, token]) {
      const refused = await oidcWrites.patchShoot(
        actor(who),
        key("cluster-0"),
        { spec: { hibernation: { enabled: false } } },
        {},
        Date.now(),
      );
      expect(refused).toMatchObject({ ok: false, refusal: { code: "NoGardenIdentity" } });
    }
    const error = await thrown(
      updateShootFromPatch(oidcWrites, {
        ...asked("cluster-0", password),
        body: { spec: { hibernation: { enabled: false } } },
        ifMatch: null,
      }),
    );
    expect(error.status).toBe(403);
    expect(error.message).toContain("a password account has none in the garden");
    expect(error.message).toContain("It can read what the garden lets almanac:user:ivy@example.com read");
    expect(error.message).toContain("admin token");
    expect(writesSent()).toEqual([]);
  });

  it("lets the admin token change shoots as Almanac's own identity", async () => {
    const written = await oidcWrites.patchShoot(
      actor(),
      key("cluster-0"),
      { spec: { hibernation: { enabled: false } } },
      {},
      Date.now(),
    );
    expect(written.ok).toBe(true);
    expect(writesSent()[0]).toMatchObject({ user: garden.almanacUser });
    expect(writesSent()[0].impersonatedBy).toBeUndefined();
  });
});

describe("the live garden's write port with ALMANAC_GARDEN_IDENTITY=read-only", () => {
  it("refuses every person, sending nothing; the admin token still writes as Almanac", async () => {
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromFile(garden.writeKubeconfig());
    const readOnly = kubernetesShootWrites(database.db, kubeConfig, "read-only");
    const refused = await readOnly.patchShoot(
      actor(ADA),
      key("cluster-0"),
      { spec: { hibernation: { enabled: true } } },
      {},
      Date.now(),
    );
    expect(refused).toMatchObject({ ok: false, refusal: { code: "NoGardenIdentity" } });
    expect(writesSent()).toEqual([]);
    const written = await readOnly.patchShoot(
      actor(),
      key("cluster-0"),
      { spec: { hibernation: { enabled: true } } },
      {},
      Date.now(),
    );
    expect(written.ok).toBe(true);
    expect(writesSent()[0]).toMatchObject({ user: garden.almanacUser });
  });
});

describe("impersonation never of Kubernetes' own names", () => {
  it("refuses a system: user or group, sending nothing", async () => {
    for (const who of [
      { kind: "person", user: "system:admin", groups: [] },
      { kind: "person", user: "mallory@example.com", groups: ["system:masters"] },
    ] satisfies GardenIdentity[]) {
      const refused = await writes.patchShoot(
        actor(who),
        key("cluster-0"),
        { spec: { hibernation: { enabled: false } } },
        {},
        Date.now(),
      );
      expect(refused).toMatchObject({ ok: false, refusal: { code: "NoGardenIdentity" } });
      expect((refused as { refusal: { message: string } }).refusal.message).toContain("never impersonates");
    }
    expect(writesSent()).toEqual([]);
  });

  it("the interceptor itself refuses them, whoever asks", () => {
    expect(() => impersonating({ user: "system:serviceaccount:kube-system:x", groups: [] })).toThrow(
      SystemImpersonationError,
    );
    expect(() => impersonating({ user: "ada@example.com", groups: ["system:masters"] })).toThrow(/system:masters/);
    expect(() => impersonating({ user: "ada@example.com", groups: ["team-a"] })).not.toThrow();
  });
});

describe("the garden's edge cases", () => {
  it("refuses maintenance now while another operation asked with the annotation is pending, naming it, and sends nothing", async () => {
    garden.update("Shoot", NS, "cluster-8", (s) => {
      s.metadata.annotations = { ...s.metadata.annotations, "gardener.cloud/operation": "rotate-ca-start" };
    });
    await sync("cluster-8");
    const error = await thrown(requestMaintainNow(writes, asked("cluster-8")));
    expect(error.status).toBe(409);
    expect(error.message).toContain('"rotate-ca-start"');
    expect(error.extensions).toEqual({ pendingOperations: ["rotate-ca-start"] });
    expect(writesSent()).toEqual([]);
    expect(garden.get("Shoot", NS, "cluster-8").metadata.annotations["gardener.cloud/operation"]).toBe(
      "rotate-ca-start",
    );
  });

  it("answers a pool removed in the garden since the mirror (the patch's test misses its path) as Stale", async () => {
    // The mirror's pool-b on the older image (the update is one the engine lets through), then
    // the pool removed in the garden only.
    garden.update("Shoot", NS, "cluster-2", (s) => {
      s.spec.provider.workers.find((w: { name: string }) => w.name === "pool-b").machine.image.version = "1592.4.0";
    });
    await sync("cluster-2");
    const version = "1877.2.0";
    garden.update("Shoot", NS, "cluster-2", (s) => {
      s.spec.provider.workers = s.spec.provider.workers.filter((w: { name: string }) => w.name !== "pool-b");
    });
    const written = await writes.patchShoot(
      actor(),
      key("cluster-2"),
      { spec: { provider: { workers: [{ name: "pool-b", machine: { image: { version } } }] } } },
      {},
      Date.now(),
    );
    expect(written).toMatchObject({ ok: false, refusal: { code: "Stale" } });
    // Mirrored at once, as for any Stale answer: the pool is gone there too.
    expect((await row("cluster-2")).shoot.spec.provider!.workers!.map((w) => w.name)).toEqual(["pool-a"]);
  });

  it("answers a binding to the seed the garden's shoot is on already (a 500 from the garden) as a refusal of the move", async () => {
    const before = await row("cluster-7");
    expect(before.shoot.spec.seedName).toBe("seed-1");
    garden.update("Shoot", NS, "cluster-7", (s) => {
      s.spec.seedName = "seed-2";
    });
    const written = await writes.migrateShoot(actor(), key("cluster-7"), "seed-2", Date.now());
    expect(written).toEqual({
      ok: false,
      refusal: {
        code: "MigrationRefused",
        destination: "seed-2",
        refusals: [
          {
            field: "spec.seedName",
            type: "Invalid",
            detail: "Internal error occurred: update of binding rejected, shoot is already assigned to the same seed",
          },
        ],
      },
    });
    const error = await thrown(startShootMigration(writes, { ...asked("cluster-7"), body: { seedName: "seed-2" } }));
    expect(error.status).toBe(422);
    expect(error.message).toContain("already assigned to the same seed");
    expect(await latestMigration(database.db, NS, "cluster-7")).toBeUndefined();
  });
  it("recognises a live control-plane migration (migration.gardener.cloud/live-migrate) and records it as live", async () => {
    const from = (await row("cluster-0")).shoot.spec.seedName;
    const destination = from === "seed-1" ? "seed-2" : "seed-1";
    garden.update("Shoot", NS, "cluster-0", (s) => {
      s.metadata.annotations = { ...s.metadata.annotations, "migration.gardener.cloud/live-migrate": "True" };
    });
    await sync("cluster-0");
    const written = await writes.migrateShoot(actor(), key("cluster-0"), destination, Date.now());
    expect(written).toMatchObject({ ok: true, value: { flow: { destination, live: true } } });
    expect((await latestMigration(database.db, NS, "cluster-0"))?.flow).toMatchObject({ destination, live: true });
  });
  it("deletes a shoot confirmed with any true boolean, as Gardener does", async () => {
    garden.update("Shoot", NS, "cluster-4", (s) => {
      s.metadata.annotations = { ...s.metadata.annotations, "confirmation.gardener.cloud/deletion": "t" };
    });
    await sync("cluster-4");
    const written = await writes.deleteShoot(actor(ADA), key("cluster-4"), Date.now());
    expect(written.ok).toBe(true);
    expect(garden.get("Shoot", NS, "cluster-4").metadata.deletionTimestamp).toBeDefined();
  });

  it("under the project's dual approval, lets only someone other than the confirmer delete, and reads the garden's refusal so too", async () => {
    garden.update("Project", undefined, "dev", (p) => {
      p.spec.dualApprovalForDeletion = [{ resource: "shoots", selector: { matchLabels: { env: "prod" } } }];
    });
    await database.db.$transaction((tx) => mirrorObject(tx, "Project", garden.get("Project", undefined, "dev")));
    for (const name of ["cluster-1", "cluster-3"]) {
      garden.update("Shoot", NS, name, (s) => {
        s.metadata.labels = { ...s.metadata.labels, env: "prod" };
      });
      await sync(name);
    }
    const confirm = { metadata: { annotations: { "confirmation.gardener.cloud/deletion": "true" as const } } };
    // Ada confirms (the garden records her), then may not delete: the engine says so, nothing is sent.
    expect((await writes.patchShoot(actor(ADA), key("cluster-1"), confirm, {}, Date.now())).ok).toBe(true);
    expect((await row("cluster-1")).shoot.metadata.annotations?.["deletion.gardener.cloud/confirmed-by"]).toBe(
      "ada@example.com",
    );
    garden.requests.length = 0;
    const refused = await thrown(deleteShoot(writes, asked("cluster-1", ADA)));
    expect(refused.status).toBe(422);
    expect(refused.message).toContain("ada@example.com");
    expect(refused.message).toContain("dualApprovalForDeletion");
    expect(writesSent()).toEqual([]);
    // Someone else (here Almanac's own identity) may.
    expect((await writes.deleteShoot(actor(), key("cluster-1"), Date.now())).ok).toBe(true);
    // Almanac's own identity confirms and deletes: only the garden knows it is the same subject.
    expect((await writes.patchShoot(actor(), key("cluster-3"), confirm, {}, Date.now())).ok).toBe(true);
    const same = await writes.deleteShoot(actor(), key("cluster-3"), Date.now());
    expect(same).toMatchObject({
      ok: false,
      refusal: {
        code: "DeletionNeedsAnotherSubject",
        message: expect.stringContaining("another subject must perform the deletion"),
      },
    });
  });
});
