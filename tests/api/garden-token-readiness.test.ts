// `npm start` on a garden reached through a token kubeconfig (the user's `tokenFile`, as Gardener's
// generic token kubeconfig): started before the token file is there (a Secret the token-requestor
// has not filled yet), it keeps running and /readyz names the file; once written, it serves the
// garden's shoots; when the token file disappears, /readyz answers 503 naming the file while the
// processes keep running (no crash loop), and it is ready again once the file is back, rotated to
// a new token.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { call } from "../support/api-client.ts";
import { type AppServer, startAlmanac } from "../support/app-server.ts";
import { eventually, putLandscape } from "../support/garden-landscape.ts";
import { smallLandscape } from "../support/small-landscape.ts";
import { type StandInGarden, startStandInGarden } from "../support/stand-in-garden.ts";

let garden: StandInGarden;
let almanac: AppServer;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "almanac-token-"));
const secrets = fs.mkdtempSync(path.join(os.tmpdir(), "almanac-token-secrets-"));
const tokenPath = path.join(secrets, "token");

function writeToken(): void {
  const token = `token-${Math.random().toString(36).slice(2)}`;
  garden.addToken(token, garden.almanacUser);
  fs.writeFileSync(`${tokenPath}.new`, token);
  fs.renameSync(`${tokenPath}.new`, tokenPath);
}

beforeAll(async () => {
  garden = await startStandInGarden({ bookmarkIntervalMs: 500 });
  putLandscape(garden, smallLandscape(Date.now(), 3));
  almanac = await startAlmanac(
    {
      GARDEN_KUBECONFIG: garden.writeKubeconfig({ file: path.join(secrets, "kubeconfig"), tokenFile: "token" }),
      ALMANAC_DATA_DIR: dataDir,
      DATABASE_URL: "",
      ALMANAC_WEB_WORKERS: "1",
    },
    { until: "/healthz" },
  );
});

afterAll(async () => {
  await almanac?.stop("SIGTERM");
  await garden?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(secrets, { recursive: true, force: true });
});

describe("npm start with a token kubeconfig", () => {
  test("started before its token file is there: not ready, naming the file, until it is written; then it mirrors", async () => {
    const waiting = await eventually(
      () => call(almanac.baseUrl, "/readyz"),
      (r) => r.status === 503 && r.body?.checks?.garden !== undefined,
      10_000,
    );
    expect(waiting.body.checks.garden.ok).toBe(false);
    expect(waiting.body.checks.garden.detail).toContain(tokenPath);
    expect(almanac.process.exitCode).toBeNull();
    writeToken();
    await eventually(
      () => call(almanac.baseUrl, "/readyz"),
      (r) => r.status === 200,
      30_000,
    );
    const shoots = garden.list("Shoot").length;
    const items = await eventually(
      async () => (await call(almanac.baseUrl, "/api/v1/shoots?limit=500")).body.items as unknown[],
      (i) => i.length === shoots,
      30_000,
    );
    expect(items).toHaveLength(shoots);
    expect(garden.requests.every((r) => r.user === garden.almanacUser)).toBe(true);
  });

  test("a token file that disappears makes /readyz fail naming it, without a crash; a new token makes it ready", async () => {
    fs.rmSync(tokenPath);
    const failing = await eventually(
      () => call(almanac.baseUrl, "/readyz"),
      (r) => r.status === 503,
      10_000,
    );
    expect(failing.body.checks.garden.ok).toBe(false);
    expect(failing.body.checks.garden.detail).toContain(tokenPath);
    expect(almanac.process.exitCode).toBeNull();
    writeToken();
    const ready = await eventually(
      () => call(almanac.baseUrl, "/readyz"),
      (r) => r.status === 200,
      10_000,
    );
    expect(ready.body.checks.garden).toEqual({ ok: true, detail: "signed in" });
    expect(almanac.process.exitCode).toBeNull();
  });
});
