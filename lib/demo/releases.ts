// The versions released a few hours before now (tables.ts, RECENT_RELEASES), and the cloud
// profiles as they were before each release. The history replays each night against the profile
// of that moment, so a shoot that updates automatically took a release at its first window after
// it, and one whose window has not come since has it pending: "maintain now" takes it at once.
// The profiles the landscape publishes are those of now, after every release.
import type { CloudProfile, ExpirableVersion } from "../gardener/types.ts";
import { RECENT_RELEASES, type ReleaseDef } from "./tables.ts";
import { HOUR } from "./time.ts";

/** When the release happened (epoch ms): on the full hour, `hoursAgo` before now. */
export function releaseTime(release: ReleaseDef, now: number): number {
  return Math.floor(now / HOUR) * HOUR - release.hoursAgo * HOUR;
}

/** The versions of the profile a release concerns: Kubernetes, or one machine image's. */
function versionsOf(profile: CloudProfile, subject: string): readonly ExpirableVersion[] | undefined {
  if (subject === "kubernetes") return profile.spec.kubernetes.versions;
  return profile.spec.machineImages?.find((m) => m.name === subject)?.versions;
}

/** The releases this profile had (it offers the released version), oldest first. */
const releasesByProfile = new WeakMap<CloudProfile, readonly ReleaseDef[]>();
function releasesOf(profile: CloudProfile): readonly ReleaseDef[] {
  let releases = releasesByProfile.get(profile);
  if (!releases) {
    releases = RECENT_RELEASES.filter((r) => versionsOf(profile, r.subject)?.some((v) => v.version === r.version)).sort(
      (a, b) => b.hoursAgo - a.hoursAgo,
    );
    releasesByProfile.set(profile, releases);
  }
  return releases;
}

/** The instants at which the profile changed by a release, ascending. */
export function releaseInstants(profile: CloudProfile, now: number): number[] {
  return [...new Set(releasesOf(profile).map((r) => releaseTime(r, now)))];
}

/**
 * The instants of the releases that may give maintenance something to do for a shoot running
 * these versions: a Kubernetes patch of a minor it runs (automatic updates stay within the minor;
 * anything else only a forced update reaches, which an expiry triggers), or a version of an image
 * it runs.
 */
export function releaseInstantsFor(
  profile: CloudProfile,
  now: number,
  running: readonly { subject: string; version: string }[],
): number[] {
  const minor = (v: string) => v.slice(0, v.lastIndexOf("."));
  return releasesOf(profile)
    .filter((r) =>
      running.some((run) =>
        run.subject === "kubernetes"
          ? r.subject === "kubernetes" && minor(r.version) === minor(run.version)
          : r.subject === run.subject,
      ),
    )
    .map((r) => releaseTime(r, now));
}

/** A version entry as it was before the release: a preview, or supported (without an expiry it only got then). */
function before(release: ReleaseDef, v: ExpirableVersion): ExpirableVersion | undefined {
  if (v.version === release.version) {
    if (release.was === "absent") return undefined;
    const { expirationDate: _dropped, ...rest } = v;
    return { ...rest, classification: "preview" };
  }
  if (v.version === release.replaces) {
    if (release.replacedHadExpiry) return { ...v, classification: "supported" };
    const { expirationDate: _dropped, ...rest } = v;
    return { ...rest, classification: "supported" };
  }
  return v;
}

function undo<T extends ExpirableVersion>(release: ReleaseDef, versions: readonly T[]): T[] {
  return versions.flatMap((v) => {
    const was = before(release, v);
    return was ? [was as T] : [];
  });
}

function withoutRelease(profile: CloudProfile, release: ReleaseDef): CloudProfile {
  const spec = profile.spec;
  if (release.subject === "kubernetes")
    return {
      ...profile,
      spec: { ...spec, kubernetes: { ...spec.kubernetes, versions: undo(release, spec.kubernetes.versions) } },
    };
  return {
    ...profile,
    spec: {
      ...spec,
      machineImages: (spec.machineImages ?? []).map((m) =>
        m.name === release.subject ? { ...m, versions: undo(release, m.versions) } : m,
      ),
    },
  };
}

const profilesBefore = new WeakMap<CloudProfile, Map<string, CloudProfile>>();

/**
 * The profile as it was at moment `t`: without the releases that had not happened yet (a release
 * is out at moments strictly after its time, as a version is expired strictly after its expiry).
 * The same object for every moment between two releases, so the engine prepares it once.
 */
export function profileAt(profile: CloudProfile, now: number, t: number): CloudProfile {
  const releases = releasesOf(profile);
  // Oldest first, so the releases still to come are the last ones.
  let out = releases.length;
  while (out > 0 && releaseTime(releases[out - 1], now) >= t) out--;
  if (out === releases.length) return profile;
  const key = `${now}|${out}`;
  let byKey = profilesBefore.get(profile);
  if (!byKey) profilesBefore.set(profile, (byKey = new Map()));
  let earlier = byKey.get(key);
  if (!earlier) {
    earlier = releases.slice(out).reduce(withoutRelease, profile);
    byKey.set(key, earlier);
  }
  return earlier;
}
