// How a person's changes reach a live garden is chosen on purpose (ALMANAC_GARDEN_IDENTITY): each
// person's own OIDC token where company sign-in is configured, read-only for people otherwise;
// impersonation only when asked for. The older value names keep working.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../config/load-config.ts";
import { readGardenConfig } from "./garden-config.ts";

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

const COMPANY_SIGN_IN = {
  ALMANAC_OIDC_ISSUER: "https://login.example.com",
  ALMANAC_OIDC_CLIENT_ID: "almanac",
  ALMANAC_OIDC_CLIENT_SECRET: "s3cret",
  ALMANAC_PUBLIC_URL: "https://almanac.example.com",
};

const identity = (env: Record<string, string>) => {
  const config = readGardenConfig(loadConfig({ GARDEN_KUBECONFIG: kubeconfig, ...env }));
  return config.kind === "live" ? config.identity : undefined;
};

describe("ALMANAC_GARDEN_IDENTITY", () => {
  it("defaults to each person's own token with company sign-in, and to read-only without it; never impersonation", () => {
    expect(identity({ ...COMPANY_SIGN_IN })).toBe("oidc");
    expect(identity({})).toBe("read-only");
  });

  it("takes the older names, impersonation and oidc, and read-only", () => {
    expect(identity({ ALMANAC_GARDEN_IDENTITY: "impersonation" })).toBe("impersonation");
    expect(identity({ ALMANAC_GARDEN_IDENTITY: "oidc", ...COMPANY_SIGN_IN })).toBe("oidc");
    expect(identity({ ALMANAC_GARDEN_IDENTITY: "read-only", ...COMPANY_SIGN_IN })).toBe("read-only");
  });

  it("refuses an unknown mode, and oidc without company sign-in, naming the setting", () => {
    expect(() => identity({ ALMANAC_GARDEN_IDENTITY: "admin" })).toThrow(ConfigError);
    expect(() => identity({ ALMANAC_GARDEN_IDENTITY: "admin" })).toThrow(/ALMANAC_GARDEN_IDENTITY is "admin"/);
    expect(() => identity({ ALMANAC_GARDEN_IDENTITY: "oidc" })).toThrow(/ALMANAC_OIDC_ISSUER is not set/);
  });
});
