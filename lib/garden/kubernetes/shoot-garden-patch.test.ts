import { describe, expect, it } from "vitest";
import { shoot, worker } from "../../../tests/support/builders.ts";
import { mergePatchOperations, shootGardenPatch } from "./shoot-garden-patch.ts";

const twoPools = () =>
  shoot("1.31.2", {
    workers: [
      worker("pool-a", "gardenlinux", "1592.4.0"),
      worker("pool-b", "gardenlinux", "1592.4.0", { kubernetes: { version: "1.31.2" } }),
    ],
  });

describe("shootGardenPatch", () => {
  it("sends the user's named fields as a merge patch with the garden's resourceVersion", () => {
    const patch = shootGardenPatch(
      twoPools(),
      {
        metadata: { resourceVersion: "7", annotations: { "gardener.cloud/operation": "reconcile" } },
        spec: { maintenance: { autoUpdate: { machineImageVersion: null } }, hibernation: { enabled: true } },
      },
      "4711",
    );
    expect(patch).toEqual({
      type: "application/merge-patch+json",
      body: {
        metadata: { resourceVersion: "4711", annotations: { "gardener.cloud/operation": "reconcile" } },
        spec: { maintenance: { autoUpdate: { machineImageVersion: null } }, hibernation: { enabled: true } },
      },
    });
  });

  it("sends pools and the other fields as one JSON patch: only the fields that change", () => {
    const patch = shootGardenPatch(
      twoPools(),
      {
        metadata: { annotations: { "confirmation.gardener.cloud/deletion": "true" } },
        spec: {
          kubernetes: { version: "1.31.4" },
          maintenance: { confineSpecUpdateRollout: true, timeWindow: { begin: "220000+0000" } },
          provider: {
            workers: [
              { name: "pool-b", kubernetes: { version: null }, machine: { image: { version: "1592.4.0" } } },
              { name: "pool-a", kubernetes: { version: "1.31.4" } },
            ],
          },
        },
      },
      "4711",
    );
    expect(patch).toEqual({
      type: "application/json-patch+json",
      body: [
        { op: "replace", path: "/metadata/resourceVersion", value: "4711" },
        {
          op: "add",
          path: "/metadata/annotations",
          value: { "confirmation.gardener.cloud/deletion": "true" },
        },
        { op: "add", path: "/spec/maintenance/confineSpecUpdateRollout", value: true },
        { op: "replace", path: "/spec/kubernetes/version", value: "1.31.4" },
        { op: "test", path: "/spec/provider/workers/1/name", value: "pool-b" },
        { op: "remove", path: "/spec/provider/workers/1/kubernetes/version" },
        { op: "test", path: "/spec/provider/workers/0/name", value: "pool-a" },
        { op: "add", path: "/spec/provider/workers/0/kubernetes", value: { version: "1.31.4" } },
      ],
    });
  });

  it("sends a pool's switch to another image as the name and the version at the pool's place", () => {
    const patch = shootGardenPatch(
      twoPools(),
      {
        spec: {
          provider: { workers: [{ name: "pool-b", machine: { image: { name: "suse-chost", version: "15.6.0" } } }] },
        },
      },
      "4711",
    );
    expect(patch).toEqual({
      type: "application/json-patch+json",
      body: [
        { op: "replace", path: "/metadata/resourceVersion", value: "4711" },
        { op: "test", path: "/spec/provider/workers/1/name", value: "pool-b" },
        { op: "replace", path: "/spec/provider/workers/1/machine/image/name", value: "suse-chost" },
        { op: "replace", path: "/spec/provider/workers/1/machine/image/version", value: "15.6.0" },
      ],
    });
  });
});

describe("shootGardenPatch: spec.tolerations", () => {
  const tolerating = () => ({ ...twoPools(), spec: { ...twoPools().spec, tolerations: [{ key: "dedicated" }] } });

  it("sends the whole list, or its removal, in a merge patch", () => {
    expect(
      shootGardenPatch(tolerating(), { spec: { tolerations: [{ key: "gpu", value: "a100" }] } }, "9").body,
    ).toEqual({
      metadata: { resourceVersion: "9" },
      spec: { tolerations: [{ key: "gpu", value: "a100" }] },
    });
    expect(shootGardenPatch(tolerating(), { spec: { tolerations: null } }, "9").body).toEqual({
      metadata: { resourceVersion: "9" },
      spec: { tolerations: null },
    });
  });

  it("replaces or removes the list in a JSON patch that also changes pools", () => {
    const pool = { name: "pool-a", machine: { image: { version: "1600.0.0" } } };
    const replaced = shootGardenPatch(
      tolerating(),
      { spec: { tolerations: [{ key: "gpu" }], provider: { workers: [pool] } } },
      "9",
    );
    expect(replaced.body).toContainEqual({ op: "replace", path: "/spec/tolerations", value: [{ key: "gpu" }] });
    const added = shootGardenPatch(
      twoPools(),
      { spec: { tolerations: [{ key: "gpu" }], provider: { workers: [pool] } } },
      "9",
    );
    expect(added.body).toContainEqual({ op: "add", path: "/spec/tolerations", value: [{ key: "gpu" }] });
    const removed = shootGardenPatch(tolerating(), { spec: { tolerations: null, provider: { workers: [pool] } } }, "9");
    expect(removed.body).toContainEqual({ op: "remove", path: "/spec/tolerations" });
  });
});

describe("mergePatchOperations", () => {
  it("escapes keys as JSON pointers and adds into an existing map", () => {
    expect(
      mergePatchOperations(
        "/metadata",
        { annotations: { "a/b~c": "1", gone: null, kept: "x" } },
        {
          annotations: { gone: "y", kept: "x" },
        },
      ),
    ).toEqual([
      { op: "add", path: "/metadata/annotations/a~1b~0c", value: "1" },
      { op: "remove", path: "/metadata/annotations/gone" },
    ]);
  });
});
