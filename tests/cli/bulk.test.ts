// `almanac bulk`: the requests it sends to Almanac's HTTP API (method, path, token, body) and the
// JSON it prints, against a stand-in server that records them; a refusal's problem is printed
// with exit 1, unusable flags exit 2 before anything is sent.
import { spawn } from "node:child_process";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { ROOT } from "./run-almanac.ts";

interface Seen {
  readonly method: string;
  readonly url: string;
  readonly authorization: string | undefined;
  readonly body: unknown;
}

const seen: Seen[] = [];
let server: Server;
let url: string;

const read = (request: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let text = "";
    request.on("data", (chunk: Buffer) => (text += chunk.toString()));
    request.on("end", () => resolve(text));
  });

beforeAll(async () => {
  server = createServer(async (request, response) => {
    const text = await read(request);
    seen.push({
      method: request.method!,
      url: request.url!,
      authorization: request.headers.authorization,
      body: text ? JSON.parse(text) : undefined,
    });
    const refused = request.url === "/api/v1/bulk-actions/gone/cancel";
    response.writeHead(refused ? 409 : 200, {
      "content-type": refused ? "application/problem+json" : "application/json",
    });
    response.end(JSON.stringify(refused ? { status: 409, detail: "It has ended." } : { answered: request.url }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Runs bin/almanac without blocking this process (the stand-in server answers in it). */
function almanac(args: string[], env: Record<string, string> = {}) {
  return new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(path.join(ROOT, "bin", "almanac"), args, { cwd: ROOT, env: { ...process.env, ...env } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

it("previews by default, starts with --start, and shows, lists and cancels by id", async () => {
  const env = { ALMANAC_URL: url, ALMANAC_TOKEN: "tok-123" };
  const preview = await almanac(
    [
      "bulk",
      "--action",
      "set-auto-update",
      "--filter",
      "namespace=garden-dev",
      "--filter",
      "status=unhealthy",
      "--filter",
      "purpose=production",
      "--filter",
      "labels=env=prod,team in (a,b)",
      "--param",
      "kubernetesVersion=true",
    ],
    env,
  );
  expect(preview.status).toBe(0);
  expect(JSON.parse(preview.stdout)).toEqual({ answered: "/api/v1/bulk-actions" });
  const start = await almanac(
    [
      "bulk",
      "--action",
      "set-window",
      "--shoot",
      "garden-dev/a",
      "--param",
      "begin=220000+0000",
      "--param",
      "end=230000+0000",
      "--start",
    ],
    env,
  );
  expect(start.status).toBe(0);
  expect((await almanac(["bulk", "--id", "abc"], env)).status).toBe(0);
  expect((await almanac(["bulk", "--list", "--server", url, "--token", "other"])).status).toBe(0);
  const cancel = await almanac(["bulk", "--id", "gone", "--cancel"], env);
  expect(cancel.status).toBe(1);
  expect(JSON.parse(cancel.stdout)).toEqual({ status: 409, detail: "It has ended." });

  expect(seen).toEqual([
    {
      method: "POST",
      url: "/api/v1/bulk-actions",
      authorization: "Bearer tok-123",
      body: {
        action: "set-auto-update",
        filter: {
          namespace: "garden-dev",
          status: "unhealthy",
          purpose: "production",
          labels: "env=prod,team in (a,b)",
        },
        params: { kubernetesVersion: true },
        dryRun: true,
      },
    },
    {
      method: "POST",
      url: "/api/v1/bulk-actions",
      authorization: "Bearer tok-123",
      body: {
        action: "set-window",
        shoots: [{ namespace: "garden-dev", name: "a" }],
        params: { begin: "220000+0000", end: "230000+0000" },
      },
    },
    { method: "GET", url: "/api/v1/bulk-actions/abc", authorization: "Bearer tok-123", body: undefined },
    { method: "GET", url: "/api/v1/bulk-actions", authorization: "Bearer other", body: undefined },
    { method: "POST", url: "/api/v1/bulk-actions/gone/cancel", authorization: "Bearer tok-123", body: undefined },
  ]);
});

it("keeps the path of --server (Almanac behind a prefix)", async () => {
  const listed = await almanac(["bulk", "--list", "--server", `${url}/almanac`, "--token", "tok-123"]);
  expect(listed.status).toBe(0);
  expect(JSON.parse(listed.stdout)).toEqual({ answered: "/almanac/api/v1/bulk-actions" });
});

it("refuses unusable flags with exit 2, sending nothing", async () => {
  const before = seen.length;
  const env = { ALMANAC_URL: url, ALMANAC_TOKEN: "tok" };
  for (const args of [
    ["bulk", "--action", "maintain"],
    ["bulk", "--action", "maintain", "--shoot", "no-slash"],
    ["bulk", "--action", "maintain", "--shoot", "ns/a", "--param", "novalue"],
    ["bulk", "--cancel"],
    ["bulk", "--list", "--id", "x"],
  ]) {
    const run = await almanac(args, env);
    expect(run.status, args.join(" ")).toBe(2);
    expect(run.stderr, args.join(" ")).toMatch(/^almanac: bulk: /);
  }
  expect((await almanac(["bulk", "--list"], { ALMANAC_URL: "", ALMANAC_TOKEN: "" })).stderr).toMatch(/--server/);
  expect(seen.length).toBe(before);
});
