import { describe, expect, it } from "vitest";
import type { VersionInUse } from "../engine/versions-in-use.ts";
import type { ForecastItem, MaintenancePlan } from "./api-types.ts";
import {
  changeType,
  countdownParts,
  describeOutlook,
  describePlanWindow,
  describeVersion,
  formatWindowStart,
  realChanges,
} from "./expiry-outlook.ts";

const NOW = Date.parse("2026-11-23T09:00:00Z");
const cp = (
  version: string,
  expiresAt?: string,
  classification: VersionInUse["classification"] = "deprecated",
): VersionInUse => ({
  target: "controlPlane",
  kind: "kubernetes",
  name: "Kubernetes",
  version,
  classification,
  ...(expiresAt ? { expiresAt: Date.parse(expiresAt) } : {}),
});
const image = (pool: string, version: string, expiresAt?: string): VersionInUse => ({
  target: pool,
  kind: "machineImage",
  name: "gardenlinux",
  version,
  classification: "supported",
  ...(expiresAt ? { expiresAt: Date.parse(expiresAt) } : {}),
});
const item = (from: string, to: string | null, begin: string, extra: Partial<ForecastItem> = {}): ForecastItem => ({
  namespace: "ns",
  name: "s",
  cloudProfile: "azure",
  at: begin,
  window: { begin, end: begin },
  target: "controlPlane",
  kind: "kubernetes",
  from,
  ...(to === null ? {} : { to }),
  reason: "Kubernetes version expired - force update required",
  stuck: to === null,
  message: "",
  ...extra,
});
const plan = (changes: MaintenancePlan["changes"]): MaintenancePlan => ({
  namespace: "ns",
  name: "s",
  at: "2026-11-23T22:39:00Z",
  window: { begin: "2026-11-23T22:00:00Z", end: "2026-11-23T22:45:00Z" },
  willChangeSpec: changes.length > 0,
  rolloutPending: false,
  rollout: null,
  changes,
  operations: [],
  errors: [],
  summary: "",
});

describe("formatWindowStart", () => {
  it("gives UTC with the local time beside it, and the local day when it differs", () => {
    expect(formatWindowStart(Date.parse("2026-11-23T15:30:00Z"), "Europe/Berlin")).toBe(
      "Mon 23 Nov, 15:30 UTC (16:30 CET)",
    );
    expect(formatWindowStart(Date.parse("2026-11-23T23:30:00Z"), "Europe/Berlin")).toBe(
      "Mon 23 Nov, 23:30 UTC (Tue 24 Nov, 00:30 CET)",
    );
    expect(formatWindowStart(Date.parse("2026-11-23T23:30:00Z"), "UTC")).toBe("Mon 23 Nov, 23:30 UTC");
  });
});

describe("describeVersion", () => {
  it("names the control plane's Kubernetes version and a pool's image", () => {
    expect(describeVersion(cp("1.30.11"))).toBe("Kubernetes 1.30.11");
    expect(describeVersion(image("worker", "1592.1.0"))).toBe('Machine image gardenlinux 1592.1.0 of pool "worker"');
  });
});

describe("describeOutlook", () => {
  it("says that an expired version will be forced in the next window, and counts down to that window", () => {
    const outlook = describeOutlook({
      versions: [image("worker", "1877.2.0", "2027-05-01T09:00:00Z"), cp("1.30.11", "2026-08-04T09:00:00Z")],
      forecast: [
        item("1.30.14", "1.31.13", "2026-11-26T22:00:00Z"),
        item("1.30.11", "1.30.14", "2026-11-23T22:00:00Z"),
      ],
      plan: plan([
        {
          target: "controlPlane",
          kind: "kubernetes",
          from: "1.30.11",
          to: "1.30.14",
          reason: "Kubernetes version expired - force update required",
          successful: true,
          description: "",
        },
      ]),
      now: NOW,
      timeZone: "Europe/Berlin",
    });
    expect(outlook.tone).toBe("red");
    expect(outlook.headline).toBe("Kubernetes 1.30.11 expired on 4 Aug 2026.");
    expect(outlook.consequence).toBe(
      "The maintenance window on Mon 23 Nov, 22:00 UTC (23:00 CET) will force it to 1.30.14.",
    );
    expect(outlook.countdown).toEqual({
      to: Date.parse("2026-11-23T22:00:00Z"),
      label: "until the window that forces 1.30.11 to 1.30.14",
    });
    expect(outlook.others).toEqual(['machine image gardenlinux 1877.2.0 of pool "worker" expires on 1 May 2027']);
    expect(outlook.stuck).toBeUndefined();
  });

  it("counts down to an expiry still ahead and names the window that will force the update", () => {
    const outlook = describeOutlook({
      versions: [cp("1.31.10", "2026-11-26T09:00:00Z")],
      forecast: [item("1.31.10", "1.31.13", "2026-11-26T23:00:00Z")],
      plan: plan([]),
      now: NOW,
      timeZone: "UTC",
    });
    expect(outlook.tone).toBe("amber");
    expect(outlook.headline).toBe("Kubernetes 1.31.10 expires on 26 Nov 2026, in 3 d.");
    expect(outlook.consequence).toBe("The maintenance window on Thu 26 Nov, 23:00 UTC will force it to 1.31.13.");
    expect(outlook.countdown).toEqual({ to: Date.parse("2026-11-26T09:00:00Z"), label: "until 1.31.10 expires" });
  });

  it("calls the update of a version missing from the cloud profile forced, not automatic", () => {
    const outlook = describeOutlook({
      versions: [cp("1.30.11", "2026-08-04T09:00:00Z")],
      forecast: [],
      plan: plan([
        {
          target: "controlPlane",
          kind: "kubernetes",
          from: "1.30.11",
          to: "1.30.14",
          reason: "Version does not exist in CloudProfile",
          successful: true,
          description: "",
        },
      ]),
      now: NOW,
      timeZone: "UTC",
    });
    expect(outlook.consequence).toBe("The maintenance window on Mon 23 Nov, 22:00 UTC will force it to 1.30.14.");
    expect(outlook.countdown?.label).toBe("until the window that forces 1.30.11 to 1.30.14");
  });

  it("does not promise a planned change that fails (no target version)", () => {
    const outlook = describeOutlook({
      versions: [cp("1.30.11", "2026-08-04T09:00:00Z")],
      forecast: [],
      plan: plan([
        {
          target: "controlPlane",
          kind: "kubernetes",
          from: "1.30.11",
          reason: "Kubernetes version expired - force update required",
          successful: false,
        } as never,
      ]),
      now: NOW,
      timeZone: "UTC",
    });
    expect(outlook.consequence).toBe("The next maintenance window will force an update to a supported version.");
  });

  it("explains an automatic update that comes before the expiry", () => {
    const outlook = describeOutlook({
      versions: [image("worker", "1877.2.0", "2027-05-01T09:00:00Z")],
      forecast: [],
      plan: plan([
        {
          target: "worker",
          kind: "machineImage",
          from: "1877.2.0",
          to: "1877.3.0",
          reason: "Automatic update of the machine image version is configured (image update strategy: minor)",
          successful: true,
          description: "",
        },
      ]),
      now: NOW,
      timeZone: "UTC",
    });
    expect(outlook.tone).toBe("green");
    expect(outlook.consequence).toBe(
      "Automatic updates are on: the maintenance window on Mon 23 Nov, 22:00 UTC updates it to 1877.3.0 before it expires.",
    );
  });

  it("warns in red when a forced update finds no version", () => {
    const outlook = describeOutlook({
      versions: [image("default", "15.5.20250315", "2026-12-04T09:00:00Z")],
      forecast: [
        item("15.5.20250315", null, "2026-12-05T02:30:00Z", {
          target: "worker",
          worker: "default",
          kind: "machineImage",
        }),
      ],
      now: NOW,
      timeZone: "UTC",
      cloudProfile: "azure",
    });
    expect(outlook.tone).toBe("red");
    expect(outlook.stuck).toMatch(
      /^Pool "default" cannot leave machine image 15.5.20250315: the maintenance window on Sat 5 Dec, 02:30 UTC must update it, but the cloud profile "azure" offers no suitable version, so the cluster will be stuck\./,
    );
    expect(outlook.consequence).toBeUndefined();
  });

  it("says plainly when nothing expires", () => {
    const outlook = describeOutlook({ versions: [cp("1.34.1", undefined, "supported")], forecast: [], now: NOW });
    expect(outlook).toMatchObject({
      tone: "green",
      headline: "Nothing expires: every version this cluster uses is supported with no expiration date.",
    });
    expect(outlook.countdown).toBeUndefined();
  });

  it("mentions deprecated versions without an expiration date", () => {
    const outlook = describeOutlook({ versions: [cp("1.33.4", undefined, "deprecated")], forecast: [], now: NOW });
    expect(outlook.tone).toBe("amber");
    expect(outlook.headline).toBe(
      "Nothing expires yet: no version this cluster uses has an expiration date, but Kubernetes 1.33.4 is deprecated.",
    );
  });
});

describe("changeType and realChanges", () => {
  const change = (reason: string, extra: object = {}) => ({
    target: "controlPlane",
    kind: "kubernetes",
    from: "1.24.12",
    to: "1.24.17",
    reason,
    successful: true,
    description: "",
    ...extra,
  });
  it("labels expired and missing versions forced, auto-updates automatic, and failed changes failed", () => {
    expect(changeType(change("Kubernetes version expired - force update required"))).toBe("forced");
    expect(
      changeType(change("Machine image version expired - force update required (image update strategy: major)")),
    ).toBe("forced");
    expect(changeType(change("Version does not exist in CloudProfile"))).toBe("forced");
    expect(changeType(change("Automatic update of Kubernetes version configured"))).toBe("automatic");
    expect(
      changeType(change("Kubernetes version expired - force update required", { to: undefined, successful: false })),
    ).toBe("failed");
  });
  it("leaves failed changes out of the count", () => {
    const changes = [
      change("Version does not exist in CloudProfile"),
      change("x", { to: undefined, successful: false }),
    ];
    expect(realChanges(changes)).toHaveLength(1);
  });
});

describe("describePlanWindow", () => {
  it("shows the configured window end and when maintenance starts at the latest", () => {
    expect(describePlanWindow({ begin: "2026-11-23T22:00:00Z", end: "2026-11-23T22:45:00Z" }, true)).toBe(
      "window 22:00–23:00 UTC (maintenance starts by 22:45)",
    );
    expect(describePlanWindow({ begin: "2026-11-23T23:30:00Z", end: "2026-11-24T00:15:00Z" }, true)).toBe(
      "window 23:30–00:30 UTC (maintenance starts by 00:15)",
    );
    expect(describePlanWindow({ begin: "2026-11-23T00:00:00Z", end: "2026-11-23T23:59:59Z" }, false)).toBe(
      "no window set: maintenance may run at any time of day",
    );
  });
});

describe("countdownParts", () => {
  it("shows days, hours, minutes and seconds, and stops at zero", () => {
    const text = (to: number) =>
      countdownParts(to, NOW)
        .map((p) => `${p.value} ${p.unit}`)
        .join(" ");
    expect(text(NOW + 3 * 86_400_000 + 4 * 3_600_000 + 12 * 60_000 + 9_000)).toBe("3 d 04 h 12 min 09 s");
    expect(text(NOW + 61_000)).toBe("00 h 01 min 01 s");
    expect(text(NOW - 5_000)).toBe("00 h 00 min 00 s");
  });
});
