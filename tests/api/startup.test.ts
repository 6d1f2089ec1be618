// `npm start` as a new user runs it: the embedded PostgreSQL under ALMANAC_DATA_DIR, migrations,
// the demo landscape on first start, data that survives a restart; and two instances starting at
// once on one database.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { call, patch } from "../support/api-client.ts";
import { startAlmanac } from "../support/app-server.ts";
import { createTestDatabase } from "../support/database.ts";

// Each test starts whole Almanac processes (twice in a row, or two at once), each with its own
// embedded PostgreSQL and migrations: more than vitest's default 30 s on a busy machine.
const START_TIMEOUT_MS = 180_000;

const dataDir = mkdtempSync(path.join(os.tmpdir(), "almanac-data-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe("npm start on the embedded database", () => {
  it(
    "serves the demo landscape, stops cleanly and keeps the data across a restart",
    async () => {
      const env = { ALMANAC_DATA_DIR: dataDir, DATABASE_URL: "" };
      const first = await startAlmanac(env);
      let name: string;
      let namespace: string;
      try {
        const list = await call(first.baseUrl, "/api/v1/shoots?limit=500");
        expect(list.body.total).toBeGreaterThanOrEqual(60);
        ({ name, namespace } = list.body.items[0]);
        const changed = await patch(first.baseUrl, `/api/v1/namespaces/${namespace}/shoots/${name}`, {
          spec: { maintenance: { timeWindow: { begin: "013000+0100", end: "023000+0100" } } },
        });
        expect(changed.status, JSON.stringify(changed.body)).toBe(200);
      } finally {
        expect(await first.stop("SIGTERM")).toBe(0);
      }
      // The database was stopped with the app.
      expect(existsSync(path.join(dataDir, "postgres", "postmaster.pid"))).toBe(false);

      const second = await startAlmanac(env);
      try {
        const shoot = await call(second.baseUrl, `/api/v1/namespaces/${namespace}/shoots/${name}`);
        expect(shoot.body.spec.maintenance.timeWindow).toEqual({ begin: "013000+0100", end: "023000+0100" });
        // The change, and the simulated gardenlet's reconcile after it, were kept.
        expect(Number(shoot.body.metadata.resourceVersion)).toBeGreaterThanOrEqual(2);
        const history = await call(second.baseUrl, `/api/v1/namespaces/${namespace}/shoots/${name}/history`);
        expect(history.body.items.some((i: any) => i.action === "shoot.update")).toBe(true);
        const seeded = await call(second.baseUrl, "/api/v1/audit?action=landscape.seed");
        expect(seeded.body.items).toHaveLength(1);
      } finally {
        await second.stop();
      }
    },
    START_TIMEOUT_MS,
  );
});

describe("two instances starting at once on one data folder", () => {
  it(
    "share one embedded PostgreSQL",
    async () => {
      const shared = mkdtempSync(path.join(os.tmpdir(), "almanac-shared-"));
      const env = { ALMANAC_DATA_DIR: shared, DATABASE_URL: "" };
      try {
        const [a, b] = await Promise.all([startAlmanac(env), startAlmanac(env)]);
        try {
          const [listA, listB] = await Promise.all([
            call(a.baseUrl, "/api/v1/shoots?limit=1"),
            call(b.baseUrl, "/api/v1/shoots?limit=1"),
          ]);
          expect(listA.body.total).toBeGreaterThanOrEqual(60);
          expect(listB.body.total).toBe(listA.body.total);
          expect((await call(b.baseUrl, "/api/v1/audit?action=landscape.seed")).body.items).toHaveLength(1);
        } finally {
          // The one that joined stops first; the owner then stops the database.
          const owner = Number((await import("node:fs")).readFileSync(path.join(shared, "owner.pid"), "utf8"));
          const [first, second] = a.process.pid === owner ? [b, a] : [a, b];
          await first.stop();
          await second.stop();
        }
        expect(existsSync(path.join(shared, "postgres", "postmaster.pid"))).toBe(false);
      } finally {
        rmSync(shared, { recursive: true, force: true });
      }
    },
    START_TIMEOUT_MS,
  );
});

describe("two instances starting at once on one database", () => {
  it(
    "migrate and seed it once",
    async () => {
      const database = await createTestDatabase({ migrated: false });
      try {
        const env = { DATABASE_URL: database.url };
        const [a, b] = await Promise.all([startAlmanac(env), startAlmanac(env)]);
        try {
          const [listA, listB] = await Promise.all([
            call(a.baseUrl, "/api/v1/shoots?limit=1"),
            call(b.baseUrl, "/api/v1/shoots?limit=1"),
          ]);
          expect(listA.body.total).toBe(listB.body.total);
          expect(await database.db.shoot.count()).toBe(listA.body.total);
          expect((await call(a.baseUrl, "/api/v1/audit?action=landscape.seed")).body.items).toHaveLength(1);
        } finally {
          await Promise.all([a.stop(), b.stop()]);
        }
      } finally {
        await database.drop();
      }
    },
    START_TIMEOUT_MS,
  );
});
