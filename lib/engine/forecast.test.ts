// The forecast of forced updates: the maintenance controller stepped from window to window.
import { describe, expect, it } from "vitest";
import type { CloudProfile, ExpirableVersion, Shoot, Worker } from "../gardener/types.ts";
import { generateLandscape } from "../demo/landscape.ts";
import { forecast, forecastHorizon, forecastShoot } from "./forecast.ts";
import { effectiveWindow, randomizeWithinTimeWindow } from "./time-window.ts";

const DAY = 86_400_000;
const t = (iso: string) => Date.parse(iso);
const EXPIRY = "2019-04-13T08:00:00Z";

function profile(name: string, versions: ExpirableVersion[], extra: Partial<CloudProfile["spec"]> = {}): CloudProfile {
  return { metadata: { name }, spec: { type: "aws", kubernetes: { versions }, ...extra } };
}

interface ShootOptions {
  uid?: string;
  window?: { begin: string; end: string };
  autoUpdate?: boolean;
  profile?: string;
  workers?: Worker[];
  namespace?: string;
}

function shoot(name: string, version: string, o: ShootOptions = {}): Shoot {
  return {
    metadata: { name, namespace: o.namespace ?? "garden-dev", uid: o.uid ?? `uid-${name}` },
    spec: {
      cloudProfileName: o.profile ?? "aws",
      kubernetes: { version },
      provider: { type: "aws", workers: o.workers ?? [] },
      maintenance: {
        timeWindow: o.window ?? { begin: "220000+0100", end: "230000+0100" },
        autoUpdate: { kubernetesVersion: o.autoUpdate ?? false, machineImageVersion: o.autoUpdate ?? false },
      },
    },
    status: { lastOperation: { type: "Reconcile", state: "Succeeded" } },
  };
}

/** The moment the forecast places maintenance of `s` on the UTC day of `day`. */
function momentOn(s: Shoot, day: string): number {
  const w = effectiveWindow(s);
  const offset = (randomizeWithinTimeWindow(w, s.metadata.uid ?? "") - w.begin + 86_400) % 86_400;
  return t(`${day}T00:00:00Z`) + (w.begin + offset) * 1000;
}

const iso = (ms: number) => new Date(ms).toISOString().replace(".000Z", "Z");

// The documented example: 1.10.12 expires on 2019-04-13T08:00Z.
const AWS = profile("aws", [
  { version: "1.12.8" },
  { version: "1.11.10" },
  { version: "1.11.9" },
  { version: "1.10.13" },
  { version: "1.10.12", expirationDate: EXPIRY },
]);

describe("forecastShoot: a version expiring at a date", () => {
  const s = shoot("expiring", "1.10.12");

  it("is forced in the first maintenance window after the expiry", () => {
    const items = forecastShoot(s, AWS, t("2019-04-10T00:00:00Z"), t("2019-04-20T00:00:00Z"));
    expect(items).toHaveLength(1);
    const item = items[0];
    expect(item).toMatchObject({
      namespace: "garden-dev",
      name: "expiring",
      cloudProfile: "aws",
      target: "controlPlane",
      kind: "kubernetes",
      from: "1.10.12",
      to: "1.10.13",
      reason: "Kubernetes version expired - force update required",
      stuck: false,
      // 220000+0100 - 230000+0100 is 21:00-22:00 UTC; the effective window ends 15 minutes early.
      window: { begin: "2019-04-13T21:00:00Z", end: "2019-04-13T21:45:00Z" },
    });
    expect(item.error).toBeUndefined();
    expect(item.at).toBe(iso(momentOn(s, "2019-04-13")));
    expect(t(item.at)).toBeGreaterThanOrEqual(t("2019-04-13T21:00:00Z"));
    expect(t(item.at)).toBeLessThan(t("2019-04-13T21:45:00Z"));
    expect(item.message).toContain("1.10.12");
    expect(item.message).toContain("1.10.13");
  });

  it("nothing is forced before the expiry", () => {
    expect(forecastShoot(s, AWS, t("2019-04-10T00:00:00Z"), t("2019-04-13T08:00:00Z"))).toEqual([]);
    // The window of 2019-04-12 is before the expiry; the one of 2019-04-13 is after `to`.
    expect(forecastShoot(s, AWS, t("2019-04-12T00:00:00Z"), t("2019-04-13T20:59:59Z"))).toEqual([]);
  });

  it("an expiry after the day's maintenance moment moves the update to the next day", () => {
    const moment = momentOn(s, "2019-04-13");
    for (const [expiry, day] of [
      [moment - 1000, "2019-04-13"],
      // Exactly at the moment is not expired yet (the stage must start strictly before now).
      [moment, "2019-04-14"],
      [moment + 1000, "2019-04-14"],
      [t("2019-04-13T23:00:00Z"), "2019-04-14"],
    ] as const) {
      const p = profile("aws", [{ version: "1.10.13" }, { version: "1.10.12", expirationDate: iso(expiry) }]);
      const items = forecastShoot(s, p, t("2019-04-10T00:00:00Z"), t("2019-04-20T00:00:00Z"));
      expect(items.map((i) => i.at)).toEqual([iso(momentOn(s, day))]);
    }
  });

  it("a version already expired before `from` is forced in the first window after `from`", () => {
    const items = forecastShoot(s, AWS, t("2019-05-01T22:00:00Z"), t("2019-05-10T00:00:00Z"));
    expect(items.map((i) => i.at)).toEqual([iso(momentOn(s, "2019-05-02"))]);
    const same = forecastShoot(s, AWS, t("2019-05-01T00:00:00Z"), t("2019-05-10T00:00:00Z"));
    expect(same.map((i) => i.at)).toEqual([iso(momentOn(s, "2019-05-01"))]);
  });

  it("an expiry after `to` is not in the forecast", () => {
    expect(forecastShoot(s, AWS, t("2019-03-01T00:00:00Z"), t("2019-04-01T00:00:00Z"))).toEqual([]);
  });

  it("goes to the next minor when the expired version is the latest patch", () => {
    const p = profile("aws", [
      { version: "1.12.8" },
      { version: "1.11.10" },
      { version: "1.11.9" },
      { version: "1.10.12", expirationDate: EXPIRY },
    ]);
    const items = forecastShoot(s, p, t("2019-04-10T00:00:00Z"), t("2019-04-20T00:00:00Z"));
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ from: "1.10.12", to: "1.11.10", stuck: false });
  });

  it("a version missing from the profile is forced even without autoUpdate", () => {
    const items = forecastShoot(shoot("missing", "1.10.11"), AWS, t("2019-04-10T00:00:00Z"), t("2019-04-20T00:00:00Z"));
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      from: "1.10.11",
      to: "1.10.13",
      reason: "Version does not exist in CloudProfile",
      stuck: false,
    });
    expect(items[0].at).toBe(iso(momentOn(shoot("missing", "1.10.11"), "2019-04-10")));
  });
});

describe("forecastShoot: updates at risk", () => {
  it("carries the shoot's risk on every update it is promised, and nothing without one", () => {
    const failing: Shoot = {
      ...shoot("frozen", "1.10.12"),
      status: {
        lastOperation: { type: "Reconcile", state: "Succeeded" },
        lastMaintenance: {
          description: "Maintenance failed",
          triggeredTime: "2019-04-09T21:10:00Z",
          state: "Failed",
          failureReason:
            'Updates to the Shoot failed to be applied: admission webhook "policy.example.com" denied the request: frozen',
        },
      },
    };
    const [item] = forecastShoot(failing, AWS, t("2019-04-10T00:00:00Z"), t("2019-04-20T00:00:00Z"));
    expect(item.to).toBe("1.10.13");
    expect(item.risk).toEqual({
      causes: ["maintenanceFailed"],
      short: "webhook denied",
      lead: expect.stringMatching(/^At risk: the last maintenance failed/),
      summary: expect.stringMatching(
        /^At risk: the last maintenance failed — admission webhook "policy\.example\.com"/,
      ),
    });
    const [fine] = forecastShoot(shoot("fine", "1.10.12"), AWS, t("2019-04-10T00:00:00Z"), t("2019-04-20T00:00:00Z"));
    expect(fine.risk).toBeUndefined();
  });
});

describe("forecastShoot: chains", () => {
  it("1.10 and 1.11 expired: 1.11.x in one window, 1.12.x in the next", () => {
    const p = profile("aws", [
      { version: "1.12.8" },
      { version: "1.11.10", expirationDate: EXPIRY },
      { version: "1.10.12", expirationDate: EXPIRY },
    ]);
    const s = shoot("chain", "1.10.12", { window: { begin: "010000+0000", end: "020000+0000" } });
    const items = forecastShoot(s, p, t("2019-04-10T00:00:00Z"), t("2019-04-20T00:00:00Z"));
    expect(items.map((i) => [i.from, i.to, i.at])).toEqual([
      ["1.10.12", "1.11.10", iso(momentOn(s, "2019-04-14"))],
      ["1.11.10", "1.12.8", iso(momentOn(s, "2019-04-15"))],
    ]);
    expect(t(items[1].at) - t(items[0].at)).toBe(DAY);
    expect(items.every((i) => i.reason === "Kubernetes version expired - force update required" && !i.stuck)).toBe(
      true,
    );
  });

  it("a chain across three minors takes three windows", () => {
    const p = profile("aws", [
      { version: "1.13.1" },
      { version: "1.12.8", expirationDate: EXPIRY },
      { version: "1.11.10", expirationDate: EXPIRY },
      { version: "1.10.12", expirationDate: EXPIRY },
    ]);
    const s = shoot("chain3", "1.10.12");
    const items = forecastShoot(s, p, t("2019-04-10T00:00:00Z"), t("2019-04-20T00:00:00Z"));
    expect(items.map((i) => i.to)).toEqual(["1.11.10", "1.12.8", "1.13.1"]);
    expect(items.map((i) => i.at)).toEqual(["2019-04-13", "2019-04-14", "2019-04-15"].map((d) => iso(momentOn(s, d))));
  });

  it("the second step waits for the next expiry when the target expires later", () => {
    const later = "2019-04-18T12:00:00Z";
    const p = profile("aws", [
      { version: "1.12.8" },
      { version: "1.11.10", expirationDate: later },
      { version: "1.10.12", expirationDate: EXPIRY },
    ]);
    const s = shoot("chain-later", "1.10.12");
    const items = forecastShoot(s, p, t("2019-04-10T00:00:00Z"), t("2019-04-30T00:00:00Z"));
    expect(items.map((i) => [i.from, i.to, i.at])).toEqual([
      ["1.10.12", "1.11.10", iso(momentOn(s, "2019-04-13"))],
      ["1.11.10", "1.12.8", iso(momentOn(s, "2019-04-18"))],
    ]);
  });

  it("a chain is cut at `to`", () => {
    const p = profile("aws", [
      { version: "1.12.8" },
      { version: "1.11.10", expirationDate: EXPIRY },
      { version: "1.10.12", expirationDate: EXPIRY },
    ]);
    const s = shoot("chain", "1.10.12");
    const items = forecastShoot(s, p, t("2019-04-10T00:00:00Z"), momentOn(s, "2019-04-13"));
    expect(items.map((i) => i.to)).toEqual(["1.11.10"]);
  });
});

describe("forecastShoot: stuck", () => {
  const p = profile("gcp", [
    { version: "1.26.10" },
    { version: "1.26.9" },
    { version: "1.24.12", expirationDate: "2024-01-31T00:00:00Z" },
  ]);
  const s = shoot("stuck", "1.24.12", {
    window: { begin: "030000+0000", end: "040000+0000" },
    autoUpdate: true,
    profile: "gcp",
  });

  it("1.24.12 expired with only 1.26.x gives one stuck item without `to`", () => {
    const items = forecastShoot(s, p, t("2024-01-01T00:00:00Z"), t("2024-03-01T00:00:00Z"));
    expect(items).toHaveLength(1);
    const item = items[0];
    expect(item).toMatchObject({
      from: "1.24.12",
      stuck: true,
      reason: "Kubernetes version expired - force update required",
      target: "controlPlane",
    });
    expect("to" in item).toBe(false);
    expect(item.at).toBe(iso(momentOn(s, "2024-01-31")));
    expect(item.error).toContain('could not determine higher suitable version than "1.24.12"');
    expect(item.message).toContain("1.24.12");
  });

  it("is reported once, even when later profile changes make the controller try again", () => {
    const busy = profile("gcp", [
      { version: "1.26.10" },
      { version: "1.26.9", expirationDate: "2024-02-15T00:00:00Z" },
      { version: "1.24.12", expirationDate: "2024-01-31T00:00:00Z" },
      { version: "1.24.11", expirationDate: "2024-02-20T00:00:00Z" },
    ]);
    const items = forecastShoot(s, busy, t("2024-01-01T00:00:00Z"), t("2024-03-01T00:00:00Z"));
    expect(items.map((i) => [i.from, i.stuck, i.at])).toEqual([["1.24.12", true, iso(momentOn(s, "2024-01-31"))]]);
  });

  it("a chain can end stuck: the step before is forced, then the cluster cannot go on", () => {
    const p2 = profile("gcp", [
      { version: "1.13.1" },
      { version: "1.11.10", expirationDate: EXPIRY },
      { version: "1.10.12", expirationDate: EXPIRY },
    ]);
    const c = shoot("chain-stuck", "1.10.12", { profile: "gcp" });
    const items = forecastShoot(c, p2, t("2019-04-10T00:00:00Z"), t("2019-04-20T00:00:00Z"));
    expect(items.map((i) => [i.from, i.to, i.stuck, i.at])).toEqual([
      ["1.10.12", "1.11.10", false, iso(momentOn(c, "2019-04-13"))],
      ["1.11.10", undefined, true, iso(momentOn(c, "2019-04-14"))],
    ]);
  });

  it("adding 1.25.x unsticks it", () => {
    const fixed = profile("gcp", [...p.spec.kubernetes.versions, { version: "1.25.10" }, { version: "1.25.9" }]);
    const items = forecastShoot(s, fixed, t("2024-01-01T00:00:00Z"), t("2024-03-01T00:00:00Z"));
    expect(items.map((i) => [i.from, i.to, i.stuck])).toEqual([["1.24.12", "1.25.10", false]]);
  });
});

describe("forecastShoot: automatic updates", () => {
  it("auto-updates are not forced items", () => {
    const items = forecastShoot(
      shoot("auto-only", "1.11.9", { autoUpdate: true }),
      AWS,
      t("2019-04-10T00:00:00Z"),
      t("2019-04-20T00:00:00Z"),
    );
    expect(items).toEqual([]);
  });

  it("an auto-update before the expiry makes the forced update unnecessary", () => {
    const items = forecastShoot(
      shoot("expiring-auto", "1.10.12", { autoUpdate: true }),
      AWS,
      t("2019-04-10T00:00:00Z"),
      t("2019-04-20T00:00:00Z"),
    );
    expect(items).toEqual([]);
  });

  it("an auto-update is followed by a forced update when the new version expires", () => {
    const p = profile("aws", [
      { version: "1.11.10" },
      { version: "1.10.13", expirationDate: EXPIRY },
      { version: "1.10.12" },
    ]);
    const s = shoot("auto-then-forced", "1.10.12", { autoUpdate: true });
    const items = forecastShoot(s, p, t("2019-04-10T00:00:00Z"), t("2019-04-20T00:00:00Z"));
    expect(items.map((i) => [i.from, i.to, i.at])).toEqual([["1.10.13", "1.11.10", iso(momentOn(s, "2019-04-13"))]]);
  });
});

describe("forecastShoot: worker pools", () => {
  const images = {
    machineTypes: [{ name: "m5.large", architecture: "amd64" }],
    machineImages: [
      {
        name: "coreos",
        updateStrategy: "major",
        versions: [
          { version: "2191.5.0", cri: [{ name: "containerd" }], architectures: ["amd64"] },
          { version: "2191.4.1", cri: [{ name: "containerd" }], architectures: ["amd64"] },
          { version: "2135.6.0", expirationDate: EXPIRY, cri: [{ name: "containerd" }], architectures: ["amd64"] },
        ],
      },
    ],
  };

  it("an expiring machine image is forced like a Kubernetes version", () => {
    const p = profile("aws", [{ version: "1.12.8" }], images);
    const w: Worker = { name: "pool-a", machine: { type: "m5.large", image: { name: "coreos", version: "2135.6.0" } } };
    const s = shoot("image", "1.12.8", { workers: [w] });
    const items = forecastShoot(s, p, t("2019-04-10T00:00:00Z"), t("2019-04-20T00:00:00Z"));
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      target: "worker",
      worker: "pool-a",
      kind: "machineImage",
      from: "2135.6.0",
      to: "2191.5.0",
      stuck: false,
    });
    expect(items[0].reason).toContain("Machine image version expired - force update required");
    expect(items[0].at).toBe(iso(momentOn(s, "2019-04-13")));
  });

  it("a forced update to a machine image version not yet available is refused: stuck, with the API server's words", () => {
    const later = {
      ...images,
      machineImages: [
        {
          ...images.machineImages[0],
          versions: [
            {
              version: "2191.5.0",
              lifecycle: [{ classification: "supported", startTime: "2019-05-01T00:00:00Z" }],
              cri: [{ name: "containerd" }],
              architectures: ["amd64"],
            },
            images.machineImages[0].versions[2],
          ],
        },
      ],
    };
    const p = profile("aws", [{ version: "1.12.8" }], later);
    const w: Worker = { name: "pool-a", machine: { type: "m5.large", image: { name: "coreos", version: "2135.6.0" } } };
    const s = shoot("image", "1.12.8", { workers: [w] });
    const items = forecastShoot(s, p, t("2019-04-10T00:00:00Z"), t("2019-04-20T00:00:00Z"));
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ kind: "machineImage", from: "2135.6.0", to: "2191.5.0", stuck: true });
    expect(items[0].error).toMatch(
      /^Updates to the Shoot failed to be applied: shoots\.core\.gardener\.cloud "image" is forbidden: .*machine image version 'coreos:2191\.5\.0' is expired/,
    );
    expect(items[0].message).toContain("the API server refuses the update");
  });

  it("a pool's expiring Kubernetes version is forced and capped at the control plane", () => {
    const p = profile(
      "aws",
      [{ version: "1.12.8" }, { version: "1.11.10" }, { version: "1.10.12", expirationDate: EXPIRY }],
      images,
    );
    const w: Worker = {
      name: "pool-b",
      machine: { type: "m5.large", image: { name: "coreos", version: "2191.5.0" } },
      kubernetes: { version: "1.10.12" },
    };
    const s = shoot("pool", "1.11.10", { workers: [w] });
    const items = forecastShoot(s, p, t("2019-04-10T00:00:00Z"), t("2019-04-20T00:00:00Z"));
    expect(items.map((i) => [i.target, i.worker, i.kind, i.from, i.to])).toEqual([
      ["worker", "pool-b", "kubernetes", "1.10.12", "1.11.10"],
    ]);
  });
});

describe("forecast", () => {
  const profiles = new Map([["aws", AWS]]);

  it("a shoot whose cloud profile is missing gives a problem entry", () => {
    const f = forecast(
      [shoot("orphan", "1.10.12", { profile: "gone", namespace: "garden-x" })],
      profiles,
      t("2019-04-10T00:00:00Z"),
      t("2019-04-20T00:00:00Z"),
    );
    expect(f.items).toEqual([]);
    expect(f.problems).toEqual([{ namespace: "garden-x", name: "orphan", problem: 'cloud profile "gone" not found' }]);
  });

  it("a shoot with an unparsable version gives a problem entry; the others are still forecast", () => {
    const f = forecast(
      [shoot("broken", "banana"), shoot("expiring", "1.10.12")],
      profiles,
      t("2019-04-10T00:00:00Z"),
      t("2019-04-20T00:00:00Z"),
    );
    expect(f.problems.map((p) => p.name)).toEqual(["broken"]);
    expect(f.items.map((i) => i.name)).toEqual(["expiring"]);
  });

  it("orders items of all shoots by time and reports the range", () => {
    const p = profile("aws", [
      { version: "1.12.8" },
      { version: "1.11.10", expirationDate: EXPIRY },
      { version: "1.10.12", expirationDate: EXPIRY },
    ]);
    const late = shoot("late", "1.10.12", { window: { begin: "200000+0000", end: "210000+0000" } });
    const early = shoot("early", "1.11.10", { window: { begin: "090000+0000", end: "100000+0000" } });
    const night = shoot("night", "1.10.12", { window: { begin: "010000+0000", end: "020000+0000" } });
    const f = forecast(
      [late, early, night],
      new Map([["aws", p]]),
      t("2019-04-10T00:00:00Z"),
      t("2019-04-20T00:00:00Z"),
    );
    expect(f.from).toBe("2019-04-10T00:00:00Z");
    expect(f.to).toBe("2019-04-20T00:00:00Z");
    expect(f.problems).toEqual([]);
    const times = f.items.map((i) => i.at);
    expect(times).toEqual([...times].sort());
    expect(f.items.map((i) => `${i.name}:${i.to}`)).toEqual([
      "early:1.12.8", // 2019-04-13 09:xx
      "late:1.11.10", // 2019-04-13 20:xx
      "night:1.11.10", // 2019-04-14 01:xx
      "late:1.12.8", // 2019-04-14 20:xx
      "night:1.12.8", // 2019-04-15 01:xx
    ]);
  });

  it("skips shoots marked for deletion, as the controller does", () => {
    const deleting = shoot("deleting", "1.10.12");
    deleting.metadata.deletionTimestamp = "2019-04-01T00:00:00Z";
    expect(forecastShoot(deleting, AWS, t("2019-04-10T00:00:00Z"), t("2019-04-20T00:00:00Z"))).toEqual([]);
    const f = forecast(
      [deleting, shoot("expiring", "1.10.12")],
      profiles,
      t("2019-04-10T00:00:00Z"),
      t("2019-04-20T00:00:00Z"),
    );
    expect(f.items.map((i) => i.name)).toEqual(["expiring"]);
  });

  it("leaves shoots without forced updates out", () => {
    const f = forecast(
      [shoot("fine", "1.12.8"), shoot("auto-only", "1.11.9", { autoUpdate: true })],
      profiles,
      t("2019-04-10T00:00:00Z"),
      t("2019-04-20T00:00:00Z"),
    );
    expect(f).toMatchObject({ items: [], problems: [] });
  });
});

describe("forecastHorizon", () => {
  it("answers every shorter horizon as a forecast to it would (the demo landscape, a year ahead)", () => {
    // Not on a whole second: items of one second from several shoots must keep their order.
    const now = Date.parse("2026-03-01T10:00:00.123Z");
    const landscape = generateLandscape({ now });
    const profiles = new Map(landscape.cloudProfiles.map((p) => [p.metadata.name, p]));
    const firstProfile = landscape.cloudProfiles[0].metadata.name;
    const shoots = [
      ...landscape.shoots,
      shoot("broken", "banana", { profile: firstProfile }),
      shoot("orphan", "1.10.12", { profile: "gone" }),
    ];
    const horizon = forecastHorizon(shoots, profiles, now, now + 366 * DAY);
    const days = [...Array.from({ length: 31 }, (_, i) => i + 1), 45, 60, 89, 90, 91, 120, 180, 270, 365, 366];
    for (const d of days) {
      expect(horizon.until(now + d * DAY), `${d} days`).toEqual(forecast(shoots, profiles, now, now + d * DAY));
    }
    // The year holds more than the month: the comparison is not between empty answers.
    expect(horizon.until(now + 30 * DAY).items.length).toBeGreaterThan(0);
    expect(horizon.until(now + 366 * DAY).items.length).toBeGreaterThan(horizon.until(now + 30 * DAY).items.length);
    expect(() => horizon.until(now + 367 * DAY)).toThrow(RangeError);
  });

  it("counts a shoot that fails in a window as a problem only for horizons that reach the window", () => {
    const s = shoot("broken", "banana");
    const profiles = new Map([["aws", AWS]]);
    const from = t("2019-04-10T00:00:00Z");
    const at = momentOn(s, "2019-04-10");
    const horizon = forecastHorizon([s], profiles, from, from + 10 * DAY);
    expect(horizon.until(at - 1000)).toEqual(forecast([s], profiles, from, at - 1000));
    expect(horizon.until(at - 1000).problems).toEqual([]);
    expect(horizon.until(at)).toEqual(forecast([s], profiles, from, at));
    expect(horizon.until(at).problems.map((p) => p.name)).toEqual(["broken"]);
  });
});
