// `almanac runs`: the requests it sends to Almanac's HTTP API (method, path, token, body) for each
// word, and the JSON it prints, against a stand-in server that records them; a refusal's problem
// is printed with exit 1, unusable words or flags exit 2 before anything is sent.
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
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
    const refused = request.url === "/api/v1/update-runs/done/pause";
    response.writeHead(refused ? 409 : request.method === "POST" ? 201 : 200, {
      "content-type": refused ? "application/problem+json" : "application/json",
    });
    response.end(JSON.stringify(refused ? { status: 409, detail: "It is Succeeded." } : { answered: request.url }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

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

const RUN = {
  name: "k8s 1.33",
  target: { kubernetes: "1.33" },
  stages: [
    { name: "canary", filter: { purpose: "evaluation" }, when: "now" },
    { name: "prod", filter: { purpose: "production" }, when: "window", approval: true, soakSeconds: 3600 },
  ],
  healthGate: { healthySeconds: 600 },
};

it("creates from a YAML or JSON file (--dry-run previews), lists, gets, approves, pauses, resumes, cancels", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "almanac-runs-"));
  const yamlFile = path.join(dir, "run.yaml");
  writeFileSync(
    yamlFile,
    [
      "name: k8s 1.33",
      "target: {kubernetes: '1.33'}",
      "stages:",
      "  - {name: canary, filter: {purpose: evaluation}, when: now}",
      "  - {name: prod, filter: {purpose: production}, when: window, approval: true, soakSeconds: 3600}",
      "healthGate: {healthySeconds: 600}",
    ].join("\n"),
  );
  const jsonFile = path.join(dir, "run.json");
  writeFileSync(jsonFile, JSON.stringify(RUN));
  const env = { ALMANAC_URL: url, ALMANAC_TOKEN: "tok-123" };

  const preview = await almanac(["runs", "create", "--file", yamlFile, "--dry-run"], env);
  expect(preview.status).toBe(0);
  expect(JSON.parse(preview.stdout)).toEqual({ answered: "/api/v1/update-runs" });
  expect((await almanac(["runs", "create", "--file", jsonFile], env)).status).toBe(0);
  expect((await almanac(["runs", "list", "--limit", "5"], env)).status).toBe(0);
  expect((await almanac(["runs", "get", "--id", "r1", "--server", url, "--token", "other"])).status).toBe(0);
  for (const word of ["approve", "resume", "cancel"])
    expect((await almanac(["runs", word, "--id", "r1"], env)).status).toBe(0);
  const late = await almanac(["runs", "pause", "--id", "done"], env);
  expect(late.status).toBe(1);
  expect(JSON.parse(late.stdout)).toEqual({ status: 409, detail: "It is Succeeded." });

  const auth = "Bearer tok-123";
  expect(seen).toEqual([
    { method: "POST", url: "/api/v1/update-runs", authorization: auth, body: { ...RUN, dryRun: true } },
    { method: "POST", url: "/api/v1/update-runs", authorization: auth, body: RUN },
    { method: "GET", url: "/api/v1/update-runs?limit=5", authorization: auth, body: undefined },
    { method: "GET", url: "/api/v1/update-runs/r1", authorization: "Bearer other", body: undefined },
    { method: "POST", url: "/api/v1/update-runs/r1/approve", authorization: auth, body: undefined },
    { method: "POST", url: "/api/v1/update-runs/r1/resume", authorization: auth, body: undefined },
    { method: "POST", url: "/api/v1/update-runs/r1/cancel", authorization: auth, body: undefined },
    { method: "POST", url: "/api/v1/update-runs/done/pause", authorization: auth, body: undefined },
  ]);
});

it("refuses unusable words or flags with exit 2, sending nothing", async () => {
  const before = seen.length;
  const env = { ALMANAC_URL: url, ALMANAC_TOKEN: "tok" };
  for (const args of [
    ["runs"],
    ["runs", "explode"],
    ["runs", "get"],
    ["runs", "approve"],
    ["runs", "create"],
    ["runs", "create", "--file", "/no/such/file.yaml"],
    ["runs", "list", "--bogus"],
  ]) {
    const run = await almanac(args, env);
    expect([run.status, args.join(" ")]).toEqual([2, args.join(" ")]);
    expect(run.stderr).toMatch(/^almanac: runs/);
  }
  expect((await almanac(["runs", "list"], { ALMANAC_URL: "", ALMANAC_TOKEN: "" })).status).toBe(2);
  expect(seen.length).toBe(before);
});
