// A version a shoot runs (its control plane's or a pool's Kubernetes, a pool's machine image)
// whose cloud profile expiration date lies within N days, as notification events (issue 30). One
// event per version and threshold, however many pools run it; the key holds the expiration date,
// so a profile that moves it makes a new event.
import { inTimeWords, shootWords, utcMinute } from "./notification-words.ts";
import type { VersionInUse } from "./versions-in-use.ts";
import { DAY_MS } from "./time-units.ts";

export interface ExpiringVersionEvent {
  readonly key: string;
  readonly days: number;
  /** The expiration date (epoch ms): the event is relevant until then. */
  readonly until: number;
  readonly summary: string;
  readonly data: Record<string, unknown>;
}

const targetWords = (target: string) => (target === "controlPlane" ? "control plane" : `pool "${target}"`);

/**
 * The events of one shoot's versions `versions` (versionsInUse at `now`) expiring after `now` and
 * within each of `days` days.
 */
export function expiringVersionEvents(
  shoot: { readonly namespace: string; readonly name: string },
  versions: readonly VersionInUse[],
  days: readonly number[],
  now: number,
): ExpiringVersionEvent[] {
  // The same version in several places is one finding, naming every place.
  const byVersion = new Map<string, { version: VersionInUse; expiresAt: number; targets: string[] }>();
  for (const v of versions) {
    if (v.expiresAt === undefined || v.expiresAt <= now) continue;
    const id = `${v.kind}:${v.kind === "machineImage" ? v.name : "-"}:${v.version}`;
    const found = byVersion.get(id);
    if (found) found.targets.push(v.target);
    else byVersion.set(id, { version: v, expiresAt: v.expiresAt, targets: [v.target] });
  }
  const who = shootWords(shoot.namespace, shoot.name);
  const events: ExpiringVersionEvent[] = [];
  for (const [id, { version, expiresAt, targets }] of byVersion) {
    const expiration = new Date(expiresAt).toISOString();
    const what = version.kind === "kubernetes" ? `Kubernetes ${version.version}` : `${version.name} ${version.version}`;
    for (const d of days) {
      if (expiresAt > now + d * DAY_MS) continue;
      events.push({
        key: `version-expiring:${who}:${id}:${expiration}:${d}`,
        days: d,
        until: expiresAt,
        summary:
          `${who}: ${what} (${targets.map(targetWords).join(", ")}) expires on ${utcMinute(expiresAt)} ` +
          `(${inTimeWords(expiresAt, now)}); Gardener then force-updates it in the next maintenance window`,
        data: {
          kind: version.kind,
          ...(version.kind === "machineImage" ? { image: version.name } : {}),
          version: version.version,
          ...(version.classification ? { classification: version.classification } : {}),
          expirationDate: expiration,
          targets,
          days: d,
        },
      });
    }
  }
  return events;
}
