// The demo's registry mirrors: some shoots have them, each valid for the extension.
import { describe, expect, it } from "vitest";
import { registryMirrorExtension, validateMirrorConfig } from "../engine/registry-mirrors.ts";
import { generateLandscape } from "./landscape.ts";

const NOW = Date.parse("2025-11-15T10:30:00Z");

describe("the demo's registry mirrors", () => {
  const { shoots } = generateLandscape({ now: NOW, seed: 42, shoots: 64 });
  const mirrored = shoots.filter((s) => registryMirrorExtension(s));

  it("gives a few shoots a registry-mirror extension the extension accepts", () => {
    expect(mirrored.length).toBeGreaterThanOrEqual(5);
    expect(mirrored.length).toBeLessThan(shoots.length / 2);
    for (const s of mirrored) expect(validateMirrorConfig(registryMirrorExtension(s)!.providerConfig)).toEqual([]);
  });
});
