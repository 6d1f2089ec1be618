// CurrentLifecycleClassification's semantics in Gardener (pkg/api/core/v1beta1/helper/cloudprofile.go),
// checked against the engine's reading of a version at a moment.
import { describe, expect, it } from "vitest";
import type { ExpirableVersion } from "../gardener/types.ts";
import { classificationAt, classificationChangeTimes, expiryTime } from "./classification.ts";

const NOW = Date.parse("2026-11-27T12:00:00Z");
const v = (fields: Partial<ExpirableVersion>): ExpirableVersion => ({ version: "1.31.1", ...fields });

describe("classificationAt", () => {
  it("a stage starting exactly now has not started yet; one a millisecond earlier has", () => {
    const version = v({
      lifecycle: [{ classification: "preview" }, { classification: "supported", startTime: "2026-11-27T12:00:00Z" }],
    });
    expect(classificationAt(version, NOW)).toBe("preview");
    expect(classificationAt(version, NOW + 1)).toBe("supported");
  });

  it("of stages with equal start times the later one wins", () => {
    const at = "2026-11-01T00:00:00Z";
    const version = v({
      lifecycle: [
        { classification: "supported", startTime: at },
        { classification: "deprecated", startTime: at },
      ],
    });
    expect(classificationAt(version, NOW)).toBe("deprecated");
  });

  it("compares start times as instants, whatever their offset", () => {
    // 13:30+01:30 is 12:00Z: exactly now, so not yet started; 13:29:59+01:30 is a second earlier.
    const atNow = v({
      lifecycle: [
        { classification: "supported" },
        { classification: "expired", startTime: "2026-11-27T13:30:00+01:30" },
      ],
    });
    expect(classificationAt(atNow, NOW)).toBe("supported");
    const before = v({
      lifecycle: [
        { classification: "supported" },
        { classification: "expired", startTime: "2026-11-27T13:29:59+01:30" },
      ],
    });
    expect(classificationAt(before, NOW)).toBe("expired");
  });

  it("a stage whose startTime is absent, null or empty has always started", () => {
    const future = "2027-01-01T00:00:00Z";
    for (const startTime of [undefined, null, ""]) {
      const version = v({
        lifecycle: [
          { classification: "preview", startTime: startTime as string | undefined },
          { classification: "supported", startTime: future },
        ],
      });
      expect(classificationAt(version, NOW)).toBe("preview");
    }
  });

  it("with every start in the future the version is unavailable", () => {
    const version = v({
      lifecycle: [
        { classification: "preview", startTime: "2026-12-01T00:00:00Z" },
        { classification: "supported", startTime: "2027-01-01T00:00:00Z" },
      ],
    });
    expect(classificationAt(version, NOW)).toBe("unavailable");
  });

  it("a non-empty lifecycle wins over the legacy fields; an empty one does not", () => {
    const withBoth = v({
      classification: "deprecated",
      expirationDate: "2026-01-01T00:00:00Z",
      lifecycle: [{ classification: "supported" }],
    });
    expect(classificationAt(withBoth, NOW)).toBe("supported");
    const emptyLifecycle = v({ classification: "preview", lifecycle: [] });
    expect(classificationAt(emptyLifecycle, NOW)).toBe("preview");
  });

  it("reads the legacy fields as a classification stage then an expiry, supported by default", () => {
    expect(classificationAt(v({}), NOW)).toBe("supported");
    expect(classificationAt(v({ expirationDate: "2026-11-27T12:00:00Z" }), NOW)).toBe("supported");
    expect(classificationAt(v({ expirationDate: "2026-11-27T12:00:00Z" }), NOW + 1)).toBe("expired");
    expect(classificationAt(v({ classification: "deprecated", expirationDate: "2027-01-01T00:00:00Z" }), NOW)).toBe(
      "deprecated",
    );
  });

  it("null legacy fields are absent ones, not an expiry that has always started", () => {
    const nulls = v({ classification: null, expirationDate: null } as unknown as Partial<ExpirableVersion>);
    expect(classificationAt(nulls, NOW)).toBe("supported");
    expect(expiryTime(nulls)).toBeUndefined();
  });
});

describe("the moments a classification may change", () => {
  it("leave out stages that have always started", () => {
    const version = v({
      lifecycle: [
        { classification: "preview", startTime: null as unknown as string },
        { classification: "supported", startTime: "2027-01-01T00:00:00Z" },
      ],
    });
    expect(classificationChangeTimes(version)).toEqual([Date.parse("2027-01-01T00:00:00Z")]);
  });
});
