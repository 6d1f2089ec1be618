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

  it("is refused when its server is plain HTTP or it carries no CA, before its credential is used", () => {
    const withCluster = (cluster: object) => {
      const config = gardeners({ token: "secret-token" });
      config.clusters[0].cluster = cluster as (typeof config.clusters)[0]["cluster"];
      return encode(config);
    };
    const plain = withCluster({ server: "http://api.s.dev.example.com", "insecure-skip-tls-verify": true });
    expect(() => viewerAccess(plain)).toThrow(/http:\/\/api.s.dev.example.com is not https:\/\/.*cleartext/);
    const noCa = withCluster({ server: "https://api.s.dev.example.com", "insecure-skip-tls-verify": true });
    expect(() => viewerAccess(noCa)).toThrow(/no certificate-authority-data.*could not be verified/);
    for (const refused of [plain, noCa]) expect(() => viewerAccess(refused)).not.toThrow(/secret-token/);
    // With a CA, a request to skip verification is not followed.
    const both = viewerAccess(
      withCluster({
        server: "https://api.s.dev.example.com",
        "certificate-authority-data": "Q0EK",
        "insecure-skip-tls-verify": true,
      }),
    );
    expect(both.kubeConfig.getCurrentCluster()).toMatchObject({ caData: "Q0EK", skipTLSVerify: false });
  });

  it("takes a plain-HTTP, unverified server only when the tests' wiring allows it", () => {
    const config = gardeners({ token: "t" });
    config.clusters[0].cluster = { server: "http://127.0.0.1:8080", "insecure-skip-tls-verify": true } as never;
    const access = viewerAccess(encode(config), { insecureForTests: true });
    expect(access.kubeConfig.getCurrentCluster()).toMatchObject({
      server: "http://127.0.0.1:8080",
      skipTLSVerify: true,
    });
  });

  it("is refused, without quoting it, when there is none or it names no server", () => {
    expect(() => viewerAccess(undefined)).toThrow(/no status.kubeconfig/);
    expect(() => viewerAccess(encode({ "current-context": "x", contexts: [], clusters: [], users: [] }))).toThrow(
      /names no API server/,
    );
  });
});
