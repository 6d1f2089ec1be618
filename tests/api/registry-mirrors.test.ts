// PATCH of a shoot's registry mirrors (the registry-mirror extension in spec.extensions) over HTTP
// against the production build and a real PostgreSQL: stored with the shoot, audited by field,
// refused with 422 naming the field and the reason (and nothing changed), removed with null.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedLandscape } from "../../lib/server/seed-landscape.ts";
import { call, patch } from "../support/api-client.ts";
import { type AppServer, startNext } from "../support/app-server.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { smallLandscape } from "../support/small-landscape.ts";
import { tokenHeader } from "../support/tokens.ts";

let database: TestDatabase;
let server: AppServer;
let base: string;
const now = Date.now();
const path = (name: string) => `/api/v1/namespaces/garden-dev/shoots/${name}`;
const FIELD = "spec.extensions[type=registry-mirror].providerConfig";

const mirrorConfig = (mirrors: unknown) => ({
  apiVersion: "mirror.extensions.gardener.cloud/v1alpha1",
  kind: "MirrorConfig",
  mirrors,
});
const mirrorPatch = (providerConfig: unknown) => ({
  spec: { extensions: [{ type: "registry-mirror", providerConfig }] },
});

beforeAll(async () => {
  database = await createTestDatabase();
  await seedLandscape(database.db, smallLandscape(now, 4), { actor: "test", now });
  server = await startNext(database.url);
  base = server.baseUrl;
});

afterAll(async () => {
  await server?.stop();
  await database?.drop();
});

const auditCount = async () => database.db.auditEvent.count();

async function refused(name: string, body: unknown) {
  const before = await call(base, path(name));
  const events = await auditCount();
  const r = await patch(base, path(name), body);
  expect(r.status, JSON.stringify(r.body)).toBe(422);
  expect((await call(base, path(name))).body).toEqual(before.body);
  expect(await auditCount()).toBe(events);
  return r.body;
}

describe("PATCH spec.extensions: registry mirrors", () => {
  it("adds the extension, stores it with the shoot and audits the providerConfig by its field", async () => {
    const config = mirrorConfig([
      { upstream: "docker.io", hosts: [{ host: "https://mirror.gcr.io", capabilities: ["pull", "resolve"] }] },
    ]);
    const r = await patch(base, path("cluster-1"), mirrorPatch(config), {
      ...(await tokenHeader(database.db, "mia", "operator")),
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.spec.extensions).toEqual([{ type: "registry-mirror", providerConfig: config }]);
    expect((await call(base, path("cluster-1"))).body.spec.extensions).toEqual(r.body.spec.extensions);
    const audit = await call(base, "/api/v1/audit?actor=token:mia");
    expect(audit.body.items[0].changes).toEqual([{ field: FIELD, before: null, after: config }]);

    // The same configuration again changes nothing and audits nothing (the reconcile the first
    // change started may audit its own events meanwhile, so only updates are counted).
    const updates = () => database.db.auditEvent.count({ where: { targetName: "cluster-1", action: "shoot.update" } });
    const events = await updates();
    const again = await patch(base, path("cluster-1"), mirrorPatch(config));
    expect(again.status).toBe(200);
    expect(await updates()).toBe(events);
  });

  it("refuses an invalid configuration with 422 naming each field and the reason, changing nothing", async () => {
    const body = await refused(
      "cluster-2",
      mirrorPatch(
        mirrorConfig([
          { upstream: "docker.io", hosts: [{ host: "https://ok.example.com" }, { host: "mirror.example.com" }] },
          { upstream: "docker.io", hosts: [{ host: "https://m.example.com", capabilities: ["push"] }] },
        ]),
      ),
    );
    expect(body.errors.map((e: { field: string }) => e.field)).toEqual([
      `${FIELD}.mirrors[0].hosts[1].host`,
      `${FIELD}.mirrors[1].upstream`,
      `${FIELD}.mirrors[1].hosts[0].capabilities`,
    ]);
    expect(body.errors[0].detail ?? body.errors[0].message).toContain("'http://' or 'https://'");
  });

  it("refuses the deprecated registry.mirrors pattern with the reason and how to write it instead", async () => {
    const toml = `[plugins."io.containerd.grpc.v1.cri".registry.mirrors."docker.io"]\n  endpoint = ["https://m.example.com"]\n`;
    const body = await refused("cluster-2", mirrorPatch(toml));
    expect(body.errors).toHaveLength(1);
    expect(body.errors[0].field).toBe(FIELD);
    expect(JSON.stringify(body)).toContain("deprecated in containerd");
  });

  it("refuses other extension types with 422, and unknown keys with 400", async () => {
    const body = await refused("cluster-2", {
      spec: { extensions: [{ type: "shoot-dns-service", providerConfig: {} }] },
    });
    expect(body.errors[0].field).toBe("spec.extensions[0].type");
    const r = await patch(base, path("cluster-2"), { spec: { extensions: [{ type: "registry-mirror", on: true }] } });
    expect(r.status).toBe(400);
  });

  it("removes the extension with providerConfig null", async () => {
    const config = mirrorConfig([{ upstream: "quay.io", hosts: [{ host: "https://q.example.com" }] }]);
    expect((await patch(base, path("cluster-3"), mirrorPatch(config))).status).toBe(200);
    const r = await patch(base, path("cluster-3"), mirrorPatch(null));
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.spec.extensions).toBeUndefined();
    const audit = await call(base, "/api/v1/audit?name=cluster-3&limit=1");
    expect(audit.body.items[0].changes).toEqual([{ field: FIELD, before: config, after: null }]);
  });
});
