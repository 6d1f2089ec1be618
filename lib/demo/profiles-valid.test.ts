// The simulated garden's cloud profiles are ones a real garden's API server would have admitted:
// they pass Gardener's CloudProfile validation, lifecycle rules included.
import { describe, expect, it } from "vitest";
import { resolvedNamespacedProfile } from "../gardener/profile-reference.ts";
import { validateCloudProfile } from "../engine/validate-cloud-profile.ts";
import { generateLandscape } from "./landscape.ts";

const NOW = Date.parse("2026-11-27T08:00:00Z");

describe("the demo landscape's cloud profiles", () => {
  const landscape = generateLandscape({ now: NOW, shoots: 300, seed: 42 });

  it("every CloudProfile passes validation", () => {
    const problems = landscape.cloudProfiles.flatMap((p) =>
      validateCloudProfile(p, NOW).map((e) => `${p.metadata.name}: ${e.field}: ${e.detail}`),
    );
    expect(problems).toEqual([]);
  });

  it("every NamespacedCloudProfile's resolved spec passes validation", () => {
    const problems = (landscape.namespacedCloudProfiles ?? []).flatMap((n) => {
      const resolved = resolvedNamespacedProfile(n);
      return resolved
        ? validateCloudProfile(resolved, NOW).map(
            (e) => `${n.metadata.namespace}/${n.metadata.name}: ${e.field}: ${e.detail}`,
          )
        : [];
    });
    expect(problems).toEqual([]);
  });
});
