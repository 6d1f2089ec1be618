import { describe, expect, it } from "vitest";
import { loadConfig } from "../config/load-config.ts";
import { groupsOfClaim, oidcConfig as oidcOf } from "./oidc-config.ts";

const oidcConfig = (env: Record<string, string | undefined>) => oidcOf(loadConfig(env));

const COMPLETE = {
  ALMANAC_OIDC_ISSUER: "https://login.example.com/realms/ops/",
  ALMANAC_OIDC_CLIENT_ID: "almanac",
  ALMANAC_OIDC_CLIENT_SECRET: "s3cret",
  ALMANAC_PUBLIC_URL: "https://almanac.example.com",
};

describe("the OIDC settings", () => {
  it("are off without an issuer", () => {
    expect(oidcConfig({})).toBeUndefined();
    expect(oidcConfig({ ALMANAC_OIDC_CLIENT_ID: "almanac" })).toBeUndefined();
  });

  it("are read with their defaults", () => {
    expect(oidcConfig(COMPLETE)).toEqual({
      issuer: "https://login.example.com/realms/ops",
      clientId: "almanac",
      clientSecret: "s3cret",
      groupsClaim: "groups",
      scopes: ["openid", "email", "profile"],
      displayName: "company sign-in",
    });
    expect(
      oidcConfig({
        ...COMPLETE,
        ALMANAC_OIDC_GROUPS_CLAIM: "roles",
        ALMANAC_OIDC_SCOPES: "openid email groups",
        ALMANAC_OIDC_NAME: "Acme SSO",
      }),
    ).toMatchObject({ groupsClaim: "roles", scopes: ["openid", "email", "groups"], displayName: "Acme SSO" });
  });

  it.each([
    [{ ALMANAC_OIDC_CLIENT_ID: "" }, "ALMANAC_OIDC_CLIENT_ID is not set: it must be set when ALMANAC_OIDC_ISSUER is."],
    [{ ALMANAC_OIDC_CLIENT_SECRET: undefined }, "ALMANAC_OIDC_CLIENT_SECRET is not set: it must be set"],
    [{ ALMANAC_PUBLIC_URL: undefined }, "ALMANAC_PUBLIC_URL is not set: it must be set"],
    [{ ALMANAC_OIDC_ISSUER: "login.example.com" }, 'ALMANAC_OIDC_ISSUER is "login.example.com" (not a URL)'],
    [{ ALMANAC_OIDC_ISSUER: "http://login.example.com" }, "expected an https:// URL (http:// only for localhost)"],
    [
      { ALMANAC_PUBLIC_URL: "http://almanac.example.com" },
      'ALMANAC_PUBLIC_URL is "http://almanac.example.com": with company sign-in it must be an https:// URL',
    ],
    [{ ALMANAC_OIDC_SCOPES: "email profile" }, 'ALMANAC_OIDC_SCOPES is "email profile": it must include "openid"'],
  ])("refuse %j, naming the setting", (change, message) => {
    expect(() => oidcConfig({ ...COMPLETE, ...change })).toThrow(message);
  });

  it("allow plain http only on this machine", () => {
    const local = {
      ...COMPLETE,
      ALMANAC_OIDC_ISSUER: "http://127.0.0.1:5556",
      ALMANAC_PUBLIC_URL: "http://localhost:3000",
    };
    expect(oidcConfig(local)?.issuer).toBe("http://127.0.0.1:5556");
  });
});

describe("a groups claim", () => {
  it("is read from a list, a single string or a comma-separated one", () => {
    expect(groupsOfClaim(["ops", "team-a", "ops", " "])).toEqual(["ops", "team-a"]);
    expect(groupsOfClaim("ops")).toEqual(["ops"]);
    expect(groupsOfClaim("ops, team-a")).toEqual(["ops", "team-a"]);
  });

  it("brings no groups when absent or of another kind", () => {
    expect(groupsOfClaim(undefined)).toEqual([]);
    expect(groupsOfClaim(42)).toEqual([]);
    expect(groupsOfClaim({ ops: true })).toEqual([]);
    expect(groupsOfClaim([1, null, "ops"])).toEqual(["ops"]);
  });
});
