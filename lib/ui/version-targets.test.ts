import { describe, expect, it } from "vitest";
import type { ExpirableVersion } from "../gardener/types";
import { isMinorUpdate, kubernetesUpdateTargets } from "./version-targets";

const NOW = Date.parse("2026-11-23T09:00:00Z");

const PROFILE: ExpirableVersion[] = [
  { version: "1.34.2", classification: "preview" },
  { version: "1.34.1", classification: "supported" },
  { version: "1.33.6", classification: "supported" },
  { version: "1.33.5", classification: "deprecated", expirationDate: "2027-04-21T09:00:00Z" },
  { version: "1.32.9", classification: "supported", expirationDate: "2027-06-20T09:00:00Z" },
  { version: "1.32.8", classification: "deprecated", expirationDate: "2027-03-22T09:00:00Z" },
  { version: "1.32.7", classification: "deprecated", expirationDate: "2027-01-06T09:00:00Z" },
  { version: "1.31.13", classification: "supported", expirationDate: "2027-01-21T09:00:00Z" },
  { version: "1.31.12", classification: "deprecated", expirationDate: "2026-12-10T09:00:00Z" },
  { version: "1.31.11", classification: "deprecated", expirationDate: "2026-11-10T09:00:00Z" },
  { version: "1.31.10", classification: "deprecated", expirationDate: "2026-11-01T09:00:00Z" },
];

const versions = (list: readonly { version: string }[]) => list.map((t) => t.version);

describe("kubernetesUpdateTargets", () => {
  it("offers newer, non-expired patches of the current minor, newest first", () => {
    const targets = kubernetesUpdateTargets(PROFILE, "1.31.10", NOW);
    // 1.31.11 expired on 10 Nov 2026: it is not offered.
    expect(versions(targets.patch)).toEqual(["1.31.13", "1.31.12"]);
    expect(targets.patch[0]).toEqual({ version: "1.31.13", classification: "supported", expiresAt: "2027-01-21T09:00:00.000Z", recommended: true });
    expect(targets.patch[1]).toMatchObject({ classification: "deprecated", recommended: false });
  });

  it("offers only the next minor and names the later ones", () => {
    const targets = kubernetesUpdateTargets(PROFILE, "1.31.10", NOW);
    expect(targets.nextMinorLine).toBe("1.32");
    expect(versions(targets.nextMinor)).toEqual(["1.32.9", "1.32.8", "1.32.7"]);
    expect(targets.nextMinor.filter((t) => t.recommended).map((t) => t.version)).toEqual(["1.32.9"]);
    expect(targets.laterLines).toEqual(["1.33", "1.34"]);
  });

  it("keeps preview versions, marked as such, and never recommends them", () => {
    const targets = kubernetesUpdateTargets(PROFILE, "1.33.6", NOW);
    expect(targets.patch).toEqual([]);
    expect(targets.nextMinor.map((t) => [t.version, t.classification, t.recommended])).toEqual([
      ["1.34.2", "preview", false],
      ["1.34.1", "supported", true],
    ]);
    expect(targets.laterLines).toEqual([]);
  });

  it("offers nothing from the newest version, nor anything older", () => {
    const targets = kubernetesUpdateTargets(PROFILE, "1.34.2", NOW);
    expect(targets.patch).toEqual([]);
    expect(targets.nextMinor).toEqual([]);
    expect(targets.nextMinorLine).toBe("1.35");
  });

  it("follows lifecycles: a version not yet available is not offered, one that turns expired later is", () => {
    const profile: ExpirableVersion[] = [
      { version: "1.32.1", lifecycle: [{ classification: "preview", startTime: "2027-01-01T00:00:00Z" }] },
      { version: "1.32.0", lifecycle: [{ classification: "supported" }, { classification: "expired", startTime: "2027-02-01T00:00:00Z" }] },
    ];
    const targets = kubernetesUpdateTargets(profile, "1.31.5", NOW);
    expect(targets.nextMinor).toEqual([{ version: "1.32.0", classification: "supported", expiresAt: "2027-02-01T00:00:00.000Z", recommended: true }]);
  });

  it("offers nothing for an unreadable current version", () => {
    expect(kubernetesUpdateTargets(PROFILE, "latest", NOW)).toMatchObject({ patch: [], nextMinor: [], laterLines: [] });
  });
});

describe("isMinorUpdate", () => {
  it("tells minor and major updates from patches", () => {
    expect(isMinorUpdate("1.31.10", "1.31.13")).toBe(false);
    expect(isMinorUpdate("1.31.10", "1.32.0")).toBe(true);
    expect(isMinorUpdate("1.31.10", "2.0.0")).toBe(true);
  });
});
