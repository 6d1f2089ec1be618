// The web server's guard of the proxy headers: the internal headers come only from a listed
// proxy's word, a client's own copies never pass, and the configured headers never reach the app.
// Then identify's reading side, which fails closed without the setting or the guard.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { IncomingHttpHeaders } from "node:http";
import {
  guardProxyHeaders,
  PROXY_GROUPS_HEADER,
  PROXY_USER_HEADER,
  proxyHeaderGuard,
  proxyIdentity,
} from "./proxy-headers.ts";
import { loadConfig, useConfig } from "../config/load-config.ts";
import { trustedProxyOf } from "./trusted-proxy.ts";

const parseTrustedProxy = (env: Record<string, string>) => trustedProxyOf(loadConfig(env));

const ON = parseTrustedProxy({ ALMANAC_TRUSTED_PROXY_ADDRESSES: "10.0.0.0/8, fd00::7" });
const OFF = parseTrustedProxy({});

function guarded(remoteAddress: string | undefined, headers: IncomingHttpHeaders, config = ON) {
  const request = { headers: { ...headers }, socket: { remoteAddress } };
  guardProxyHeaders(request, config);
  return request.headers;
}

const FORGED = { [PROXY_USER_HEADER]: "admin@example.com", [PROXY_GROUPS_HEADER]: "landscape-admins" };

describe("guardProxyHeaders", () => {
  it("passes a trusted proxy's user and groups on as the internal headers", () => {
    const headers = guarded("10.1.2.3", {
      "x-remote-user": " alice@example.com ",
      "x-remote-group": "team-a, viewers,,team-a",
      accept: "text/html",
    });
    expect(headers).toEqual({
      [PROXY_USER_HEADER]: "alice@example.com",
      [PROXY_GROUPS_HEADER]: "team-a,viewers",
      accept: "text/html",
    });
  });

  it("believes the IPv4-mapped IPv6 form of a listed IPv4 peer, and a listed IPv6 peer", () => {
    expect(guarded("::ffff:10.0.0.5", { "x-remote-user": "alice" })[PROXY_USER_HEADER]).toBe("alice");
    expect(guarded("fd00::7", { "x-remote-user": "alice" })[PROXY_USER_HEADER]).toBe("alice");
  });

  it("takes repeated group headers", () => {
    const headers = guarded("10.0.0.1", { "x-remote-user": "alice", "x-remote-group": ["team-a", "team-b,team-c"] });
    expect(headers[PROXY_GROUPS_HEADER]).toBe("team-a,team-b,team-c");
  });

  it("uses the configured header names", () => {
    const config = parseTrustedProxy({
      ALMANAC_TRUSTED_PROXY_ADDRESSES: "10.0.0.1",
      ALMANAC_TRUSTED_PROXY_USER_HEADER: "X-Forwarded-Email",
      ALMANAC_TRUSTED_PROXY_GROUPS_HEADER: "X-Forwarded-Groups",
    });
    const headers = guarded(
      "10.0.0.1",
      { "x-forwarded-email": "bob@example.com", "x-forwarded-groups": "ops", "x-remote-user": "mallory" },
      config,
    );
    expect(headers).toEqual({
      [PROXY_USER_HEADER]: "bob@example.com",
      [PROXY_GROUPS_HEADER]: "ops",
      "x-remote-user": "mallory",
    });
  });

  it("strips everything from a peer that is not listed, its IPv4-mapped form included", () => {
    for (const peer of ["11.0.0.1", "::ffff:11.0.0.1", "fd00::8", "127.0.0.1", undefined]) {
      expect(guarded(peer, { "x-remote-user": "alice", "x-remote-group": "admins", ...FORGED, accept: "*/*" })).toEqual(
        {
          accept: "*/*",
        },
      );
    }
  });

  it("always drops the client's own internal headers", () => {
    // From a trusted peer that names nobody, and from one that names someone else.
    expect(guarded("10.0.0.1", FORGED)).toEqual({});
    expect(guarded("10.0.0.1", { ...FORGED, "x-remote-user": "alice" })).toEqual({
      [PROXY_USER_HEADER]: "alice",
      [PROXY_GROUPS_HEADER]: "",
    });
  });

  it("strips everything while the feature is off", () => {
    expect(guarded("10.0.0.1", { "x-remote-user": "alice", "x-remote-group": "admins", ...FORGED }, OFF)).toEqual({});
  });

  it("takes no value that cannot be one person's name", () => {
    for (const user of ["", "   ", "alice, bob", "a".repeat(257), "alice\tbob"]) {
      expect(guarded("10.0.0.1", { "x-remote-user": user, ...FORGED })).toEqual({});
    }
  });
});

describe("proxyIdentity", () => {
  const GUARDED = Symbol.for("almanac.proxy-headers-guarded");
  beforeEach(() => {
    (globalThis as Record<symbol, unknown>)[GUARDED] = undefined; // a process without the guard
  });
  afterEach(() => {
    useConfig(undefined);
  });

  const headers = new Headers({ [PROXY_USER_HEADER]: "alice@example.com", [PROXY_GROUPS_HEADER]: "team-a,viewers" });

  it("reads the person and their groups in a guarded process with the feature on", () => {
    useConfig(loadConfig({ ALMANAC_TRUSTED_PROXY_ADDRESSES: "10.0.0.0/8" }));
    proxyHeaderGuard(ON);
    expect(proxyIdentity(headers)).toEqual({ user: "alice@example.com", groups: ["team-a", "viewers"] });
    expect(proxyIdentity(new Headers({ [PROXY_USER_HEADER]: "bob" }))).toEqual({ user: "bob", groups: [] });
    expect(proxyIdentity(new Headers())).toBeUndefined();
  });

  it("believes nothing while the feature is off, even in a guarded process", () => {
    useConfig(loadConfig({}));
    proxyHeaderGuard(OFF);
    expect(proxyIdentity(headers)).toBeUndefined();
  });

  it("believes nothing where no guard runs (next start, next dev)", () => {
    useConfig(loadConfig({ ALMANAC_TRUSTED_PROXY_ADDRESSES: "10.0.0.0/8" }));
    expect(proxyIdentity(headers)).toBeUndefined();
  });
});
