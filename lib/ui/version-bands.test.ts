import { describe, expect, it } from "vitest";
import type { CloudProfile, Shoot } from "../gardener/types.ts";
import type { ForecastItem, MaintenancePlan } from "./api-types.ts";
import {
  buildTimeline,
  classificationOf,
  comingWindows,
  HELD_ROLLOUT_REASON,
  laneSkeletons,
  monthTicks,
  profileEntry,
  weekTicks,
} from "./version-bands.ts";

const DAY = 86_400_000;
const NOW = Date.parse("2026-11-23T09:00:00Z");
const FROM = NOW - 90 * DAY;
const TO = NOW + 365 * DAY;

const profile: CloudProfile = {
  apiVersion: "core.gardener.cloud/v1beta1",
  kind: "CloudProfile",
  metadata: { name: "azure" },
  spec: {
    type: "azure",
    kubernetes: {
      versions: [
        { version: "1.31.13", classification: "supported", expirationDate: "2027-01-21T09:00:00Z" },
        { version: "1.30.14", classification: "deprecated", expirationDate: "2026-11-26T09:00:00Z" },
        { version: "1.30.11", classification: "deprecated", expirationDate: "2026-08-04T09:00:00Z" },
        {
          version: "1.32.0",
          lifecycle: [
            { classification: "preview" },
            { classification: "supported", startTime: "2026-12-01T00:00:00Z" },
          ],
        },
      ],
    },
    machineImages: [
      {
        name: "gardenlinux",
        updateStrategy: "minor",
        versions: [
          { version: "1877.3.0", classification: "supported" },
          { version: "1877.2.0", classification: "supported", expirationDate: "2027-05-01T09:00:00Z" },
        ],
      },
    ],
  },
} as unknown as CloudProfile;

const shoot: Shoot = {
  apiVersion: "core.gardener.cloud/v1beta1",
  kind: "Shoot",
  metadata: { name: "monitoring-prod", namespace: "garden-platform", uid: "21e1f167-a9dc-48d2-af19-4388eebe17a6" },
  spec: {
    cloudProfileName: "azure",
    region: "eastus",
    kubernetes: { version: "1.30.11" },
    maintenance: { timeWindow: { begin: "220000+0000", end: "230000+0000" } },
    provider: {
      type: "azure",
      workers: [
        {
          name: "worker",
          minimum: 1,
          maximum: 2,
          machine: { type: "m", image: { name: "gardenlinux", version: "1877.2.0" } },
        },
        {
          name: "legacy",
          minimum: 1,
          maximum: 2,
          kubernetes: { version: "1.30.14" },
          machine: { type: "m", image: { name: "gardenlinux", version: "1877.3.0" } },
        },
      ],
    },
  },
} as unknown as Shoot;

const forced = (at: string, from: string, to: string | null, extra: Partial<ForecastItem> = {}): ForecastItem => ({
  namespace: "garden-platform",
  name: "monitoring-prod",
  cloudProfile: "azure",
  at,
  window: { begin: at.slice(0, 11) + "22:00:00Z", end: at.slice(0, 11) + "22:45:00Z" },
  target: "controlPlane",
  kind: "kubernetes",
  from,
  ...(to === null ? {} : { to }),
  reason: "Kubernetes version expired - force update required",
  stuck: to === null,
  message: "",
  ...extra,
});

const plan: MaintenancePlan = {
  namespace: "garden-platform",
  name: "monitoring-prod",
  at: "2026-11-23T22:39:00Z",
  window: { begin: "2026-11-23T22:00:00Z", end: "2026-11-23T22:45:00Z" },
  willChangeSpec: true,
  rolloutPending: false,
  rollout: null,
  operations: [],
  errors: [],
  summary: "",
  changes: [
    {
      target: "controlPlane",
      kind: "kubernetes",
      from: "1.30.11",
      to: "1.30.14",
      reason: "Kubernetes version expired - force update required",
      successful: true,
      description: "",
    },
    {
      target: "worker",
      kind: "machineImage",
      from: "1877.2.0",
      to: "1877.3.0",
      reason: "Automatic update of the machine image version is configured (image update strategy: minor)",
      successful: true,
      description: "",
    },
  ],
};

describe("profileEntry and classificationOf", () => {
  it("finds Kubernetes versions as semver and images by name, case-insensitively", () => {
    expect(profileEntry(profile, "kubernetes", "Kubernetes", "v1.30.11")?.version).toBe("1.30.11");
    expect(profileEntry(profile, "machineImage", "GardenLinux", "1877.2.0")?.version).toBe("1877.2.0");
    expect(profileEntry(profile, "machineImage", "gardenlinux", "1.0.0")).toBeUndefined();
  });

  it("classifies as stated until the expiration date, then expired; unknown when not listed", () => {
    const entry = profileEntry(profile, "kubernetes", "Kubernetes", "1.30.14");
    expect(classificationOf(entry, Date.parse("2026-11-26T08:00:00Z"))).toBe("deprecated");
    expect(classificationOf(entry, Date.parse("2026-11-26T10:00:00Z"))).toBe("expired");
    expect(classificationOf(undefined, NOW)).toBe("unknown");
  });

  it("follows lifecycle stages", () => {
    const entry = profileEntry(profile, "kubernetes", "Kubernetes", "1.32.0");
    expect(classificationOf(entry, Date.parse("2026-11-30T00:00:00Z"))).toBe("preview");
    expect(classificationOf(entry, Date.parse("2026-12-02T00:00:00Z"))).toBe("supported");
  });
});

describe("laneSkeletons", () => {
  it("has the control plane, each pool's image, and a pool's own Kubernetes version when it differs", () => {
    expect(laneSkeletons(shoot).map((l) => l.id)).toEqual([
      "controlPlane",
      "pool:worker:image",
      "pool:legacy:kubernetes",
      "pool:legacy:image",
    ]);
  });
});

describe("buildTimeline", () => {
  const lanes = buildTimeline({
    shoot,
    profile,
    plan,
    now: NOW,
    from: FROM,
    to: TO,
    forecast: [
      forced("2026-11-23T22:39:00Z", "1.30.11", "1.30.14"),
      forced("2026-11-26T22:39:00Z", "1.30.14", "1.31.13"),
      forced("2027-01-21T22:39:00Z", "1.31.13", null),
      forced("2026-11-26T22:39:00Z", "1.30.14", "1.31.13", { target: "worker", worker: "legacy" }),
      forced("2026-11-24T22:39:00Z", "9.9.9", "9.9.10", { name: "another-shoot" }),
    ],
    history: [
      {
        at: "2026-10-01T22:39:00Z",
        state: "Succeeded",
        changes: [
          {
            target: "controlPlane",
            kind: "kubernetes",
            from: "1.30.10",
            to: "1.30.11",
            reason: "Automatic update of Kubernetes version configured",
          },
        ],
      },
      {
        at: "2026-10-05T22:39:00Z",
        state: "Failed",
        changes: [{ target: "controlPlane", kind: "kubernetes", from: "1.30.11", to: "1.30.14", reason: "x" }],
      },
    ],
  });
  const cp = lanes.find((l) => l.id === "controlPlane")!;

  it("colours the control plane's bands by each version's classification along its update chain", () => {
    expect(cp.bands.map((b) => [b.version, b.classification, new Date(b.start).toISOString().slice(0, 10)])).toEqual([
      ["1.30.10", "unknown", "2026-08-25"],
      ["1.30.11", "expired", "2026-10-01"],
      ["1.30.14", "deprecated", "2026-11-23"],
      ["1.30.14", "expired", "2026-11-26"],
      ["1.31.13", "supported", "2026-11-26"],
      ["1.31.13", "expired", "2027-01-21"],
    ]);
    expect(cp.bands[0].start).toBe(FROM);
    expect(cp.bands.at(-1)!.end).toBe(TO);
    // No gaps between bands.
    for (let i = 1; i < cp.bands.length; i++) expect(cp.bands[i].start).toBe(cp.bands[i - 1].end);
  });

  it("marks past updates, expiries, forced updates and where the cluster gets stuck", () => {
    expect(cp.markers.map((m) => [m.type, m.version, m.to ?? null, new Date(m.at).toISOString().slice(0, 10)])).toEqual(
      [
        ["past-update", "1.30.10", "1.30.11", "2026-10-01"],
        ["forced", "1.30.11", "1.30.14", "2026-11-23"],
        ["expiry", "1.30.14", null, "2026-11-26"],
        ["forced", "1.30.14", "1.31.13", "2026-11-26"],
        ["expiry", "1.31.13", null, "2027-01-21"],
        ["stuck", "1.31.13", null, "2027-01-21"],
      ],
    );
    const first = cp.markers.find((m) => m.type === "forced")!;
    expect(new Date(first.windowBegin!).toISOString()).toBe("2026-11-23T22:00:00.000Z");
  });

  it("takes automatic updates from the plan, so a pool does not show an expiry it never reaches", () => {
    const worker = lanes.find((l) => l.id === "pool:worker:image")!;
    expect(worker.bands.map((b) => [b.version, b.classification])).toEqual([
      ["1877.2.0", "supported"],
      ["1877.3.0", "supported"],
    ]);
    expect(worker.markers.map((m) => m.type)).toEqual(["planned"]);
  });

  it("follows a pool's own Kubernetes version with the forecast's worker items", () => {
    const legacy = lanes.find((l) => l.id === "pool:legacy:kubernetes")!;
    expect(legacy.bands.map((b) => b.version)).toEqual(["1.30.14", "1.30.14", "1.31.13", "1.31.13"]);
    expect(legacy.markers.filter((m) => m.type === "forced").map((m) => m.to)).toEqual(["1.31.13"]);
  });

  it("keeps the current version to the end when nothing is forecast", () => {
    const image = lanes.find((l) => l.id === "pool:legacy:image")!;
    expect(image.bands).toEqual([{ start: FROM, end: TO, version: "1877.3.0", classification: "supported" }]);
    expect(image.markers).toEqual([]);
  });
});

describe("plan changes", () => {
  const lanesWith = (changes: MaintenancePlan["changes"]) =>
    buildTimeline({
      shoot,
      profile,
      plan: { ...plan, changes },
      forecast: [],
      history: [],
      from: FROM,
      to: TO,
      now: NOW,
    });
  it("marks the update of a version missing from the cloud profile as forced", () => {
    const cp = lanesWith([
      {
        target: "controlPlane",
        kind: "kubernetes",
        from: "1.30.11",
        to: "1.30.14",
        reason: "Version does not exist in CloudProfile",
        successful: true,
        description: "",
      },
    ]).find((l) => l.id === "controlPlane")!;
    expect(cp.markers.filter((m) => m.type === "forced").map((m) => m.to)).toEqual(["1.30.14"]);
    expect(cp.markers.some((m) => m.type === "planned")).toBe(false);
  });
  it("marks a change that finds no version as stuck, not as an update", () => {
    const cp = lanesWith([
      {
        target: "controlPlane",
        kind: "kubernetes",
        from: "1.30.11",
        reason: "Kubernetes version expired - force update required",
        successful: false,
      } as never,
    ]).find((l) => l.id === "controlPlane")!;
    expect(cp.markers.filter((m) => m.type === "stuck").map((m) => m.version)).toEqual(["1.30.11"]);
    expect(cp.markers.some((m) => m.type === "forced" || m.type === "planned")).toBe(false);
  });
});

describe("comingWindows and monthTicks", () => {
  it("lists the next windows a day apart, the first one after now", () => {
    const windows = comingWindows(shoot, NOW, 3);
    expect(windows.map((w) => new Date(w.begin).toISOString())).toEqual([
      "2026-11-23T22:00:00.000Z",
      "2026-11-24T22:00:00.000Z",
      "2026-11-25T22:00:00.000Z",
    ]);
    expect(windows[0].end - windows[0].begin).toBe(45 * 60_000); // the effective window ends 15 min early
  });

  it("puts a tick on every first of the month in the range", () => {
    const ticks = monthTicks(Date.parse("2026-11-23T00:00:00Z"), Date.parse("2027-02-01T00:00:00Z"));
    expect(ticks.map((t) => new Date(t).toISOString().slice(0, 10))).toEqual([
      "2026-12-01",
      "2027-01-01",
      "2027-02-01",
    ]);
  });

  it("puts a tick on every Monday for the near view", () => {
    const ticks = weekTicks(Date.parse("2026-11-23T09:00:00Z"), Date.parse("2026-12-14T00:00:00Z"));
    expect(ticks.map((t) => new Date(t).toISOString().slice(0, 10))).toEqual([
      "2026-11-30",
      "2026-12-07",
      "2026-12-14",
    ]);
    expect(
      weekTicks(Date.parse("2026-11-23T00:00:00Z"), Date.parse("2026-11-24T00:00:00Z")).map((t) =>
        new Date(t).toISOString(),
      ),
    ).toEqual(["2026-11-23T00:00:00.000Z"]);
  });
});

describe("buildTimeline with a rollout held for the window", () => {
  // The spec asks 1.31.13 and image 1877.3.0; the cluster still runs 1.30.11 and 1877.2.0, which
  // the last successful reconcile rolled out, until the next window (confineSpecUpdateRollout).
  const asked: Shoot = {
    ...shoot,
    spec: {
      ...shoot.spec,
      kubernetes: { version: "1.31.13" },
      provider: {
        type: "azure",
        workers: [{ name: "worker", machine: { type: "m", image: { name: "gardenlinux", version: "1877.3.0" } } }],
      },
    },
  };
  const heldPlan: MaintenancePlan = {
    ...plan,
    changes: [],
    rolloutPending: true,
    rollout: {
      runningSince: "2026-09-01T22:40:00Z",
      when: "window",
      changes: [
        { target: "controlPlane", kind: "kubernetes", subject: "Kubernetes", running: "1.30.11", asked: "1.31.13" },
        { target: "worker", kind: "machineImage", subject: "gardenlinux", running: "1877.2.0", asked: "1877.3.0" },
      ],
    },
  };
  const lanes = buildTimeline({ shoot: asked, profile, plan: heldPlan, now: NOW, from: FROM, to: TO, forecast: [] });
  const windowAt = Date.parse(heldPlan.at);

  it("draws what runs up to the window and the asked version from it, not back into the past", () => {
    const cp = lanes.find((l) => l.id === "controlPlane")!;
    expect(cp.version).toBe("1.30.11");
    expect(cp.bands.filter((b) => b.start < NOW).every((b) => b.version === "1.30.11")).toBe(true);
    expect(cp.bands.find((b) => b.start <= NOW && b.end > NOW)?.version).toBe("1.30.11");
    expect(cp.bands.find((b) => b.start === windowAt)?.version).toBe("1.31.13");
    expect(cp.markers.find((m) => m.type === "planned")).toMatchObject({
      at: windowAt,
      version: "1.30.11",
      to: "1.31.13",
      reason: HELD_ROLLOUT_REASON,
    });
  });

  it("does the same for a pool's machine image", () => {
    const image = lanes.find((l) => l.id === "pool:worker:image")!;
    expect(image.version).toBe("1877.2.0");
    expect(image.bands.find((b) => b.start <= NOW && b.end > NOW)?.version).toBe("1877.2.0");
    expect(image.bands.at(-1)?.version).toBe("1877.3.0");
  });

  it("draws the asked version from now on while a reconcile rolls it out", () => {
    const rolling = buildTimeline({
      shoot: asked,
      profile,
      plan: { ...heldPlan, rollout: { ...heldPlan.rollout!, when: "reconcile" } },
      now: NOW,
      from: FROM,
      to: TO,
    });
    const cp = rolling.find((l) => l.id === "controlPlane")!;
    expect(cp.bands.find((b) => b.end === NOW)?.version).toBe("1.30.11");
    expect(cp.bands.find((b) => b.start === NOW)?.version).toBe("1.31.13");
    expect(cp.markers.some((m) => m.reason === HELD_ROLLOUT_REASON)).toBe(false);
  });
});
