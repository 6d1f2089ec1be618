// The demo landscape: deterministic, valid for the engine, and covering every case the
// dashboard pages show (expiry buckets, status labels, tainted and broken seeds, ...).
import { describe, expect, it } from "vitest";
import { classificationAt, expiryTime } from "../engine/classification.ts";
import { shootStatusLabel } from "../engine/status-label.ts";
import { parseBound } from "../engine/time-window.ts";
import { validateCloudProfile } from "../engine/validate-cloud-profile.ts";
import { validateShoot } from "../engine/validate-shoot.ts";
import { compareVersions, parseVersion } from "../engine/version.ts";
import type { CloudProfile, Shoot } from "../gardener/types.ts";
import { admissionDryRun, admissionRejection } from "../engine/garden-admission.ts";
import { maintain } from "../engine/maintain.ts";
import { nextMaintenanceMoment } from "../engine/maintenance-moment.ts";
import { FAILED_NIGHTS_KEPT } from "./history.ts";
import { drawLandscape, generateLandscape, type Landscape } from "./landscape.ts";
import { profileAt, releaseTime } from "./releases.ts";
import { RECENT_RELEASES } from "./tables.ts";
import { profileKeyOf, resolvedNamespacedProfile } from "../gardener/profile-reference.ts";

const DAY = 86_400_000;
const NOW = Date.parse("2025-11-15T10:30:00Z");

/** The profile the shoot is read against: a CloudProfile, or a NamespacedCloudProfile as Gardener resolved it. */
function profileOf(landscape: Landscape, shoot: Shoot): CloudProfile {
  const profiles = new Map(landscape.cloudProfiles.map((p) => [p.metadata.name, p]));
  for (const n of landscape.namespacedCloudProfiles ?? [])
    profiles.set(`${n.metadata.namespace}/${n.metadata.name}`, resolvedNamespacedProfile(n)!);
  const profile = profiles.get(profileKeyOf(shoot));
  if (!profile) throw new Error(`no profile for ${shoot.metadata.name}`);
  return profile;
}

/** Every Kubernetes version a shoot runs: the control plane and pools with their own version. */
function kubernetesVersionsOf(shoot: Shoot): string[] {
  return [
    shoot.spec.kubernetes.version,
    ...(shoot.spec.provider?.workers ?? []).flatMap((w) => (w.kubernetes?.version ? [w.kubernetes.version] : [])),
  ];
}

const key = (s: Shoot) => `${s.metadata.namespace}/${s.metadata.name}`;

describe("generateLandscape: determinism and size", () => {
  it("gives byte-identical output for the same options", () => {
    const a = JSON.stringify(generateLandscape({ now: NOW, shoots: 300, seed: 42 }));
    const b = JSON.stringify(generateLandscape({ now: NOW, shoots: 300, seed: 42 }));
    expect(a).toBe(b);
  });

  it("draws a shoot at a time exactly the landscape it generates whole", () => {
    for (const options of [{ now: NOW, shoots: 300, seed: 42 }, { now: NOW }]) {
      const drawn = drawLandscape(options);
      expect(() => drawn.admissionRules()).toThrow();
      const shoots = [...drawn.shoots];
      expect(shoots).toHaveLength(drawn.count);
      const { count, shoots: _drawn, admissionRules, ...configuration } = drawn;
      const whole = generateLandscape(options);
      expect(
        JSON.stringify({
          ...configuration,
          shoots: shoots.map((s) => s.shoot),
          maintenanceHistory: shoots.flatMap((s) => s.runs),
          admissionRules: admissionRules(),
        }),
      ).toBe(JSON.stringify(whole));
      expect(count).toBe(whole.shoots.length);
      expect(whole.admissionRules.length).toBeGreaterThan(0);
    }
  });

  it("depends on the seed and on now", () => {
    const base = JSON.stringify(generateLandscape({ now: NOW }));
    expect(JSON.stringify(generateLandscape({ now: NOW, seed: 2 }))).not.toBe(base);
    expect(JSON.stringify(generateLandscape({ now: NOW + DAY }))).not.toBe(base);
  });

  it("makes 64 shoots by default and N when asked", () => {
    expect(generateLandscape({ now: NOW }).shoots).toHaveLength(64);
    expect(generateLandscape({ now: NOW, shoots: 1000 }).shoots).toHaveLength(1000);
    expect(generateLandscape({ now: NOW, shoots: 0 }).shoots).toHaveLength(0);
  });

  it("keeps shoot i the same whatever the count", () => {
    const small = generateLandscape({ now: NOW, shoots: 64 });
    const large = generateLandscape({ now: NOW, shoots: 1000 });
    expect(JSON.stringify(large.shoots.slice(0, 64))).toBe(JSON.stringify(small.shoots));
  });

  it("rejects impossible options", () => {
    expect(() => generateLandscape({ now: NOW, shoots: -1 })).toThrow(RangeError);
    expect(() => generateLandscape({ now: NOW, shoots: 100_001 })).toThrow(RangeError);
    expect(() => generateLandscape({ now: NOW, shoots: 2.5 })).toThrow(RangeError);
    expect(() => generateLandscape({ now: Number.NaN })).toThrow(RangeError);
  });

  it("generates 100000 shoots with unique names and uids", { timeout: 60_000 }, () => {
    const { shoots } = generateLandscape({ now: NOW, shoots: 100_000 });
    expect(shoots).toHaveLength(100_000);
    expect(new Set(shoots.map(key)).size).toBe(100_000);
    expect(new Set(shoots.map((s) => s.metadata.uid)).size).toBe(100_000);
  });
});

describe.each([
  { label: "default seed", now: NOW, seed: 1, shoots: 64 },
  { label: "another seed and moment", now: Date.parse("2026-03-02T23:47:13.512Z"), seed: 987_654, shoots: 64 },
  { label: "1000 shoots", now: NOW, seed: 1, shoots: 1000 },
])("generateLandscape ($label)", ({ now, seed, shoots: count }) => {
  const landscape = generateLandscape({ now, seed, shoots: count });
  const { cloudProfiles, seeds, projects, shoots, maintenanceHistory } = landscape;

  it("names shoots uniquely per namespace and gives every object a unique uid", () => {
    expect(new Set(shoots.map(key)).size).toBe(shoots.length);
    const uids = [...cloudProfiles, ...seeds, ...projects, ...shoots].map((o) => o.metadata.uid);
    expect(
      uids.every((u) => /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(u ?? "")),
    ).toBe(true);
    expect(new Set(uids).size).toBe(uids.length);
  });

  it("writes timestamps as RFC 3339 UTC without fractions", () => {
    const stamps = JSON.stringify(landscape).match(/"\d{4}-\d\d-\d\dT[^"]*"/g) ?? [];
    expect(stamps.length).toBeGreaterThan(shoots.length);
    expect(stamps.filter((s) => !/^"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"$/.test(s))).toEqual([]);
  });

  it("has three cloud profiles that pass validation", () => {
    expect(cloudProfiles.map((p) => p.spec.type)).toEqual(["aws", "gcp", "azure"]);
    for (const profile of cloudProfiles) expect(validateCloudProfile(profile, now)).toEqual([]);
  });

  it("had valid profiles before the recent releases: without the released versions, the replaced ones supported", () => {
    for (const profile of cloudProfiles) {
      const before = profileAt(profile, now, Number.NEGATIVE_INFINITY);
      expect(validateCloudProfile(before, now)).toEqual([]);
      const entries = (p: CloudProfile, subject: string) =>
        subject === "kubernetes"
          ? p.spec.kubernetes.versions
          : (p.spec.machineImages?.find((m) => m.name === subject)?.versions ?? []);
      for (const release of RECENT_RELEASES) {
        if (!entries(profile, release.subject).some((v) => v.version === release.version)) continue;
        const at = releaseTime(release, now);
        expect(at).toBeLessThan(now);
        expect(at).toBeGreaterThan(now - DAY);
        const was = entries(profileAt(profile, now, at), release.subject);
        const released = was.find((v) => v.version === release.version);
        if (release.was === "absent") expect(released).toBeUndefined();
        else expect(released?.classification).toBe("preview");
        const replaced = was.find((v) => v.version === release.replaces);
        if (replaced) expect(replaced.classification).toBe("supported");
        // Just after the release, the profile is the one of now for it.
        expect(entries(profileAt(profile, now, at + 1), release.subject)).toEqual(entries(profile, release.subject));
      }
    }
  });

  it("offers Kubernetes 1.30 to 1.34 with the newest version in preview", () => {
    for (const profile of cloudProfiles) {
      const versions = profile.spec.kubernetes.versions;
      const minors = new Set(versions.map((v) => v.version.split(".").slice(0, 2).join(".")));
      expect([...minors].sort()).toEqual(["1.30", "1.31", "1.32", "1.33", "1.34"]);
      const newest = [...versions].sort((a, b) => compareVersions(parseVersion(b.version), parseVersion(a.version)))[0];
      expect(newest.classification).toBe("preview");
    }
  });

  it("offers machine images with every update strategy", () => {
    const strategies = cloudProfiles.flatMap((p) => (p.spec.machineImages ?? []).map((m) => m.updateStrategy));
    expect(new Set(strategies)).toEqual(new Set(["patch", "minor", "major"]));
    for (const image of cloudProfiles.flatMap((p) => p.spec.machineImages ?? [])) {
      for (const v of image.versions) {
        expect(v.cri).toEqual([{ name: "containerd" }]);
        expect(v.architectures?.length).toBeGreaterThan(0);
      }
    }
  });

  it("has six seeds, some tainted, some not ready", () => {
    expect(seeds).toHaveLength(6);
    expect(seeds.some((s) => (s.spec.taints ?? []).length > 0)).toBe(true);
    const notReady = seeds.filter((s) =>
      (s.status?.conditions ?? []).some(
        (c) => ["GardenletReady", "SeedSystemComponentsHealthy"].includes(c.type) && c.status !== "True",
      ),
    );
    expect(notReady.length).toBeGreaterThanOrEqual(1);
    expect(notReady.length).toBeLessThan(seeds.length);
  });

  it("has four projects in garden-<name> namespaces, holding all shoots", () => {
    expect(projects).toHaveLength(4);
    for (const project of projects) expect(project.spec.namespace).toBe(`garden-${project.metadata.name}`);
    expect(projects.some((p) => p.spec.tolerations?.whitelist?.length)).toBe(true);
    const namespaces = new Set(projects.map((p) => p.spec.namespace));
    expect(shoots.every((s) => namespaces.has(s.metadata.namespace))).toBe(true);
  });

  it("makes every shoot pass validateShoot", () => {
    const invalid = shoots.map((s) => ({ shoot: key(s), errors: validateShoot(s) })).filter((r) => r.errors.length > 0);
    expect(invalid).toEqual([]);
  });

  it("only uses versions, images and machine types the shoot's profile offers", () => {
    for (const shoot of shoots) {
      const profile = profileOf(landscape, shoot);
      // A shoot of a NamespacedCloudProfile names it only in spec.cloudProfile (as from Kubernetes 1.34 on).
      if (profile.kind === "NamespacedCloudProfile") expect(shoot.spec.cloudProfileName).toBeUndefined();
      else expect(shoot.spec.cloudProfileName).toBe(profile.metadata.name);
      expect(shoot.spec.provider?.type).toBe(profile.spec.type);
      const offered = new Set(profile.spec.kubernetes.versions.map((v) => v.version));
      for (const version of kubernetesVersionsOf(shoot))
        expect(offered.has(version), `${key(shoot)} ${version}`).toBe(true);
      const controlPlane = parseVersion(shoot.spec.kubernetes.version);
      for (const worker of shoot.spec.provider?.workers ?? []) {
        if (worker.kubernetes?.version)
          expect(compareVersions(parseVersion(worker.kubernetes.version), controlPlane)).toBeLessThanOrEqual(0);
        const type = profile.spec.machineTypes?.find((t) => t.name === worker.machine.type);
        expect(type, `${key(shoot)} ${worker.machine.type}`).toBeDefined();
        expect(type?.architecture).toBe(worker.machine.architecture);
        const image = profile.spec.machineImages?.find((m) => m.name === worker.machine.image?.name);
        const version = image?.versions.find((v) => v.version === worker.machine.image?.version);
        expect(version, `${key(shoot)} ${worker.machine.image?.name} ${worker.machine.image?.version}`).toBeDefined();
        expect(version?.architectures).toContain(worker.machine.architecture);
      }
    }
  });

  it("places shoots on seeds of their provider and region that they tolerate", () => {
    for (const shoot of shoots) {
      const seed = seeds.find((s) => s.metadata.name === shoot.spec.seedName);
      expect(seed, key(shoot)).toBeDefined();
      expect(seed?.spec.provider.type).toBe(shoot.spec.provider?.type);
      expect(seed?.spec.provider.region).toBe(shoot.spec.region);
      const tolerations = (shoot.spec.tolerations ?? []) as { key: string; value?: string }[];
      for (const taint of seed?.spec.taints ?? []) {
        expect(
          tolerations.some((t) => t.key === taint.key && t.value === taint.value),
          `${key(shoot)} on ${seed?.metadata.name}`,
        ).toBe(true);
      }
    }
    const withoutSeed = shoots.filter((s) => !s.status?.seedName);
    expect(withoutSeed.length).toBeLessThanOrEqual(1);
    for (const shoot of withoutSeed)
      expect(shoot.status?.lastOperation).toMatchObject({ type: "Create", state: "Failed" });
  });

  it("runs Kubernetes versions that expired and that expire within 7, 30 and 90 days", () => {
    const buckets = new Set<string>();
    for (const shoot of shoots) {
      const profile = profileOf(landscape, shoot);
      for (const version of kubernetesVersionsOf(shoot)) {
        const entry = profile.spec.kubernetes.versions.find((v) => v.version === version)!;
        const expires = expiryTime(entry);
        if (classificationAt(entry, now) === "expired") buckets.add("expired");
        else if (expires === undefined) buckets.add(classificationAt(entry, now));
        else if (expires - now <= 7 * DAY) buckets.add("7");
        else if (expires - now <= 30 * DAY) buckets.add("30");
        else if (expires - now <= 90 * DAY) buckets.add("90");
        else buckets.add("later");
      }
    }
    for (const bucket of ["expired", "7", "30", "90", "later", "supported", "preview"])
      expect(buckets).toContain(bucket);
  });

  it("shows every status label, hibernated shoots and Gardener error codes", () => {
    const labels = new Set(shoots.map((s) => shootStatusLabel(s)));
    expect(labels).toEqual(new Set(["healthy", "progressing", "unknown", "unhealthy"]));
    for (const shoot of shoots)
      expect(shoot.metadata.labels?.["shoot.gardener.cloud/status"]).toBe(shootStatusLabel(shoot));
    const hibernated = shoots.filter((s) => s.spec.hibernation?.enabled);
    expect(hibernated.length).toBeGreaterThan(0);
    for (const shoot of hibernated) expect(shoot.status?.hibernated).toBe(true);
    const codes = new Set(shoots.flatMap((s) => (s.status?.lastErrors ?? []).flatMap((e) => e.codes ?? [])));
    for (const code of [
      "ERR_INFRA_RATE_LIMITS_EXCEEDED",
      "ERR_INFRA_RESOURCES_DEPLETED",
      "ERR_INFRA_QUOTA_EXCEEDED",
      "ERR_CONFIGURATION_PROBLEM",
      "ERR_INFRA_UNAUTHORIZED",
    ]) {
      expect(codes).toContain(code);
    }
    const operations = new Set(shoots.map((s) => `${s.status?.lastOperation?.type}/${s.status?.lastOperation?.state}`));
    for (const op of [
      "Reconcile/Succeeded",
      "Reconcile/Processing",
      "Reconcile/Error",
      "Reconcile/Failed",
      "Create/Processing",
    ]) {
      expect(operations).toContain(op);
    }
  });

  it("gives every shoot the five conditions", () => {
    const types = [
      "APIServerAvailable",
      "ControlPlaneHealthy",
      "ObservabilityComponentsHealthy",
      "EveryNodeReady",
      "SystemComponentsHealthy",
    ];
    for (const shoot of shoots) expect(shoot.status?.conditions?.map((c) => c.type)).toEqual(types);
    expect(
      shoots.some((s) => s.status?.constraints?.some((c) => c.type === "HibernationPossible" && c.status === "False")),
    ).toBe(true);
  });

  it("spreads maintenance windows over at least three UTC offsets", () => {
    const offsets = new Set(shoots.map((s) => s.spec.maintenance?.timeWindow?.begin.slice(6)));
    expect(offsets.size).toBeGreaterThanOrEqual(3);
    for (const shoot of shoots) {
      const tw = shoot.spec.maintenance!.timeWindow!;
      expect(tw.begin.slice(6)).toBe(tw.end.slice(6));
      expect(() => parseBound(tw.begin)).not.toThrow();
    }
  });

  it("uses machine images with every update strategy", () => {
    const strategies = new Set(
      shoots.flatMap((s) =>
        (s.spec.provider?.workers ?? []).map(
          (w) =>
            profileOf(landscape, s).spec.machineImages?.find((m) => m.name === w.machine.image?.name)?.updateStrategy,
        ),
      ),
    );
    expect(strategies).toEqual(new Set(["patch", "minor", "major"]));
  });

  it("records maintenance runs since creation that lead to the current versions", () => {
    expect(maintenanceHistory.length).toBeGreaterThan(0);
    expect(maintenanceHistory.some((r) => r.state === "Succeeded")).toBe(true);
    expect(maintenanceHistory.some((r) => r.state === "Failed")).toBe(true);
    expect(new Set(maintenanceHistory.map((r) => r.trigger))).toEqual(new Set(["window", "maintain-now"]));
    const byShoot = new Map(shoots.map((s) => [key(s), s]));
    const runsByShoot = new Map<string, typeof maintenanceHistory>();
    for (const run of maintenanceHistory) {
      const shootKey = `${run.namespace}/${run.name}`;
      const shoot = byShoot.get(shootKey)!;
      expect(shoot).toBeDefined();
      expect(run.startedAt).toBeGreaterThan(Date.parse(shoot.metadata.creationTimestamp!));
      expect(run.startedAt).toBeLessThan(run.finishedAt);
      expect(run.finishedAt).toBeLessThan(now);
      if (run.state === "Failed") {
        expect(run.failureReason).toBeTruthy();
      } else expect(run.changes.length).toBeGreaterThan(0);
      runsByShoot.set(shootKey, [...(runsByShoot.get(shootKey) ?? []), run]);
    }
    // Repeated nightly failures are kept for FAILED_NIGHTS_KEPT days; an older failure is the
    // first night of one (the night before did not fail the same way).
    for (const runs of runsByShoot.values())
      for (const run of runs)
        if (run.state === "Failed" && run.startedAt < now - FAILED_NIGHTS_KEPT * DAY)
          expect(
            runs.some((r) => r.state === "Failed" && r.startedAt === run.startedAt - DAY),
            `${run.name} at ${new Date(run.startedAt).toISOString()}`,
          ).toBe(false);
    for (const [shootKey, runs] of runsByShoot) {
      const shoot = byShoot.get(shootKey)!;
      const sorted = [...runs].sort((a, b) => a.startedAt - b.startedAt);
      expect(runs).toEqual(sorted);
      // Replaying the changes from the first "from" must end at the current versions.
      const current = new Map<string, string>([["controlPlane|kubernetes", shoot.spec.kubernetes.version]]);
      for (const w of shoot.spec.provider?.workers ?? []) {
        current.set(`${w.name}|machineImage`, w.machine.image!.version!);
        if (w.kubernetes?.version) current.set(`${w.name}|kubernetes`, w.kubernetes.version);
      }
      const replayed = new Map<string, string>();
      for (const change of runs.flatMap((r) => r.changes)) {
        const target = `${change.target}|${change.kind}`;
        if (replayed.has(target)) expect(change.from).toBe(replayed.get(target));
        expect(compareVersions(parseVersion(change.from), parseVersion(change.to))).toBeLessThan(0);
        replayed.set(target, change.to);
      }
      for (const [target, version] of replayed) expect(version).toBe(current.get(target));
      const last = sorted[sorted.length - 1];
      expect(shoot.status?.lastMaintenance).toMatchObject({ description: last.description, state: last.state });
      expect(Date.parse(shoot.status!.lastMaintenance!.triggeredTime)).toBe(Math.floor(last.startedAt / 1000) * 1000);
    }
  });
});

/** What maintenance reads of a shoot: its spec, and its uid for the moment in its window. */
function asMaintained(shoot: Shoot, spec: Shoot["spec"] = shoot.spec): Shoot {
  const { name, namespace, uid, creationTimestamp } = shoot.metadata;
  return {
    apiVersion: shoot.apiVersion,
    kind: shoot.kind,
    metadata: { name, namespace, uid, creationTimestamp },
    spec,
  };
}

/** The versions maintenance may change, by "target|kind" as the history names them. */
function versionsOf(spec: Shoot["spec"]): Map<string, string> {
  const versions = new Map<string, string>([["controlPlane|kubernetes", spec.kubernetes.version]]);
  for (const w of spec.provider?.workers ?? []) {
    versions.set(`${w.name}|machineImage`, w.machine.image!.version!);
    if (w.kubernetes?.version) versions.set(`${w.name}|kubernetes`, w.kubernetes.version);
  }
  return versions;
}

function withVersions(spec: Shoot["spec"], versions: Map<string, string>): Shoot["spec"] {
  return {
    ...spec,
    kubernetes: { ...spec.kubernetes, version: versions.get("controlPlane|kubernetes")! },
    provider: {
      ...spec.provider!,
      workers: (spec.provider?.workers ?? []).map((w) => ({
        ...w,
        machine: { ...w.machine, image: { ...w.machine.image!, version: versions.get(`${w.name}|machineImage`)! } },
        ...(w.kubernetes ? { kubernetes: { ...w.kubernetes, version: versions.get(`${w.name}|kubernetes`)! } } : {}),
      })),
    },
  };
}

/** The shoot's last maintenance moment before `now`. */
function lastWindow(shoot: Shoot, now: number): number {
  const at = nextMaintenanceMoment(shoot, now - DAY).at;
  return at < now ? at : at - DAY;
}

// The issue "Gardener's rules beyond maintenance": a demo garden that could exist. Every shoot's
// versions and record are what nightly maintenance would have produced since its creation.
describe.each([
  { now: NOW, seed: 1, shoots: 64 },
  { now: Date.parse("2026-03-02T23:47:13.512Z"), seed: 987_654, shoots: 600 },
  { now: Date.parse("2025-07-01T03:05:00Z"), seed: 7, shoots: 2000 },
])("the demo garden could exist (seed $seed, $shoots shoots)", ({ now, seed, shoots: count }) => {
  const landscape = generateLandscape({ now, seed, shoots: count });
  const runsByShoot = new Map<string, Landscape["maintenanceHistory"]>();
  for (const run of landscape.maintenanceHistory) {
    const k = `${run.namespace}/${run.name}`;
    runsByShoot.set(k, [...(runsByShoot.get(k) ?? []), run]);
  }
  const maintained = landscape.shoots.filter((s) => {
    const created = Date.parse(s.metadata.creationTimestamp!);
    return !["Create"].includes(s.status?.lastOperation?.type ?? "") && lastWindow(s, now) > created;
  });

  it("runs no version that expired before the shoot's last window unless its maintenance failed there", () => {
    expect(maintained.length).toBeGreaterThan(count / 2);
    let stale = 0;
    for (const shoot of maintained) {
      const profile = profileOf(landscape, shoot);
      const window = lastWindow(shoot, now);
      const expired = [
        ...kubernetesVersionsOf(shoot).filter((v) => {
          const entry = profile.spec.kubernetes.versions.find((e) => e.version === v)!;
          return classificationAt(entry, window) === "expired";
        }),
        ...(shoot.spec.provider?.workers ?? []).flatMap((w) => {
          const image = profile.spec.machineImages!.find((m) => m.name === w.machine.image!.name)!;
          const entry = image.versions.find((e) => e.version === w.machine.image!.version)!;
          return classificationAt(entry, window) === "expired" ? [`${image.name} ${entry.version}`] : [];
        }),
      ];
      if (expired.length === 0) continue;
      stale++;
      const record = shoot.status?.lastMaintenance;
      expect(record?.state, `${key(shoot)} runs ${expired.join(", ")}`).toBe("Failed");
      expect(record?.failureReason).toBeTruthy();
      expect(Date.parse(record!.triggeredTime)).toBe(Math.floor(window / 1000) * 1000);
      // ... and failed every night before with the same cause, as far as the history keeps.
      const failedNights = (runsByShoot.get(key(shoot)) ?? []).filter(
        (r) => r.state === "Failed" && r.startedAt >= now - FAILED_NIGHTS_KEPT * DAY,
      );
      expect(failedNights.length).toBeGreaterThan(0);
      expect(failedNights[failedNights.length - 1].startedAt).toBe(window);
      for (const run of failedNights) expect(run.failureReason).toBe(record!.failureReason);
      for (let i = 1; i < failedNights.length; i++)
        expect(failedNights[i].startedAt - failedNights[i - 1].startedAt).toBe(DAY);
    }
    // The expiry countdown still has shoots on expired versions to show.
    expect(stale).toBeGreaterThan(0);
  });

  it("explains every version expired for more than a window with failed forced updates that go on failing", () => {
    let explained = 0;
    for (const shoot of landscape.shoots) {
      const profile = profileOf(landscape, shoot);
      // Every version it runs that expired before the last day's window (windows come daily).
      const expired = [
        ...kubernetesVersionsOf(shoot).map((v) => ({
          what: `Kubernetes ${v}`,
          entry: profile.spec.kubernetes.versions.find((e) => e.version === v)!,
        })),
        ...(shoot.spec.provider?.workers ?? []).map((w) => ({
          what: `${w.machine.image!.name} ${w.machine.image!.version}`,
          entry: profile.spec
            .machineImages!.find((m) => m.name === w.machine.image!.name)!
            .versions.find((e) => e.version === w.machine.image!.version)!,
        })),
      ].flatMap(({ what, entry }) => {
        const at = expiryTime(entry);
        return at !== undefined && at < now - DAY ? [{ what, at }] : [];
      });
      if (expired.length === 0) continue;
      explained++;
      const failed = (runsByShoot.get(key(shoot)) ?? []).filter((r) => r.state === "Failed");
      const reason = shoot.status?.lastMaintenance?.failureReason;
      expect(shoot.status?.lastMaintenance?.state, key(shoot)).toBe("Failed");
      expect(reason, key(shoot)).toBeTruthy();
      // The history holds the forced update that failed once the version had expired ...
      for (const { what, at } of expired)
        expect(
          failed.some((r) => r.startedAt > at),
          `${key(shoot)} runs ${what}, expired ${new Date(at).toISOString()}`,
        ).toBe(true);
      // ... failing for the reason the shoot's status shows ...
      expect(failed.at(-1)!.failureReason, key(shoot)).toBe(reason);
      // ... and the simulated garden's next window fails the same way while the cause lasts.
      const outcome = maintain(asMaintained(shoot), profile, nextMaintenanceMoment(shoot, now).at, {
        dryRun: admissionDryRun(landscape.admissionRules),
      });
      expect(outcome.shoot.status?.lastMaintenance?.failureReason, key(shoot)).toBe(reason);
    }
    expect(explained).toBeGreaterThan(0);
  });

  it("stores an admission rule for exactly the shoots whose maintenance a webhook rejected", () => {
    const REJECTED = "Updates to the Shoot failed to be applied: ";
    const rules = landscape.admissionRules;
    expect(rules.map((r) => r.webhook)).toEqual([...new Set(rules.map((r) => r.webhook))]);
    let blocked = 0;
    for (const shoot of landscape.shoots) {
      const recorded = [
        shoot.status?.lastMaintenance?.failureReason,
        ...(runsByShoot.get(key(shoot)) ?? []).map((r) => r.failureReason),
      ].filter((reason): reason is string => reason?.startsWith(REJECTED) === true);
      const rejection = admissionRejection(shoot, rules);
      // Every webhook failure on record is that rule's answer, word for word.
      for (const reason of recorded) expect(reason, key(shoot)).toBe(REJECTED + rejection?.message);
      if (!rejection) continue;
      blocked++;
      // A shoot the rules block is one the demo blocked: it runs an expired version, and its
      // maintenance had something to do that the webhook rejected (or was never due yet).
      const profile = profileOf(landscape, shoot);
      const entry = profile.spec.kubernetes.versions.find((e) => e.version === shoot.spec.kubernetes.version)!;
      expect(classificationAt(entry, now), key(shoot)).toBe("expired");
      if (maintained.includes(shoot)) {
        expect(shoot.status?.lastMaintenance?.failureReason, key(shoot)).toBe(REJECTED + rejection.message);
        // ... and the rule gives the same answer as the dry run the history used.
        const window = lastWindow(shoot, now);
        const outcome = maintain(asMaintained(shoot), profileAt(profile, now, window), window, {
          dryRun: admissionDryRun(rules),
        });
        expect(outcome.rejected, key(shoot)).toBe(true);
      }
    }
    expect(blocked).toBeGreaterThan(0);
  });

  it("leaves maintenance nothing to do at the last window unless it failed there", () => {
    for (const shoot of maintained) {
      // Against the profile as it was then: a version released since is not in it yet.
      const window = lastWindow(shoot, now);
      const outcome = maintain(asMaintained(shoot), profileAt(profileOf(landscape, shoot), now, window), window);
      if (shoot.status?.lastMaintenance?.state === "Failed") {
        expect(outcome.requirePatch, key(shoot)).toBe(true);
        continue;
      }
      // Auto-update shoots are on the latest version the engine picks, expired ones were forced.
      expect(outcome.controlPlane, key(shoot)).toBeUndefined();
      expect(outcome.workerKubernetes, key(shoot)).toEqual([]);
      expect(outcome.workerImages, key(shoot)).toEqual([]);
    }
  });

  it("records in the history the steps the engine takes", () => {
    let steps = 0;
    for (const shoot of maintained) {
      const profile = profileOf(landscape, shoot);
      const runs = (runsByShoot.get(key(shoot)) ?? []).filter((r) => r.state === "Succeeded");
      // The versions before the first run: walk back from the current ones.
      const versions = versionsOf(shoot.spec);
      for (const run of [...runs].reverse())
        for (const change of run.changes) versions.set(`${change.target}|${change.kind}`, change.from);
      for (const run of runs) {
        const before = asMaintained(shoot, withVersions(shoot.spec, versions));
        const outcome = maintain(before, profileAt(profile, now, run.startedAt), run.startedAt);
        expect(versionsOf(outcome.shoot.spec), `${key(shoot)} at ${new Date(run.startedAt).toISOString()}`).toEqual(
          new Map([...versions, ...run.changes.map((c) => [`${c.target}|${c.kind}`, c.to] as const)]),
        );
        expect(outcome.shoot.status?.lastMaintenance?.description).toBe(run.description);
        for (const change of run.changes) versions.set(`${change.target}|${change.kind}`, change.to);
        steps++;
      }
      expect(versions).toEqual(versionsOf(shoot.spec));
    }
    expect(steps).toBeGreaterThan(0);
  });

  // The issue "maintain now visibly updates clusters": versions released hours ago are what most
  // pending updates are, taken by the shoots whose window came after the release.
  const released = new Map(RECENT_RELEASES.map((r) => [`${r.subject}|${r.version}`, releaseTime(r, now)]));
  const subjectOf = (shoot: Shoot, target: string, kind: string) =>
    kind === "kubernetes"
      ? "kubernetes"
      : (shoot.spec.provider?.workers ?? []).find((w) => w.name === target)!.machine.image!.name;

  it("took the recent releases at the windows after them", () => {
    const taken = landscape.maintenanceHistory.flatMap((run) => {
      const shoot = landscape.shoots.find(
        (s) => s.metadata.namespace === run.namespace && s.metadata.name === run.name,
      )!;
      return run.changes.flatMap((c) => {
        const at = released.get(`${subjectOf(shoot, c.target, c.kind)}|${c.to}`);
        if (at === undefined) return [];
        expect(run.startedAt, `${run.name} took ${c.to} before its release`).toBeGreaterThan(at);
        return [c.to];
      });
    });
    expect(taken.length).toBeGreaterThan(0);
  });

  it("leaves an update pending only where a version came out or expires after the last window, or a webhook blocks it", () => {
    const rules = landscape.admissionRules;
    let pending = 0;
    for (const shoot of maintained) {
      const window = lastWindow(shoot, now);
      const next = nextMaintenanceMoment(shoot, now).at;
      const profile = profileOf(landscape, shoot);
      const plan = maintain(asMaintained(shoot), profile, next);
      const changes = [
        ...(plan.controlPlane ? [{ target: "controlPlane", kind: "kubernetes", result: plan.controlPlane }] : []),
        ...plan.workerKubernetes.map((w) => ({ target: w.worker, kind: "kubernetes", result: w.result })),
        ...plan.workerImages.map((w) => ({ target: w.worker, kind: "machineImage", result: w.result })),
      ];
      if (changes.length === 0) continue;
      pending++;
      if (admissionRejection(shoot, rules)) continue;
      for (const { target, kind, result } of changes) {
        const subject = subjectOf(shoot, target, kind);
        const out = released.get(`${subject}|${result.to}`);
        const entries =
          subject === "kubernetes"
            ? profile.spec.kubernetes.versions
            : profile.spec.machineImages!.find((m) => m.name === subject)!.versions;
        const expires = expiryTime(entries.find((v) => v.version === result.from)!);
        const releasedSince = out !== undefined && out >= window;
        const expiresSince = expires !== undefined && expires >= window && expires < next;
        expect(releasedSince || expiresSince, `${key(shoot)} ${target} ${result.from} -> ${result.to}`).toBe(true);
      }
    }
    expect(pending).toBeGreaterThan(0);
  });

  it("lets most shoots with a pending update take it now; the others a webhook refuses", () => {
    const rules = landscape.admissionRules;
    const REJECTED = "Updates to the Shoot failed to be applied: ";
    let pending = 0;
    let updated = 0;
    for (const shoot of landscape.shoots) {
      const profile = profileOf(landscape, shoot);
      const plan = maintain(asMaintained(shoot), profile, nextMaintenanceMoment(shoot, now).at);
      if (!plan.controlPlane && plan.workerKubernetes.length === 0 && plan.workerImages.length === 0) continue;
      pending++;
      const run = maintain(asMaintained(shoot), profile, now + 60_000, { dryRun: admissionDryRun(rules) });
      const rejection = admissionRejection(shoot, rules);
      if (rejection) {
        expect(run.rejected, key(shoot)).toBe(true);
        expect(run.shoot.status?.lastMaintenance?.failureReason).toBe(REJECTED + rejection.message);
        continue;
      }
      expect(run.shoot.status?.lastMaintenance?.state, key(shoot)).toBe("Succeeded");
      expect(versionsOf(run.shoot.spec), key(shoot)).not.toEqual(versionsOf(shoot.spec));
      updated++;
    }
    expect(pending - updated).toBeGreaterThan(0);
    expect(updated, `${updated} of ${pending} pending updates taken`).toBeGreaterThanOrEqual((2 * pending) / 3);
  });
});

describe("generateLandscape: a project's NamespacedCloudProfile", () => {
  const landscape = generateLandscape({ now: NOW });
  const [namespaced] = landscape.namespacedCloudProfiles ?? [];

  it("extends its parent's expiration dates ahead, and some shoots of that project name it", () => {
    expect(landscape.namespacedCloudProfiles).toHaveLength(1);
    const parent = landscape.cloudProfiles.find((p) => p.metadata.name === namespaced.spec.parent.name)!;
    const resolved = resolvedNamespacedProfile(namespaced)!;
    const expiry = (p: CloudProfile, version: string) =>
      expiryTime(p.spec.kubernetes.versions.find((v) => v.version === version)!);
    expect(namespaced.spec.kubernetes?.versions?.length).toBeGreaterThan(0);
    for (const { version } of namespaced.spec.kubernetes!.versions!) {
      expect(expiry(parent, version)).toBeGreaterThan(NOW);
      expect(expiry(resolved, version)).toBeGreaterThan(expiry(parent, version)!);
    }
    const shoots = landscape.shoots.filter((s) => s.spec.cloudProfile?.kind === "NamespacedCloudProfile");
    expect(shoots.length).toBeGreaterThan(0);
    for (const s of shoots) {
      expect(s.metadata.namespace).toBe(namespaced.metadata.namespace);
      expect(s.spec.cloudProfile?.name).toBe(namespaced.metadata.name);
    }
  });
});
