// How a person's changes reach a live garden is chosen on purpose (ALMANAC_GARDEN_IDENTITY): each
// person's own OIDC token where company sign-in is configured, read-only for people otherwise;
// impersonation only when asked for. The older value names keep working.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { GardenConfigError, readGardenConfig } from "./garden-config.ts";

const directory = fs.mkdtempSync(path.join(os.tmpdir(), "garden-config-"));
const kubeconfig = path.join(directory, "kubeconfig");
fs.writeFileSync(
  kubeconfig,
  [
    "apiVersion: v1",
    "kind: Config",
    "clusters: [{ name: g, cluster: { server: 'https://garden.example.com' } }]",
    "users: [{ name: u, user: { token: t } }]",
    "contexts: [{ name: c, context: { cluster: g, user: u } }]",
    "current-context: c",
  ].join("\n"),
);
afterAll(() => fs.rmSync(directory, { recursive: true, force: true }));

const identity = (env: Record<string, string>) => {
  const config = readGardenConfig({ GARDEN_KUBECONFIG: kubeconfig, ...env });
  return config.kind === "live" ? config.identity : undefined;
};

describe("ALMANAC_GARDEN_IDENTITY", () => {
  it("defaults to each person's own token with company sign-in, and to read-only without it; never impersonation", () => {
    expect(identity({ ALMANAC_OIDC_ISSUER: "https://login.example.com" })).toBe("oidc");
    expect(identity({})).toBe("read-only");
  });

  it("takes the older names, impersonation and oidc, and read-only", () => {
    expect(identity({ ALMANAC_GARDEN_IDENTITY: "impersonation" })).toBe("impersonation");
    expect(identity({ ALMANAC_GARDEN_IDENTITY: "oidc", ALMANAC_OIDC_ISSUER: "https://login.example.com" })).toBe(
      "oidc",
    );
    expect(identity({ ALMANAC_GARDEN_IDENTITY: "read-only", ALMANAC_OIDC_ISSUER: "https://login.example.com" })).toBe(
      "read-only",
    );
  });

  it("refuses an unknown mode, and oidc without company sign-in, naming the setting", () => {
    expect(() => identity({ ALMANAC_GARDEN_IDENTITY: "admin" })).toThrow(GardenConfigError);
    expect(() => identity({ ALMANAC_GARDEN_IDENTITY: "admin" })).toThrow(/ALMANAC_GARDEN_IDENTITY is "admin"/);
    expect(() => identity({ ALMANAC_GARDEN_IDENTITY: "oidc" })).toThrow(/ALMANAC_OIDC_ISSUER is not set/);
  });
});
