import { describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { UnusableViewerKubeconfig, viewerAccess } from "./viewer-kubeconfig.ts";

const encode = (config: object) => Buffer.from(stringify(config)).toString("base64");

/** Shaped as Gardener's: a cluster per advertised address, the first one current, a client certificate. */
const gardeners = (user: object) => ({
  apiVersion: "v1",
  kind: "Config",
  "current-context": "garden-dev--s-external",
  clusters: [
    {
      name: "garden-dev--s-external",
      cluster: { server: "https://api.s.dev.example.com", "certificate-authority-data": "Q0EK" },
    },
    {
      name: "garden-dev--s-internal",
      cluster: { server: "https://api.s.internal", "certificate-authority-data": "Q0EK" },
    },
  ],
  contexts: [
    { name: "garden-dev--s-external", context: { cluster: "garden-dev--s-external", user: "garden-dev--s" } },
    { name: "garden-dev--s-internal", context: { cluster: "garden-dev--s-internal", user: "garden-dev--s" } },
  ],
  users: [{ name: "garden-dev--s", user }],
});

describe("the viewer kubeconfig the garden issues", () => {
  it("is used with the current context's server, CA and client certificate only", () => {
    const access = viewerAccess(
      encode(gardeners({ "client-certificate-data": "Q0VSVAo=", "client-key-data": "S0VZCg==" })),
    );
    expect(access.server).toBe("https://api.s.dev.example.com");
    expect(access.kubeConfig.getCurrentCluster()).toMatchObject({
      server: "https://api.s.dev.example.com",
      caData: "Q0EK",
      skipTLSVerify: false,
    });
    expect(access.kubeConfig.getCurrentUser()).toMatchObject({ certData: "Q0VSVAo=", keyData: "S0VZCg==" });
  });

  it("never takes a command to run or a file to read from it", () => {
    const exec = { exec: { apiVersion: "client.authentication.k8s.io/v1", command: "/bin/sh", args: ["-c", "id"] } };
    expect(() => viewerAccess(encode(gardeners(exec)))).toThrow(UnusableViewerKubeconfig);
    const files = {
      "client-certificate": "/etc/passwd",
      "client-key": "/etc/shadow",
      "auth-provider": { name: "oidc" },
    };
    expect(() => viewerAccess(encode(gardeners(files)))).toThrow(/no client certificate or token/);
    const both = viewerAccess(encode(gardeners({ token: "t", ...exec, tokenFile: "/var/run/x" })));
    expect(both.kubeConfig.getCurrentUser()).toEqual({ name: "viewer", token: "t" });
  });

  it("is refused, without quoting it, when there is none or it names no server", () => {
    expect(() => viewerAccess(undefined)).toThrow(/no status.kubeconfig/);
    expect(() => viewerAccess(encode({ "current-context": "x", contexts: [], clusters: [], users: [] }))).toThrow(
      /names no API server/,
    );
  });
});
