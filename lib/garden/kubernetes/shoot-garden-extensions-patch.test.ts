// The registry-mirror extension as a live garden is sent it: a JSON patch of exactly that
// extension (matched by type), never a merge patch that would replace the whole extensions list.
import { describe, expect, it } from "vitest";
import { shoot } from "../../../tests/support/builders.ts";
import type { Shoot } from "../../gardener/types.ts";
import { shootGardenPatch } from "./shoot-garden-patch.ts";

const mirrors = (host: string) => ({
  apiVersion: "mirror.extensions.gardener.cloud/v1alpha1",
  kind: "MirrorConfig",
  mirrors: [{ upstream: "docker.io", hosts: [{ host }] }],
});

const withExtensions = (extensions?: Shoot["spec"]["extensions"]): Shoot => {
  const s = shoot("1.31.2");
  return extensions ? { ...s, spec: { ...s.spec, extensions } } : s;
};

const RV = { op: "replace", path: "/metadata/resourceVersion", value: "4711" };

describe("shootGardenPatch: spec.extensions", () => {
  it("replaces the providerConfig of the extension at its index, after a test of its type", () => {
    const before = withExtensions([
      { type: "shoot-dns-service" },
      { type: "registry-mirror", providerConfig: mirrors("https://old.example.com") },
    ]);
    const patch = shootGardenPatch(
      before,
      { spec: { extensions: [{ type: "registry-mirror", providerConfig: mirrors("https://new.example.com") }] } },
      "4711",
    );
    expect(patch).toEqual({
      type: "application/json-patch+json",
      body: [
        RV,
        { op: "test", path: "/spec/extensions/1/type", value: "registry-mirror" },
        { op: "replace", path: "/spec/extensions/1/providerConfig", value: mirrors("https://new.example.com") },
      ],
    });
  });

  it("appends the extension to a list without it, and adds the list when there is none", () => {
    const config = mirrors("https://m.example.com");
    const change = { spec: { extensions: [{ type: "registry-mirror", providerConfig: config }] } };
    expect(shootGardenPatch(withExtensions([{ type: "shoot-dns-service" }]), change, "4711").body).toEqual([
      RV,
      { op: "add", path: "/spec/extensions/-", value: { type: "registry-mirror", providerConfig: config } },
    ]);
    expect(shootGardenPatch(withExtensions(), change, "4711").body).toEqual([
      RV,
      { op: "add", path: "/spec/extensions", value: [{ type: "registry-mirror", providerConfig: config }] },
    ]);
  });

  it("removes only that extension on null, and sends nothing for one the shoot does not have", () => {
    const before = withExtensions([
      { type: "registry-mirror", providerConfig: mirrors("https://m.example.com") },
      { type: "shoot-dns-service" },
    ]);
    const remove = { spec: { extensions: [{ type: "registry-mirror", providerConfig: null }] } };
    expect(shootGardenPatch(before, remove, "4711").body).toEqual([
      RV,
      { op: "test", path: "/spec/extensions/0/type", value: "registry-mirror" },
      { op: "remove", path: "/spec/extensions/0" },
    ]);
    expect(shootGardenPatch(withExtensions(), remove, "4711").body).toEqual([RV]);
  });

  it("goes with other fields in the same JSON patch", () => {
    const patch = shootGardenPatch(
      withExtensions(),
      {
        spec: {
          hibernation: { enabled: true },
          extensions: [{ type: "registry-mirror", providerConfig: mirrors("https://m.example.com") }],
        },
      },
      "4711",
    );
    expect(patch.type).toBe("application/json-patch+json");
    expect(patch.body).toContainEqual({ op: "add", path: "/spec/hibernation", value: { enabled: true } });
  });

  it("enables an extension the shoot had disabled when mirrors are saved onto it", () => {
    const before = withExtensions([
      { type: "registry-mirror", disabled: true, providerConfig: mirrors("https://a.io") },
    ]);
    const change = { spec: { extensions: [{ type: "registry-mirror", providerConfig: mirrors("https://b.io") }] } };
    expect(shootGardenPatch(before, change, "4711").body).toEqual([
      RV,
      { op: "test", path: "/spec/extensions/0/type", value: "registry-mirror" },
      { op: "replace", path: "/spec/extensions/0/providerConfig", value: mirrors("https://b.io") },
      { op: "remove", path: "/spec/extensions/0/disabled" },
    ]);
  });
});
