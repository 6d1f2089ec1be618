import { describe, expect, it } from "vitest";
import type { ExpirableVersion } from "../gardener/types.ts";
import {
  kubernetesTimeline,
  lineClassificationAt,
  monthTicks,
  segmentAt,
  timelineRange,
  versionSegments,
} from "./profile-timeline.ts";

const DAY = 86_400_000;
const t = (iso: string) => Date.parse(iso);
const now = t("2026-11-23T09:00:00Z");
const range = { start: t("2026-09-01T00:00:00Z"), end: t("2027-06-01T00:00:00Z") };

describe("versionSegments", () => {
  it("splits a legacy version at its expiration date", () => {
    const v = { version: "1.31.10", classification: "deprecated", expirationDate: "2026-11-27T09:00:00Z" };
    expect(versionSegments(v, range)).toEqual([
      { start: range.start, end: t("2026-11-27T09:00:00Z"), classification: "deprecated" },
      { start: t("2026-11-27T09:00:00Z"), end: range.end, classification: "expired" },
    ]);
  });

  it("follows every lifecycle stage, unavailable before the first one starts", () => {
    const v: ExpirableVersion = {
      version: "1.35.0",
      lifecycle: [
        { classification: "preview", startTime: "2026-10-01T00:00:00Z" },
        { classification: "supported", startTime: "2026-12-01T00:00:00Z" },
        { classification: "deprecated", startTime: "2027-03-01T00:00:00Z" },
        { classification: "expired", startTime: "2027-05-01T00:00:00Z" },
      ],
    };
    expect(
      versionSegments(v, range).map((s) => [new Date(s.start).toISOString().slice(0, 10), s.classification]),
    ).toEqual([
      ["2026-09-01", "unavailable"],
      ["2026-10-01", "preview"],
      ["2026-12-01", "supported"],
      ["2027-03-01", "deprecated"],
      ["2027-05-01", "expired"],
    ]);
  });

  it("is one supported segment for a version without classification or expiry", () => {
    expect(versionSegments({ version: "1.34.1" }, range)).toEqual([
      { start: range.start, end: range.end, classification: "supported" },
    ]);
  });

  it("starts expired when the version expired before the range", () => {
    expect(versionSegments({ version: "1.29.0", expirationDate: "2026-01-01T00:00:00Z" }, range)).toEqual([
      { start: range.start, end: range.end, classification: "expired" },
    ]);
  });
});

describe("minor lines", () => {
  const line: ExpirableVersion[] = [
    { version: "1.31.13", classification: "supported", expirationDate: "2027-01-22T09:00:00Z" },
    { version: "1.31.9", classification: "deprecated", expirationDate: "2026-11-11T09:00:00Z" },
  ];

  it("take the best classification of their patches, and expire with the last one", () => {
    expect(lineClassificationAt(line, now)).toBe("supported");
    expect(lineClassificationAt(line, t("2027-02-01T00:00:00Z"))).toBe("expired");
    expect(
      lineClassificationAt(
        [
          { version: "1.34.2", classification: "preview" },
          { version: "1.34.0", classification: "deprecated" },
        ],
        now,
      ),
    ).toBe("deprecated");
  });

  it("are listed newest first, each followed by its patches, newest first", () => {
    const rows = kubernetesTimeline(
      [...line, { version: "1.32.0", classification: "preview" }, { version: "1.31.10", classification: "deprecated" }],
      range,
      now,
    );
    expect(rows.map((r) => r.key)).toEqual([
      "line:1.32",
      "patch:1.32.0",
      "line:1.31",
      "patch:1.31.13",
      "patch:1.31.10",
      "patch:1.31.9",
    ]);
    const line31 = rows[2];
    expect(line31).toMatchObject({
      kind: "line",
      label: "1.31",
      versions: ["1.31.13", "1.31.10", "1.31.9"],
      classificationNow: "supported",
    });
    // 1.31.10 never expires, so neither does the line.
    expect(line31.expiresAt).toBeUndefined();
    expect(rows[3].expiresAt).toBe(t("2027-01-22T09:00:00Z"));
    expect(rows.find((r) => r.key === "patch:1.31.9")?.classificationNow).toBe("expired");
  });

  it("show the line's end when every patch expires", () => {
    const rows = kubernetesTimeline(line, range, now);
    expect(rows[0].expiresAt).toBe(t("2027-01-22T09:00:00Z"));
    expect(rows[0].segments.map((s) => s.classification)).toEqual(["supported", "expired"]);
    expect(segmentAt(rows[0], t("2027-01-22T09:00:00Z"))?.classification).toBe("expired");
    expect(segmentAt(rows[0], t("2027-01-22T08:59:59Z"))?.classification).toBe("supported");
    expect(segmentAt(rows[0], range.end)).toBeUndefined();
  });

  it("keep versions that do not parse, last", () => {
    const rows = kubernetesTimeline([{ version: "not-a-version" }, { version: "1.30.1" }], range, now);
    expect(rows.map((r) => r.key)).toEqual(["line:1.30", "patch:1.30.1", "line:other", "patch:not-a-version"]);
  });
});

describe("timelineRange", () => {
  it("covers two months back and six ahead at least, from the first of a month", () => {
    const r = timelineRange([{ version: "1.34.1" }], now);
    expect(new Date(r.start).toISOString()).toBe("2026-09-01T00:00:00.000Z");
    expect(r.end).toBe(now + 182 * DAY);
  });

  it("stretches to show every change with a margin, within a year back and three ahead", () => {
    const r = timelineRange(
      [
        { version: "1.30.10", expirationDate: "2026-06-26T09:00:00Z" },
        { version: "1.34.0", expirationDate: "2027-06-11T09:00:00Z" },
        { version: "1.20.0", expirationDate: "2020-01-01T00:00:00Z" },
        { version: "1.40.0", expirationDate: "2035-01-01T00:00:00Z" },
      ],
      now,
    );
    expect(new Date(r.start).toISOString()).toBe("2025-11-01T00:00:00.000Z");
    expect(r.end).toBe(now + 3 * 365 * DAY);
    const r2 = timelineRange(
      [
        { version: "1.30.10", expirationDate: "2026-06-26T09:00:00Z" },
        { version: "1.34.0", expirationDate: "2027-06-11T09:00:00Z" },
      ],
      now,
    );
    expect(new Date(r2.start).toISOString()).toBe("2026-06-01T00:00:00.000Z");
    expect(r2.end).toBe(t("2027-06-11T09:00:00Z") + 30 * DAY);
  });

  it("has a tick on the first of every month", () => {
    expect(
      monthTicks({ start: t("2026-09-01T00:00:00Z"), end: t("2026-12-15T00:00:00Z") }).map((x) =>
        new Date(x).toISOString().slice(0, 10),
      ),
    ).toEqual(["2026-09-01", "2026-10-01", "2026-11-01", "2026-12-01"]);
  });
});
