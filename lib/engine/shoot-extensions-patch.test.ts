// spec.extensions in a user's patch: matched by type, only registry-mirror, providerConfig
// replacing its configuration, null removing it; audited by JSON.
import { describe, expect, it } from "vitest";
import type { Shoot } from "../gardener/types.ts";
import { MIRROR_CONFIG_FIELD } from "./registry-mirrors.ts";
import { MAX_PROVIDER_CONFIG_DEPTH, jsonDepthOver } from "./shoot-extensions-patch.ts";
import { applyShootPatch, changedFields, shootPatchSchema } from "./shoot-patch.ts";

const mirrors = (host: string) => ({
  apiVersion: "mirror.extensions.gardener.cloud/v1alpha1",
  kind: "MirrorConfig",
  mirrors: [{ upstream: "docker.io", hosts: [{ host }] }],
});

const SHOOT: Shoot = {
  metadata: { name: "s", namespace: "garden-dev" },
  spec: {
    kubernetes: { version: "1.31.1" },
    extensions: [{ type: "shoot-dns-service", providerConfig: { zones: 1 } }],
  },
};

const patch = (extensions: unknown) => shootPatchSchema.parse({ spec: { extensions } });

describe("applyShootPatch: spec.extensions", () => {
  it("adds the registry-mirror extension beside the others, then replaces its providerConfig", () => {
    const added = applyShootPatch(SHOOT, patch([{ type: "registry-mirror", providerConfig: mirrors("https://a.io") }]));
    expect(added.shoot?.spec.extensions).toEqual([
      { type: "shoot-dns-service", providerConfig: { zones: 1 } },
      { type: "registry-mirror", providerConfig: mirrors("https://a.io") },
    ]);
    const replaced = applyShootPatch(
      added.shoot!,
      patch([{ type: "registry-mirror", providerConfig: mirrors("https://b.io") }]),
    );
    expect(replaced.shoot?.spec.extensions?.[1]).toEqual({
      type: "registry-mirror",
      providerConfig: mirrors("https://b.io"),
    });
    expect(changedFields(added.shoot!, replaced.shoot!)).toEqual([
      { field: MIRROR_CONFIG_FIELD, before: mirrors("https://a.io"), after: mirrors("https://b.io") },
    ]);
    // The same configuration again changes nothing (compared by JSON, not by identity).
    const again = applyShootPatch(
      replaced.shoot!,
      patch([{ type: "registry-mirror", providerConfig: mirrors("https://b.io") }]),
    );
    expect(changedFields(replaced.shoot!, again.shoot!)).toEqual([]);
    // Nor does it with its keys in another order (jsonb gives stored objects back reordered).
    const { mirrors: list, kind, apiVersion } = mirrors("https://b.io");
    const reordered = applyShootPatch(
      replaced.shoot!,
      patch([{ type: "registry-mirror", providerConfig: { mirrors: list, kind, apiVersion } }]),
    );
    expect(changedFields(replaced.shoot!, reordered.shoot!)).toEqual([]);
  });

  it("removes it on null, and leaves the others alone", () => {
    const withMirror: Shoot = {
      ...SHOOT,
      spec: {
        ...SHOOT.spec,
        extensions: [...SHOOT.spec.extensions!, { type: "registry-mirror", providerConfig: mirrors("https://a.io") }],
      },
    };
    const removed = applyShootPatch(withMirror, patch([{ type: "registry-mirror", providerConfig: null }]));
    expect(removed.shoot?.spec.extensions).toEqual(SHOOT.spec.extensions);
    const only: Shoot = { ...SHOOT, spec: { ...SHOOT.spec, extensions: [withMirror.spec.extensions![1]] } };
    expect(
      applyShootPatch(only, patch([{ type: "registry-mirror", providerConfig: null }])).shoot?.spec,
    ).not.toHaveProperty("extensions");
  });

  it("refuses another extension type, the same type twice, and a missing providerConfig", () => {
    expect(applyShootPatch(SHOOT, patch([{ type: "shoot-dns-service", providerConfig: {} }])).problem).toEqual(
      expect.objectContaining({ type: "NotSupported", field: "spec.extensions[0].type" }),
    );
    expect(
      applyShootPatch(
        SHOOT,
        patch([
          { type: "registry-mirror", providerConfig: null },
          { type: "registry-mirror", providerConfig: null },
        ]),
      ).problem,
    ).toEqual(expect.objectContaining({ type: "Duplicate", field: "spec.extensions[1].type" }));
    expect(applyShootPatch(SHOOT, patch([{ type: "registry-mirror" }])).problem).toEqual(
      expect.objectContaining({ type: "Required", field: "spec.extensions[0].providerConfig" }),
    );
  });

  it("refuses unknown keys of an extension in the patch (400)", () => {
    expect(
      shootPatchSchema.safeParse({ spec: { extensions: [{ type: "registry-mirror", disabled: true }] } }).success,
    ).toBe(false);
  });

  it("refuses a providerConfig nested deeper than 32 levels with a field problem (400), without overflowing", () => {
    // As the route receives it: 100,000 levels as JSON text, parsed (JSON.stringify would overflow).
    const deep = `${'{"a":'.repeat(100_000)}"bottom"${"}".repeat(100_000)}`;
    const body: unknown = JSON.parse(`{"spec":{"extensions":[{"type":"registry-mirror","providerConfig":${deep}}]}}`);
    const parsed = shootPatchSchema.safeParse(body);
    expect(parsed.success).toBe(false);
    // The route names the field from the issue's path (a 400 problem, as for any schema error).
    expect(parsed.error!.issues).toEqual([
      expect.objectContaining({
        path: ["spec", "extensions", 0, "providerConfig"],
        message: `must not nest more than ${MAX_PROVIDER_CONFIG_DEPTH} levels deep`,
      }),
    ]);
  });

  it("accepts a providerConfig exactly 32 levels deep", () => {
    let deep: unknown = [];
    for (let i = 1; i < MAX_PROVIDER_CONFIG_DEPTH; i++) deep = { a: deep };
    expect(jsonDepthOver(deep, MAX_PROVIDER_CONFIG_DEPTH)).toBe(false);
    expect(jsonDepthOver({ a: deep }, MAX_PROVIDER_CONFIG_DEPTH)).toBe(true);
    expect(patch([{ type: "registry-mirror", providerConfig: deep }])).toBeTruthy();
  });

  it("enables a disabled registry-mirror extension when mirrors are saved onto it, an audited change", () => {
    const disabled: Shoot = {
      ...SHOOT,
      spec: {
        ...SHOOT.spec,
        extensions: [{ type: "registry-mirror", disabled: true, providerConfig: mirrors("https://a.io") }],
      },
    };
    const saved = applyShootPatch(
      disabled,
      patch([{ type: "registry-mirror", providerConfig: mirrors("https://a.io") }]),
    );
    expect(saved.shoot?.spec.extensions).toEqual([
      { type: "registry-mirror", providerConfig: mirrors("https://a.io") },
    ]);
    // The same mirrors saved again still change the shoot: the extension is on now.
    expect(changedFields(disabled, saved.shoot!)).toEqual([
      { field: "spec.extensions[type=registry-mirror].disabled", before: true, after: undefined },
    ]);
  });
});
