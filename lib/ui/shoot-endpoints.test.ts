// The endpoints panel's words: the advertised addresses in order with their meaning, why none
// answer (being created, failed, hibernated, deleting), and the three ways in with this shoot's names.
import { describe, expect, it } from "vitest";
import type { Seed, Shoot } from "../gardener/types.ts";
import { advertisedAddresses, endpointRoutes, reachabilityNote, shootEndpoints } from "./shoot-endpoints.ts";

const shoot = (status: Shoot["status"] = {}, spec: Partial<Shoot["spec"]> = {}): Shoot => ({
  metadata: { name: "web", namespace: "garden-shop" },
  spec: { kubernetes: { version: "1.31.2" }, seedName: "aws-eu1", ...spec },
  status: { seedName: "aws-eu1", technicalID: "shoot--shop--web", ...status },
});
const ADDRESSES = [
  { name: "service-account-issuer", url: "https://api.web.shop.example.com" },
  { name: "internal", url: "https://api.web.shop.internal.example.com" },
  { name: "external", url: "https://api.web.shop.example.com" },
];
const SEED: Seed = {
  metadata: { name: "aws-eu1" },
  spec: { provider: { type: "aws", region: "eu" }, ingress: { domain: "ingress.aws-eu1.example.com" } },
};
const RECONCILED = { type: "Reconcile", state: "Succeeded", progress: 100 } as const;

describe("advertisedAddresses", () => {
  it("lists external, internal, then the issuer, each with its host and meaning", () => {
    const list = advertisedAddresses(shoot({ advertisedAddresses: ADDRESSES }));
    expect(list.map((a) => [a.name, a.host])).toEqual([
      ["external", "api.web.shop.example.com"],
      ["internal", "api.web.shop.internal.example.com"],
      ["service-account-issuer", "api.web.shop.example.com"],
    ]);
    expect(list[0].meaning).toMatch(/kubeconfig/);
  });

  it("keeps an unknown name and a URL it cannot parse", () => {
    expect(advertisedAddresses(shoot({ advertisedAddresses: [{ name: "ingress/x", url: "not a url" }] }))).toEqual([
      {
        name: "ingress/x",
        url: "not a url",
        host: "not a url",
        meaning: "An address the garden reports for this cluster.",
      },
    ]);
  });
});

describe("reachabilityNote", () => {
  it("says nothing for a running cluster with addresses", () => {
    expect(
      reachabilityNote(shoot({ advertisedAddresses: ADDRESSES, lastOperation: RECONCILED }), true),
    ).toBeUndefined();
  });

  it("explains a cluster being created, one whose creation failed, and one without addresses", () => {
    const creating = shoot({ lastOperation: { type: "Create", state: "Processing", progress: 40 } });
    expect(reachabilityNote(creating, false)?.text).toMatch(/being created: .*once the API server runs/);
    const failed = shoot({ lastOperation: { type: "Create", state: "Failed", progress: 10 } });
    expect(reachabilityNote(failed, false)?.text).toMatch(/creation failed/);
    expect(reachabilityNote(shoot({ lastOperation: RECONCILED }), false)?.text).toBe(
      "The garden reports no addresses for this cluster.",
    );
  });

  it("says a hibernated cluster keeps its addresses but answers nowhere, and a deleting one goes away", () => {
    const hibernated = shoot({ hibernated: true, advertisedAddresses: ADDRESSES }, { hibernation: { enabled: true } });
    expect(reachabilityNote(hibernated, true)).toMatchObject({
      kind: "hibernated",
      text: expect.stringMatching(/scaled to zero/),
    });
    const deleting = { ...shoot(), metadata: { name: "web", deletionTimestamp: "2026-01-01T00:00:00Z" } };
    expect(reachabilityNote(deleting, true)?.kind).toBe("deleting");
  });
});

describe("endpointRoutes", () => {
  it("names the seed, its ingress domain, the hosts and the control plane namespace", () => {
    const s = shoot({ advertisedAddresses: ADDRESSES });
    const routes = endpointRoutes(s, advertisedAddresses(s), SEED);
    expect(routes.map((r) => r.port)).toEqual([443, 8443, 8132]);
    expect(routes[0].steps[0]).toBe(
      "DNS resolves api.web.shop.example.com or api.web.shop.internal.example.com to the load balancer of the Istio ingress gateway of seed aws-eu1 (the seed's ingress domain is ingress.aws-eu1.example.com).",
    );
    expect(routes[0].steps[2]).toMatch(/kube-apiserver in namespace shoot--shop--web/);
    expect(routes[1].steps[0]).toMatch(/kubernetes\.default\.svc\.cluster\.local/);
    expect(routes[1].steps[1]).toMatch(/PROXY protocol/);
    expect(routes[2].steps[1]).toMatch(/HTTP header .*\(shoot--shop--web\)/);
  });

  it("falls back to the documented patterns without addresses or a seed", () => {
    const routes = endpointRoutes({ metadata: { name: "x" }, spec: { kubernetes: { version: "1.31.2" } } }, []);
    expect(routes[0].steps[0]).toBe(
      "DNS resolves api.<external domain> or api.<shoot>.<project>.<internal domain> to the load balancer of the seed's Istio ingress gateway.",
    );
  });
});

describe("shootEndpoints", () => {
  it("puts it together", () => {
    const view = shootEndpoints(shoot({ advertisedAddresses: ADDRESSES, lastOperation: RECONCILED }), SEED);
    expect(view.note).toBeUndefined();
    expect(view.seed).toEqual({ name: "aws-eu1", ingressDomain: "ingress.aws-eu1.example.com" });
    expect(view.controlPlaneNamespace).toBe("shoot--shop--web");
    expect(view.addresses).toHaveLength(3);
  });
});
