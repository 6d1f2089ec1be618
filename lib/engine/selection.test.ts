import { describe, expect, it } from "vitest";
import type { ExpirableVersion } from "../gardener/types.ts";
import { classificationAt } from "./classification.ts";
import {
  CandidateList,
  consecutiveMinorForce,
  determineVersionForStrategy,
  latestQualifying,
  minorAuto,
  nextHigherMajorForce,
  nextHigherMinorForce,
  overallAuto,
  patchAuto,
} from "./selection.ts";

const NOW = Date.parse("2026-11-22T12:00:00Z");
const PAST = "2026-01-01T00:00:00Z";
const list = (versions: (string | ExpirableVersion)[]) =>
  CandidateList.of(
    versions.map((v) => (typeof v === "string" ? { version: v } : v)),
    NOW,
  );
const pick = (fn: typeof patchAuto, versions: (string | ExpirableVersion)[], cur: string) =>
  fn(list(versions), cur)?.text;

describe("classificationAt", () => {
  it("treats an expiry exactly at now as not expired yet", () => {
    const v = { version: "1.0.0", expirationDate: "2026-11-22T12:00:00Z" };
    expect(classificationAt(v, NOW)).toBe("supported");
    expect(classificationAt(v, NOW + 1)).toBe("expired");
  });
  it("defaults to supported without lifecycle or legacy fields", () => {
    expect(classificationAt({ version: "1.0.0" }, NOW)).toBe("supported");
  });
  it("keeps a legacy classification until the expiration date", () => {
    expect(
      classificationAt({ version: "1", classification: "deprecated", expirationDate: "2027-01-01T00:00:00Z" }, NOW),
    ).toBe("deprecated");
  });
  it("is unavailable before the first lifecycle stage starts", () => {
    expect(
      classificationAt(
        { version: "1", lifecycle: [{ classification: "preview", startTime: "2027-01-01T00:00:00Z" }] },
        NOW,
      ),
    ).toBe("unavailable");
  });
  it("takes the last started stage in list order, not the latest by time", () => {
    const v = {
      version: "1",
      lifecycle: [
        { classification: "deprecated", startTime: "2026-06-01T00:00:00Z" },
        { classification: "supported", startTime: "2026-01-01T00:00:00Z" },
      ],
    };
    expect(classificationAt(v, NOW)).toBe("supported");
  });
});

describe("latestQualifying", () => {
  it("never selects preview versions nor 0.0.0", () => {
    expect(latestQualifying(list([{ version: "2.0.0", classification: "preview" }, "1.0.0"]), [])?.text).toBe("1.0.0");
    expect(latestQualifying(list(["0.0.0"]), [])).toBeUndefined();
  });
  it("returns the first entry on ties and keeps the original string", () => {
    const l = list(["1.8", "1.8.0"]);
    expect(latestQualifying(l, [])?.text).toBe("1.8");
  });
  it("selects unavailable versions (only preview is skipped)", () => {
    const l = list([
      { version: "2.0.0", lifecycle: [{ classification: "supported", startTime: "2027-01-01T00:00:00Z" }] },
      "1.0.0",
    ]);
    expect(latestQualifying(l, [])?.text).toBe("2.0.0");
  });
  it("fails the whole selection on an unparsable version", () => {
    expect(() => latestQualifying(list(["1.0.0", "1.213123xx"]), [])).toThrow("Invalid Semantic Version");
  });
});

describe("auto-update helpers", () => {
  it("patchAuto picks the latest patch of the minor, never the next minor", () => {
    expect(pick(patchAuto, ["1.11.0", "1.10.5", "1.10.0"], "1.10.0")).toBe("1.10.5");
  });
  it("patchAuto prefers a lower supported patch over a higher deprecated one", () => {
    expect(pick(patchAuto, [{ version: "1.10.7", classification: "deprecated" }, "1.10.5", "1.10.0"], "1.10.0")).toBe(
      "1.10.5",
    );
  });
  it("patchAuto falls back to deprecated versions when nothing else qualifies", () => {
    expect(pick(patchAuto, [{ version: "1.10.7", classification: "deprecated" }, "1.10.0"], "1.10.0")).toBe("1.10.7");
  });
  it("patchAuto never picks expired, same or lower versions", () => {
    expect(
      pick(patchAuto, [{ version: "1.10.7", expirationDate: PAST }, "1.10.3", "1.10.5"], "1.10.5"),
    ).toBeUndefined();
  });
  it("minorAuto finishes the current minor first, even with a deprecated patch", () => {
    expect(
      pick(minorAuto, ["934.9.0", { version: "934.8.1", classification: "deprecated" }, "934.8.0"], "934.8.0"),
    ).toBe("934.8.1");
    expect(pick(minorAuto, ["1096.1.0", "934.9.0", "934.8.0"], "934.8.0")).toBe("934.9.0");
  });
  it("minorAuto stays in the major; overallAuto does not", () => {
    expect(pick(minorAuto, ["1096.1.0", "934.8.0"], "934.8.0")).toBeUndefined();
    expect(pick(overallAuto, ["1096.1.0", "934.8.0"], "934.8.0")).toBe("1096.1.0");
  });
  it("~0.0.0 accepts every version, so 0.0.0 moves to the overall latest", () => {
    expect(pick(patchAuto, ["3.1.0", "0.0.0"], "0.0.0")).toBe("3.1.0");
  });
});

describe("force-update helpers", () => {
  it("consecutiveMinorForce takes the latest patch of the next minor, preferring non-expired", () => {
    expect(pick(consecutiveMinorForce, ["1.12.8", "1.11.10", "1.11.09", "1.10.12"], "1.10.12")).toBe("1.11.10");
    expect(pick(consecutiveMinorForce, [{ version: "1.11.10", expirationDate: PAST }, "1.11.9"], "1.10.12")).toBe(
      "1.11.9",
    );
    expect(pick(consecutiveMinorForce, [{ version: "1.11.10", expirationDate: PAST }], "1.10.12")).toBe("1.11.10");
  });
  it("consecutiveMinorForce never jumps a minor and ignores deprecation", () => {
    expect(pick(consecutiveMinorForce, ["1.26.10", "1.26.9"], "1.24.12")).toBeUndefined();
    expect(
      pick(consecutiveMinorForce, [{ version: "1.25.10", classification: "deprecated" }, "1.25.9"], "1.24.12"),
    ).toBe("1.25.10");
  });
  it("nextHigherMinorForce skips minors that only have preview versions", () => {
    expect(
      pick(
        nextHigherMinorForce,
        [{ version: "15.4.1", classification: "preview" }, "15.5.2", "15.5.1", "15.3.9"],
        "15.3.9",
      ),
    ).toBe("15.5.2");
  });
  // As Gardener's GetQualifyingVersionForNextHigher: the next minor is sought over all majors.
  it("nextHigherMinorForce counts other majors when computing the next minor", () => {
    const expired = { version: "1.3.5", expirationDate: PAST };
    expect(pick(nextHigherMinorForce, ["1.3.0", expired, "2.2.0"], "1.1.0")).toBe("1.3.5");
    expect(pick(nextHigherMinorForce, ["1.3.0", expired], "1.1.0")).toBe("1.3.0");
  });
  it("nextHigherMajorForce prefers non-expired but not non-deprecated versions", () => {
    const versions = [
      { version: "0.4.1", expirationDate: PAST },
      "2.0.0",
      { version: "2.1.1", classification: "deprecated" },
    ];
    expect(pick(nextHigherMajorForce, versions, "0.4.1")).toBe("2.1.1");
  });
});

describe("determineVersionForStrategy", () => {
  it("returns the auto target even for expired versions", () => {
    expect(
      determineVersionForStrategy(
        list(["2191.5.0", { version: "2135.6.0", expirationDate: PAST }]),
        "2135.6.0",
        overallAuto,
        nextHigherMajorForce,
        true,
      ),
    ).toBe("2191.5.0");
  });
  it("returns nothing when up to date and not expired", () => {
    expect(determineVersionForStrategy(list(["1.10.5"]), "1.10.5", patchAuto, consecutiveMinorForce, false)).toBe("");
  });
  it("names the misconfiguration when no forced target exists", () => {
    expect(() =>
      determineVersionForStrategy(list(["1.26.10", "1.24.12"]), "1.24.12", patchAuto, consecutiveMinorForce, true),
    ).toThrow(
      'cannot perform forceful update of expired version "1.24.12". No suitable version found in CloudProfile - this is most likely a misconfiguration of the CloudProfile',
    );
  });
  it("wraps errors of the auto path", () => {
    expect(() => determineVersionForStrategy(list(["x"]), "1.0.0", patchAuto, consecutiveMinorForce, false)).toThrow(
      "failed to determine a higher patch version for automatic update: Invalid Semantic Version",
    );
  });
});
