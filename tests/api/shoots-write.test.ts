// PATCH of a shoot over HTTP: what may change, what is refused and why, optimistic concurrency,
// and the audit trail, against the production build and a real PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GardenAdmissionRule } from "../../lib/engine/garden-admission.ts";
import { seedLandscape } from "../../lib/server/seed-landscape.ts";
import { ADMIN_HEADERS, call, patch } from "../support/api-client.ts";
import { type AppServer, startNext } from "../support/app-server.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { smallLandscape } from "../support/small-landscape.ts";
import { tokenHeader } from "../support/tokens.ts";

let database: TestDatabase;
let server: AppServer;
let base: string;
const now = Date.now();
const path = (name: string) => `/api/v1/namespaces/garden-dev/shoots/${name}`;
const KYVERNO: GardenAdmissionRule = {
  webhook: "validate.kyverno.svc-fail",
  match: { shoots: ["garden-dev/cluster-0"] },
  action: { type: "Timeout" },
};
const KYVERNO_ANSWER =
  'Internal error occurred: failed calling webhook "validate.kyverno.svc-fail": failed to call webhook: context deadline exceeded';

beforeAll(async () => {
  database = await createTestDatabase();
  // cluster-0's updates are rejected by a kyverno webhook that does not answer (as the demo's are).
  const landscape = { ...smallLandscape(now, 12), admissionRules: [KYVERNO] };
  await seedLandscape(database.db, landscape, { actor: "test", now });
  server = await startNext(database.url);
  base = server.baseUrl;
});

afterAll(async () => {
  await server?.stop();
  await database?.drop();
});

const auditCount = async () => database.db.auditEvent.count();

/** Sends `body`, expects `status`, and checks that nothing was written. */
async function refused(name: string, body: unknown, status: number, headers: Record<string, string> = {}) {
  const before = await call(base, path(name));
  const events = await auditCount();
  const r = await patch(base, path(name), body, headers);
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  expect(r.headers.get("content-type")).toBe("application/problem+json");
  const after = await call(base, path(name));
  expect(after.body).toEqual(before.body);
  expect(await auditCount()).toBe(events);
  return r.body;
}

describe("PATCH a shoot", () => {
  it("changes the window and auto-update flags, bumps the resourceVersion and audits the change", async () => {
    const r = await patch(
      base,
      path("cluster-1"),
      {
        spec: {
          maintenance: {
            timeWindow: { begin: "030000+0200", end: "040000+0200" },
            autoUpdate: { kubernetesVersion: true },
          },
        },
      },
      { ...(await tokenHeader(database.db, "alice", "operator")), "x-request-id": "req-window-1" },
    );
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.metadata.resourceVersion).toBe("2");
    expect(r.headers.get("etag")).toBe('"2"');
    expect(r.body.spec.maintenance.timeWindow).toEqual({ begin: "030000+0200", end: "040000+0200" });
    expect(r.body.spec.maintenance.autoUpdate).toEqual({ kubernetesVersion: true, machineImageVersion: false });

    const read = await call(base, path("cluster-1"));
    expect(read.body.spec.maintenance.timeWindow.begin).toBe("030000+0200");

    const audit = await call(base, "/api/v1/audit?actor=token:alice");
    expect(audit.body.items).toHaveLength(1);
    expect(audit.body.items[0]).toMatchObject({
      actor: "token:alice",
      action: "shoot.update",
      target: { kind: "Shoot", namespace: "garden-dev", name: "cluster-1" },
      requestId: "req-window-1",
    });
    expect(audit.body.items[0].changes).toEqual([
      { field: "spec.maintenance.timeWindow.begin", before: "220000+0000", after: "030000+0200" },
      { field: "spec.maintenance.timeWindow.end", before: "230000+0000", after: "040000+0200" },
      { field: "spec.maintenance.autoUpdate.kubernetesVersion", before: false, after: true },
    ]);
    const history = await call(base, `${path("cluster-1")}/history`);
    expect(history.body.items[0]).toMatchObject({ type: "audit", action: "shoot.update", actor: "token:alice" });

    const list = await call(base, "/api/v1/shoots?q=cluster-1&limit=1");
    expect(list.body.items[0].maintenance.timeWindow.begin).toBe("030000+0200");
  });

  it("updates versions: control plane by one minor, a pool's image, and removes optional fields with null", async () => {
    const before = await call(base, path("cluster-2"));
    const r = await patch(base, path("cluster-2"), {
      spec: {
        kubernetes: { version: "1.31.4" },
        provider: { workers: [{ name: "pool-b", machine: { image: { version: "1877.2.0" } } }] },
        maintenance: { autoUpdate: { machineImageVersion: null }, confineSpecUpdateRollout: true },
      },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.spec.kubernetes.version).toBe("1.31.4");
    expect(r.body.spec.provider.workers.map((w: any) => w.machine.image.version)).toEqual(["1592.4.0", "1877.2.0"]);
    expect(r.body.spec.maintenance.autoUpdate).toEqual({ kubernetesVersion: false });
    expect(r.body.spec.maintenance.confineSpecUpdateRollout).toBe(true);
    // With confineSpecUpdateRollout on the new object, only a hibernation change raises the
    // generation (Gardener: strategy.go, mustIncreaseGenerationForSpecChanges).
    expect(r.body.metadata.generation).toBe(before.body.metadata.generation);
  });

  it("acts on gardener.cloud/operation as gardener-apiserver's strategy does (strategy.go, mustIncreaseGeneration)", async () => {
    const before = await call(base, path("cluster-4"));
    expect(before.body.status.lastOperation.state).toBe("Succeeded");
    const generation = before.body.metadata.generation ?? 0;
    // retry on a shoot whose last operation did not fail: kept, the generation unchanged.
    const retry = await patch(base, path("cluster-4"), {
      metadata: { annotations: { "gardener.cloud/operation": "retry" } },
    });
    expect(retry.status, JSON.stringify(retry.body)).toBe(200);
    expect(retry.body.metadata.annotations["gardener.cloud/operation"]).toBe("retry");
    expect(retry.body.metadata.generation ?? 0).toBe(generation);
    // reconcile: consumed, the generation raised; the audit keeps what was asked.
    const reconcile = await patch(base, path("cluster-4"), {
      metadata: { annotations: { "gardener.cloud/operation": "reconcile" } },
    });
    expect(reconcile.status, JSON.stringify(reconcile.body)).toBe(200);
    expect(reconcile.body.metadata.annotations?.["gardener.cloud/operation"]).toBeUndefined();
    expect(reconcile.body.metadata.generation).toBe(generation + 1);
    const audit = await call(base, "/api/v1/audit?action=shoot.update&limit=1");
    expect(audit.body.items[0].changes).toEqual([
      { field: "metadata.annotations[gardener.cloud/operation]", before: "retry", after: "reconcile" },
    ]);
  });

  it("writes nothing and audits nothing when the patch changes nothing", async () => {
    const events = await auditCount();
    for (const body of [
      { spec: { kubernetes: { version: "1.31.2" } } },
      { spec: { maintenance: { autoUpdate: {} } } },
      {},
    ]) {
      const r = await patch(base, path("cluster-3"), body);
      expect(r.status).toBe(200);
      expect(r.body.metadata.resourceVersion).toBe("1");
    }
    expect(await auditCount()).toBe(events);
  });

  it("refuses to remove what every shoot must have, with 422", async () => {
    for (const [body, field] of [
      [{ spec: { maintenance: null } }, "spec.maintenance"],
      [{ spec: { maintenance: { timeWindow: null } } }, "spec.maintenance.timeWindow"],
      [{ spec: { maintenance: { autoUpdate: null } } }, "spec.maintenance.autoUpdate"],
      [
        { spec: { maintenance: { autoUpdate: { kubernetesVersion: null } } } },
        "spec.maintenance.autoUpdate.kubernetesVersion",
      ],
    ] as const) {
      const problem = await refused("cluster-3", body, 422);
      expect(problem.errors).toEqual([expect.objectContaining({ field, type: "Forbidden" })]);
    }
  });

  it("refuses malformed JSON, non-objects, wrong media types and oversized bodies", async () => {
    expect((await refused("cluster-4", '{"spec": ', 400)).detail).toMatch(/not valid JSON/);
    await refused("cluster-4", "[1,2]", 400);
    await refused("cluster-4", "", 400);
    expect((await refused("cluster-4", {}, 415, { "content-type": "text/plain" })).detail).toMatch(/Content-Type/);
    const huge = JSON.stringify({ spec: { kubernetes: { version: "1.31.4" } }, pad: "x".repeat(1024 * 1024) });
    expect((await refused("cluster-4", huge, 413)).title).toBe("Content Too Large");
  });

  it("refuses unknown fields and wrong types with 400, naming each field", async () => {
    const unknown = await refused(
      "cluster-4",
      {
        spec: {
          purpose: "production",
          maintenance: { timeWindow: { begin: "010000+0000", end: "020000+0000", zone: "x" } },
        },
      },
      400,
    );
    expect(unknown.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: "spec.purpose", type: "Unknown" }),
        expect.objectContaining({ field: "spec.maintenance.timeWindow.zone", type: "Unknown" }),
      ]),
    );
    const wrongType = await refused(
      "cluster-4",
      { spec: { maintenance: { autoUpdate: { kubernetesVersion: "yes" } } } },
      400,
    );
    expect(wrongType.errors).toEqual([
      expect.objectContaining({ field: "spec.maintenance.autoUpdate.kubernetesVersion", type: "TypeMismatch" }),
    ]);
    const nullVersion = await refused("cluster-4", { spec: { kubernetes: { version: null } } }, 400);
    expect(nullVersion.errors[0].field).toBe("spec.kubernetes.version");
    const status = await refused("cluster-4", { status: { lastOperation: { state: "Succeeded" } } }, 400);
    expect(status.errors[0]).toMatchObject({ field: "status", type: "Unknown" });
    const nameAlone = await refused(
      "cluster-4",
      { spec: { provider: { workers: [{ name: "pool-a", machine: { image: { name: "ubuntu" } } }] } } },
      400,
    );
    expect(nameAlone.errors[0].field).toBe("spec.provider.workers[0].machine.image.version");
  });

  it("refuses rule violations with 422, naming the field and the rule", async () => {
    const cases: [unknown, string, RegExp][] = [
      [{ spec: { kubernetes: { version: "1.30.5" } } }, "spec.kubernetes.version", /downgrade/],
      [{ spec: { kubernetes: { version: "1.33.0" } } }, "spec.kubernetes.version", /not offered/],
      [{ spec: { kubernetes: { version: "banana" } } }, "spec.kubernetes.version", /semantic version/],
      [
        { spec: { maintenance: { timeWindow: { begin: "250000+0000", end: "260000+0000" } } } },
        "spec.maintenance.timeWindow.begin/end",
        /hour out of range/,
      ],
      [
        { spec: { maintenance: { timeWindow: { begin: "010000+0000", end: "011000+0000" } } } },
        "spec.maintenance.timeWindow",
        /30m|minutes|at least/,
      ],
      [
        { spec: { provider: { workers: [{ name: "pool-a", machine: { image: { version: "1592.1.0" } } }] } } },
        "spec.provider.workers[0].machine.image.version",
        /expired/,
      ],
      [
        { spec: { provider: { workers: [{ name: "pool-a", kubernetes: { version: "1.32.0" } }] } } },
        "spec.provider.workers[0].kubernetes.version",
        /higher than the control plane|skip/,
      ],
      [
        { spec: { provider: { workers: [{ name: "pool-z", machine: { image: { version: "1877.2.0" } } }] } } },
        "spec.provider.workers[0].name",
        /pool-z/,
      ],
      [
        {
          spec: {
            provider: { workers: [{ name: "pool-a", machine: { image: { name: "ubuntu", version: "1.0.0" } } }] },
          },
        },
        "spec.provider.workers[0].machine.image.name",
        /"ubuntu" is not offered .*images: gardenlinux/,
      ],
    ];
    for (const [body, field, detail] of cases) {
      const problem = await refused("cluster-5", body, 422);
      const match = problem.errors.find((e: any) => e.field === field || e.field.startsWith(`${field}.`));
      expect(match, `${JSON.stringify(body)} -> ${JSON.stringify(problem.errors)}`).toBeDefined();
      expect(match.detail).toMatch(detail);
    }
  });

  it("answers 404 for an unknown shoot and 409 for a stale resourceVersion", async () => {
    expect((await patch(base, path("nope"), { spec: { kubernetes: { version: "1.31.4" } } })).status).toBe(404);
    const stale = await refused(
      "cluster-6",
      { metadata: { resourceVersion: "7" }, spec: { kubernetes: { version: "1.31.4" } } },
      409,
    );
    expect(stale.currentResourceVersion).toBe("1");
    const staleHeader = await refused("cluster-6", { spec: { kubernetes: { version: "1.31.4" } } }, 409, {
      "if-match": '"3"',
    });
    expect(staleHeader.detail).toMatch(/changed since you read it/);
    await refused("cluster-6", {}, 400, { "if-match": "yesterday" });
    await refused("cluster-6", {}, 400, { "if-match": '"1' });
    // If-Match compares strongly: a weak tag never matches.
    const weak = await patch(
      base,
      path("cluster-6"),
      { spec: { kubernetes: { version: "1.31.4" } } },
      { "if-match": 'W/"1"' },
    );
    expect(weak.status).toBe(409);
    expect(weak.headers.get("etag")).toBe('"1"');
    const ok = await patch(
      base,
      path("cluster-6"),
      { spec: { kubernetes: { version: "1.31.4" } } },
      { "if-match": '"5", "1"' },
    );
    expect(ok.status).toBe(200);
    const fresh = await call(base, path("cluster-6"), { headers: { "if-none-match": 'W/"2"' } });
    expect(fresh.status).toBe(304);
  });

  it("lets exactly one of two concurrent writers with the same resourceVersion win", async () => {
    for (const name of ["cluster-7", "cluster-8", "cluster-9"]) {
      const [a, b] = await Promise.all([
        patch(base, path(name), {
          metadata: { resourceVersion: "1" },
          spec: { maintenance: { timeWindow: { begin: "010000+0000", end: "020000+0000" } } },
        }),
        patch(base, path(name), {
          metadata: { resourceVersion: "1" },
          spec: { maintenance: { timeWindow: { begin: "050000+0000", end: "060000+0000" } } },
        }),
      ]);
      expect([a.status, b.status].sort()).toEqual([200, 409]);
      const winner = a.status === 200 ? a : b;
      const read = await call(base, path(name));
      expect(read.body.spec.maintenance.timeWindow).toEqual(winner.body.spec.maintenance.timeWindow);
      expect(read.body.metadata.resourceVersion).toBe("2");
      const events = await call(base, `/api/v1/audit?name=${name}`);
      expect(events.body.items).toHaveLength(1);
    }
  });
});

describe("the garden's admission webhooks", () => {
  it("refuse a user's change of a shoot they match with 422 and the API server's answer", async () => {
    const body = await refused(
      "cluster-0",
      { spec: { maintenance: { autoUpdate: { kubernetesVersion: true } } } },
      422,
    );
    expect(body.detail).toBe(
      `Shoot garden-dev/cluster-0 cannot be changed: the garden refused the update. ${KYVERNO_ANSWER}`,
    );
    expect(body.errors).toEqual([{ field: "metadata", type: "Forbidden", detail: KYVERNO_ANSWER }]);
  });

  it("let the request of an operation through: its controller's update is what they judge", async () => {
    const r = await patch(base, path("cluster-0"), {
      metadata: { annotations: { "gardener.cloud/operation": "reconcile" } },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const maintain = await call(base, `${path("cluster-0")}/maintain`, { method: "POST" });
    expect(maintain.status, JSON.stringify(maintain.body)).toBe(202);
  });
});

describe("GET /api/v1/audit", () => {
  it("filters by action and pages newest first", async () => {
    const all = await call(base, "/api/v1/audit?action=shoot.update&limit=2");
    expect(all.status).toBe(200);
    expect(all.body.items).toHaveLength(2);
    const next = await call(base, `/api/v1/audit?action=shoot.update&limit=2&cursor=${all.body.nextCursor}`);
    expect(Number(next.body.items[0].id)).toBeLessThan(Number(all.body.items[1].id));
    expect(all.body.items.every((e: any) => e.action === "shoot.update")).toBe(true);
    expect((await call(base, "/api/v1/audit?since=last-week")).status).toBe(400);
  });
});

describe("POST .../maintain", () => {
  it("queues maintain-now once, says what it will do, and 404s an unknown shoot", async () => {
    const first = await call(base, `${path("cluster-10")}/maintain`, {
      method: "POST",
      headers: await tokenHeader(database.db, "carol", "operator"),
    });
    expect(first.status).toBe(202);
    expect(first.body).toMatchObject({ namespace: "garden-dev", name: "cluster-10", queued: true });
    expect(first.body.plan.summary).toBeTruthy();
    const again = await call(base, `${path("cluster-10")}/maintain`, { method: "POST" });
    expect(again.status).toBe(202);
    expect(again.body.queued).toBe(false);
    const shoot = await call(base, path("cluster-10"));
    expect(shoot.body.metadata.annotations["gardener.cloud/operation"]).toBe("maintain");
    const audit = await call(base, "/api/v1/audit?actor=token:carol");
    expect(audit.body.items[0]).toMatchObject({ action: "shoot.maintain-now.request", target: { name: "cluster-10" } });
    expect((await call(base, `${path("nope")}/maintain`, { method: "POST" })).status).toBe(404);
  });
});

describe("GET /api/v1/events", () => {
  /** The event stream, read as text until a pattern shows (or 10 s pass). */
  async function follow(query = "") {
    const controller = new AbortController();
    const response = await fetch(`${base}/api/v1/events${query}`, {
      signal: controller.signal,
      headers: ADMIN_HEADERS,
    });
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    return {
      readUntil: async (pattern: RegExp) => {
        const until = Date.now() + 10_000;
        while (!pattern.test(text) && Date.now() < until) {
          const { value, done } = await reader.read();
          if (done) break;
          text += decoder.decode(value);
        }
        return pattern.test(text);
      },
      text: () => text,
      close: () => controller.abort(),
    };
  }

  it("streams which shoots changed", async () => {
    const stream = await follow();
    try {
      expect(await stream.readUntil(/event: ready/)).toBe(true);
      // The server says when it listens to the database (after its feed's own "everything
      // changed" on connecting): from then on a change comes listed by name.
      expect(await stream.readUntil(/event: listening/)).toBe(true);
      const changed = await patch(base, path("cluster-11"), {
        spec: { maintenance: { autoUpdate: { kubernetesVersion: true } } },
      });
      expect(changed.status).toBe(200);
      expect(await stream.readUntil(/event: change\ndata: .*"name":"cluster-11"/)).toBe(true);
    } finally {
      stream.close();
    }
  });

  it("with since, first sends what changed from then until it connected", async () => {
    // A page reads its data, the shoot changes, then the page follows the stream: it must hear
    // of that change, or it shows the old data until the next one.
    const warm = await follow();
    expect(await warm.readUntil(/event: listening/)).toBe(true);
    warm.close();
    const pageRead = Date.now();
    const missed = await patch(base, path("cluster-8"), {
      spec: { maintenance: { autoUpdate: { kubernetesVersion: true } } },
    });
    expect(missed.status).toBe(200);
    const late = await follow(`?since=${pageRead}`);
    // A stream that starts after the change, without since: it hears only of changes after it.
    const after = await follow(`?since=${Date.now() + 1}`);
    try {
      expect(await late.readUntil(/event: change\ndata: .*"name":"cluster-8"/), late.text()).toBe(true);
      expect(await after.readUntil(/event: listening/)).toBe(true);
      const next = await patch(base, path("cluster-9"), {
        spec: { maintenance: { autoUpdate: { kubernetesVersion: true } } },
      });
      expect(next.status).toBe(200);
      expect(await after.readUntil(/event: change\ndata: .*"name":"cluster-9"/)).toBe(true);
      expect(after.text()).not.toContain('"name":"cluster-8"');
    } finally {
      late.close();
      after.close();
    }
  });

  it("refuses a since that is not a moment", async () => {
    const answer = await call(base, "/api/v1/events?since=yesterday");
    expect(answer.status).toBe(400);
    expect(answer.headers.get("content-type")).toBe("application/problem+json");
  });
});

describe("POST .../migrate and GET .../migration", () => {
  it("refuses with 422 and the reasons, and lists the seeds as destinations", async () => {
    const same = await call(base, `${path("cluster-10")}/migrate`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ seedName: "seed-1" }),
    });
    expect(same.status).toBe(422);
    expect(same.headers.get("content-type")).toBe("application/problem+json");
    // Gardener's words (plugin/pkg/shoot/validator/admission.go, Admit).
    expect(same.body.errors[0]).toMatchObject({
      field: "spec.seedName",
      detail: "update of binding rejected, shoot is already assigned to the same seed",
    });
    const bad = await call(base, `${path("cluster-10")}/migrate`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ seed: "x" }),
    });
    expect(bad.status).toBe(400);
    const view = await call(base, `${path("cluster-10")}/migration`);
    expect(view.status).toBe(200);
    expect(view.body).toMatchObject({ seed: "seed-1", migration: null });
    expect(view.body.destinations).toEqual([expect.objectContaining({ name: "seed-1", current: true, ready: true })]);
    expect((await call(base, `${path("nope")}/migration`)).status).toBe(404);
  });
});
