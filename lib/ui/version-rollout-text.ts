// What runs vs what is asked, in words the pages share: the header, the outlook, the fleet row
// and the timeline all take the API's `rollout` (lib/engine/version-rollout.ts) and say it alike.
import type { RolloutChange, VersionRollout } from "../engine/version-rollout.ts";
import { formatLocalShort, formatUtcShort } from "./time.ts";

export type { RolloutChange, VersionRollout } from "../engine/version-rollout.ts";

/** The lane's change still to come, when it has one. */
export function rolloutChangeOf(
  rollout: VersionRollout | null | undefined,
  target: string,
  kind: RolloutChange["kind"],
): RolloutChange | undefined {
  return rollout?.changes.find((c) => c.target === target && c.kind === kind);
}

/** `Control plane: Kubernetes 1.32.7 → 1.33.6`, `Pool "worker": machine image gardenlinux 1592.4.0 → 1877.3.0`. */
export function describeRolloutChange(c: RolloutChange): string {
  const who = c.target === "controlPlane" ? "Control plane" : `Pool "${c.target}"`;
  const what = c.kind === "kubernetes" ? "Kubernetes" : `machine image ${c.subject}`;
  return `${who}: ${what} ${c.running} → ${c.asked}`;
}

/** "Tue, 25 Nov, 03:00 local · 25 Nov, 02:00 UTC": a moment in the browser's zone and in UTC. */
export function localAndUtc(at: string | number): string {
  return `${formatLocalShort(at)} local · ${formatUtcShort(at)}`;
}

/**
 * When the asked versions will run: in the next window (confineSpecUpdateRollout holds them,
 * `windowBegin` its start), or with the reconcile the change started.
 */
export function rolloutWhenText(rollout: Pick<VersionRollout, "when">, windowBegin?: string): string {
  if (rollout.when === "reconcile") return "(its reconcile rolls it out)";
  return windowBegin ? `in the next window (${localAndUtc(windowBegin)})` : "in the next maintenance window";
}

/** Why the row shows two versions, for a title: what runs since when, and what is asked. */
export function rolloutTitle(c: RolloutChange, rollout: VersionRollout, windowBegin?: string): string {
  return (
    `Runs ${c.running} (its last rollout Almanac saw, ${localAndUtc(rollout.runningSince)}); ` +
    `the spec asks for ${c.asked}, which runs ${rollout.when === "window" ? rolloutWhenText(rollout, windowBegin) : "once its reconcile succeeds"}.`
  );
}
