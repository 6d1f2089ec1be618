// The garden's own sign-in: a kubeconfig whose user has `tokenFile:` (Gardener's generic token
// kubeconfig, rotated on disk by the token-requestor) works for every kind of call Almanac makes
// (lists, watches, writes, access reviews), against the stand-in garden, which answers 401 to any
// token it does not know. The file is read again when it changes; a file that disappears or holds
// a token the garden refuses makes readiness fail naming the file; a missing file stops the start.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { CustomObjectsApi, Watch } from "@kubernetes/client-node";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { loadConfig } from "../../lib/config/load-config.ts";
import { readGardenConfig } from "../../lib/garden/garden-config.ts";
import { gardenShoots } from "../../lib/garden/kubernetes/garden-api.ts";
import { GardenKubeConfig } from "../../lib/garden/kubernetes/garden-kubeconfig.ts";
import { askGarden, gardenSignInCheck } from "../../lib/garden/kubernetes/garden-sign-in.ts";
import { kubernetesGardenAccess } from "../../lib/garden/kubernetes/kubernetes-garden-access.ts";
import { TokenFileError } from "../../lib/garden/kubernetes/token-file.ts";
import { logger } from "../../lib/observability/logger.ts";
import { startStandInGarden, type StandInGarden } from "../support/stand-in-garden.ts";

let garden: StandInGarden;
let directory: string;
let kubeconfigPath: string;
let tokenPath: string;
let tokens = 0;

/** A new token the garden knows as Almanac, written to the token file (as the token-requestor does). */
function rotate(): string {
  const token = `rotated-${++tokens}-${Math.random().toString(36).slice(2)}`;
  garden.addToken(token, garden.almanacUser);
  // Written beside and renamed over, as a projected volume or the token-requestor would.
  fs.writeFileSync(`${tokenPath}.new`, `${token}\n`);
  fs.renameSync(`${tokenPath}.new`, tokenPath);
  return token;
}

beforeAll(async () => {
  garden = await startStandInGarden();
  directory = fs.mkdtempSync(path.join(os.tmpdir(), "garden-token-file-"));
  tokenPath = path.join(directory, "token");
  // Relative to the kubeconfig's folder, as kubectl and client-go read it.
  kubeconfigPath = garden.writeKubeconfig({ file: path.join(directory, "kubeconfig"), tokenFile: "token" });
  garden.put("Project", { metadata: { name: "dev" }, spec: { namespace: "garden-dev" } });
  garden.put("Shoot", {
    metadata: { name: "alpha", namespace: "garden-dev" },
    spec: { maintenance: { timeWindow: { begin: "220000+0000", end: "230000+0000" } } },
  });
});
afterAll(async () => {
  await garden?.close();
  fs.rmSync(directory, { recursive: true, force: true });
});
beforeEach(() => {
  vi.spyOn(logger(), "warn").mockImplementation(() => {});
  garden.requests.length = 0;
});

function load(): GardenKubeConfig {
  const config = readGardenConfig(loadConfig({ GARDEN_KUBECONFIG: kubeconfigPath }));
  if (config.kind !== "live") throw new Error("expected a live garden");
  return config.kubeConfig;
}

const listShoots = (kubeConfig: GardenKubeConfig) =>
  kubeConfig
    .makeApiClient(CustomObjectsApi)
    .listClusterCustomObject({ group: "core.gardener.cloud", version: "v1beta1", plural: "shoots" });

/** The first event of a watch on shoots (then the watch is ended). */
async function firstWatchEvent(kubeConfig: GardenKubeConfig): Promise<string> {
  return new Promise((resolve, reject) => {
    let request: AbortController | undefined;
    new Watch(kubeConfig)
      .watch(
        "/apis/core.gardener.cloud/v1beta1/shoots",
        { resourceVersion: "0" },
        (type) => {
          request?.abort();
          resolve(type);
        },
        (error) => {
          if (error && (error as Error).name !== "AbortError") reject(error);
        },
      )
      .then((controller) => (request = controller), reject);
  });
}

const readable = (kubeConfig: GardenKubeConfig) =>
  kubernetesGardenAccess(kubeConfig, { ttlMs: 0 }).readableNamespaces(
    { kind: "person", user: "ada@example.com", groups: [] },
    () => ["garden-dev"],
  );

describe("a kubeconfig user with tokenFile", () => {
  it("signs every kind of call with the file's token, and with the new one after the file is rotated", async () => {
    const first = rotate();
    const kubeConfig = load();
    const calls = async () => {
      expect((await listShoots(kubeConfig)).items).toHaveLength(1);
      await expect(firstWatchEvent(kubeConfig)).resolves.toBe("ADDED");
      await expect(readable(kubeConfig)).resolves.toEqual(new Set());
      const shoots = gardenShoots(kubeConfig, { kind: "almanac" });
      const patched = await shoots.patch(
        { namespace: "garden-dev", name: "alpha" },
        {
          type: "application/merge-patch+json",
          body: { spec: { maintenance: { autoUpdate: { kubernetesVersion: true } } } },
        },
      );
      expect(patched.spec.maintenance?.autoUpdate?.kubernetesVersion).toBe(true);
    };
    await calls();
    // Every call reached the garden as Almanac (nothing answered 401).
    expect(garden.requests.length).toBeGreaterThanOrEqual(4);
    expect(garden.requests.every((r) => r.user === garden.almanacUser)).toBe(true);

    // The token-requestor rotates the file; the old token stops working.
    rotate();
    garden.revokeToken(first);
    garden.requests.length = 0;
    await calls();
    expect(garden.requests.every((r) => r.user === garden.almanacUser)).toBe(true);
  });

  it("without the file, a call fails naming the file; readiness says so; it recovers when the file returns", async () => {
    rotate();
    const kubeConfig = load();
    const check = gardenSignInCheck(kubeConfig, "GARDEN_KUBECONFIG", { askEveryMs: 0 });
    await expect(check()).resolves.toEqual({ ok: true, detail: "signed in" });
    fs.rmSync(tokenPath);
    await expect(listShoots(kubeConfig)).rejects.toThrow(TokenFileError);
    await expect(listShoots(kubeConfig)).rejects.toThrow(tokenPath);
    const failing = await check();
    expect(failing.ok).toBe(false);
    expect(failing.detail).toContain(tokenPath);
    expect(failing.detail).toContain("does not exist");
    rotate();
    await expect(check()).resolves.toEqual({ ok: true, detail: "signed in" });
    expect((await listShoots(kubeConfig)).items).toHaveLength(1);
  });

  it("a token the garden refuses (401) makes readiness fail naming the file, until the file holds a good one", async () => {
    const token = rotate();
    const kubeConfig = load();
    const check = gardenSignInCheck(kubeConfig, "GARDEN_KUBECONFIG", { askEveryMs: 60_000 });
    await expect(check()).resolves.toMatchObject({ ok: true });
    garden.revokeToken(token);
    // Any call's 401 counts at once, without waiting for the next time readiness asks the garden.
    await expect(listShoots(kubeConfig)).rejects.toMatchObject({ code: 401 });
    const failing = await check();
    expect(failing).toEqual({
      ok: false,
      detail: `the garden refuses the token in ${tokenPath} (HTTP 401 Unauthorized)`,
    });
    // Said once in the log too (the mirror's process has no /readyz of its own).
    const warned = vi.mocked(logger().warn).mock.calls.map(([line]) => String(line));
    expect(warned.filter((line) => line.includes(`refuses the token in ${tokenPath}`))).toHaveLength(1);
    rotate();
    await expect(check()).resolves.toMatchObject({ ok: true });
  });

  it("reads the configuration while the file is missing: the token, asked for, names the file", () => {
    fs.rmSync(tokenPath, { force: true });
    const config = readGardenConfig(loadConfig({ GARDEN_KUBECONFIG: kubeconfigPath }));
    if (config.kind !== "live") throw new Error("a live garden was expected");
    expect(() => config.kubeConfig.tokenFile()?.token()).toThrow(
      `The garden token file ${tokenPath} cannot be read (it does not exist).`,
    );
    rotate();
  });

  it("asks the garden whether it serves Gardener's API: a cluster that is not a garden says so", async () => {
    rotate();
    const kubeConfig = load();
    await expect(askGarden(kubeConfig)).resolves.toBe("serves");
    const elsewhere = new GardenKubeConfig();
    elsewhere.loadFromOptions({
      clusters: [{ name: "c", server: `${garden.url}/not-a-garden`, skipTLSVerify: true }],
      users: [{ name: "u", token: garden.almanacToken }],
      contexts: [{ name: "x", cluster: "c", user: "u" }],
      currentContext: "x",
    });
    await expect(askGarden(elsewhere)).resolves.toBe("not-a-garden");
  });
});

describe("in-cluster (ALMANAC_GARDEN=in-cluster)", () => {
  it("reads the pod's service-account token the same way, again when the kubelet rotates it", async () => {
    const prefix = fs.mkdtempSync(path.join(os.tmpdir(), "in-cluster-"));
    const accountDir = path.join(prefix, "var/run/secrets/kubernetes.io/serviceaccount");
    fs.mkdirSync(accountDir, { recursive: true });
    const first = `sa-${Math.random().toString(36).slice(2)}`;
    fs.writeFileSync(path.join(accountDir, "token"), first);
    const saved = { host: process.env.KUBERNETES_SERVICE_HOST, port: process.env.KUBERNETES_SERVICE_PORT };
    process.env.KUBERNETES_SERVICE_HOST = "10.0.0.1";
    process.env.KUBERNETES_SERVICE_PORT = "443";
    try {
      const kubeConfig = new GardenKubeConfig();
      kubeConfig.loadFromCluster(prefix);
      expect(kubeConfig.tokenFile()?.path).toBe(path.join(accountDir, "token"));
      expect(kubeConfig.tokenFile()?.token()).toBe(first);
      fs.writeFileSync(path.join(accountDir, "token"), "sa-rotated-token-that-is-longer");
      expect(kubeConfig.tokenFile()?.token()).toBe("sa-rotated-token-that-is-longer");
      // No service-account token at all: the start stops naming the file.
      expect(() => readGardenConfig(loadConfig({ ALMANAC_GARDEN: "in-cluster" }))).toThrow(
        "ALMANAC_GARDEN=in-cluster: The garden token file /var/run/secrets/kubernetes.io/serviceaccount/token cannot be read",
      );
    } finally {
      process.env.KUBERNETES_SERVICE_HOST = saved.host;
      process.env.KUBERNETES_SERVICE_PORT = saved.port;
      if (saved.host === undefined) delete process.env.KUBERNETES_SERVICE_HOST;
      if (saved.port === undefined) delete process.env.KUBERNETES_SERVICE_PORT;
      fs.rmSync(prefix, { recursive: true, force: true });
    }
  });
});

describe("the garden's connections", () => {
  it("reuses keep-alive connections: a hundred calls open a handful, not a hundred", async () => {
    rotate();
    const kubeConfig = load();
    const before = garden.connections();
    for (let i = 0; i < 100; i++) await listShoots(kubeConfig);
    const access = kubernetesGardenAccess(kubeConfig, { ttlMs: 0 });
    for (let i = 0; i < 50; i++)
      await access.readableNamespaces({ kind: "person", user: `p${i}@example.com`, groups: [] }, () => ["garden-dev"]);
    const opened = garden.connections() - before;
    console.log(`150 sequential calls opened ${opened} connection(s)`);
    expect(opened).toBeLessThanOrEqual(2);
  });
});
