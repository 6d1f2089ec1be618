// `npm start` on the embedded database: when its PostgreSQL is killed, Almanac starts it again and
// the API answers by itself (503 meanwhile, never 500), with every change acknowledged before.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { call, patch } from "../support/api-client.ts";
import { startAlmanac } from "../support/app-server.ts";

const dataDir = mkdtempSync(path.join(os.tmpdir(), "almanac-killed-db-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const postmasterPid = () =>
  Number(readFileSync(path.join(dataDir, "postgres", "postmaster.pid"), "utf8").split("\n")[0]);

it("starts a killed embedded PostgreSQL again and the API recovers without a restart", async () => {
  const almanac = await startAlmanac({ ALMANAC_DATA_DIR: dataDir, DATABASE_URL: "" });
  try {
    const list = await call(almanac.baseUrl, "/api/v1/shoots?limit=1");
    const { namespace, name } = list.body.items[0];
    const url = `/api/v1/namespaces/${namespace}/shoots/${name}`;
    const window = { begin: "014500+0000", end: "024500+0000" };
    const changed = await patch(almanac.baseUrl, url, { spec: { maintenance: { timeWindow: window } } });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);

    const killed = postmasterPid();
    process.kill(killed, "SIGKILL");
    const statuses = new Set<number>();
    const until = Date.now() + 60_000;
    let shoot = await call(almanac.baseUrl, url);
    while (shoot.status !== 200 || postmasterPid() === killed) {
      statuses.add(shoot.status);
      expect(Date.now(), `still answering ${[...statuses].join(", ")}`).toBeLessThan(until);
      await new Promise((r) => setTimeout(r, 250));
      shoot = await call(almanac.baseUrl, url);
    }
    expect([...statuses].filter((s) => s !== 200 && s !== 503)).toEqual([]);
    expect(shoot.body.spec.maintenance.timeWindow).toEqual(window);
    expect((await call(almanac.baseUrl, "/readyz")).status).toBe(200);
  } finally {
    expect(await almanac.stop("SIGTERM")).toBe(0);
  }
}, 240_000);
