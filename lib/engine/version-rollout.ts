// The versions a shoot's spec asks for that it does not run yet (running-versions.ts), lane by
// lane as the plan, the forecast and the timeline name them, and when they will run: with
// confineSpecUpdateRollout in the next maintenance window (Gardener rolls held spec changes out
// there), otherwise with the reconcile the change started (under way, failed, or to come).
import type { Shoot } from "../gardener/types.ts";
import type { RunningVersions } from "./running-versions.ts";

export interface RolloutChange {
  /** "controlPlane" or the worker pool's name. */
  readonly target: string;
  readonly kind: "kubernetes" | "machineImage";
  /** "Kubernetes" or the machine image's name (of the asked version). */
  readonly subject: string;
  /** What runs: the version, or for an image of another name "<name> <version>". */
  readonly running: string;
  readonly asked: string;
}

export interface VersionRollout {
  /** When the running versions were rolled out (the recorded success). */
  readonly runningSince: string;
  /** "window": held for the next maintenance window; "reconcile": the reconcile rolls it out. */
  readonly when: "window" | "reconcile";
  readonly changes: readonly RolloutChange[];
}

function imageText(image: { name: string; version?: string } | undefined, name: string | undefined): string {
  if (!image) return "";
  const version = image.version ?? "";
  return image.name === name ? version : `${image.name} ${version}`.trim();
}

/** The rollout still to come for `shoot`, or null when it runs what it asks (or nothing is known). */
export function versionRollout(
  shoot: Pick<Shoot, "spec">,
  running: RunningVersions | undefined,
): VersionRollout | null {
  if (!running) return null;
  const changes: RolloutChange[] = [];
  const asked = shoot.spec.kubernetes.version;
  if (running.kubernetesVersion !== asked)
    changes.push({
      target: "controlPlane",
      kind: "kubernetes",
      subject: "Kubernetes",
      running: running.kubernetesVersion,
      asked,
    });
  for (const pool of shoot.spec.provider?.workers ?? []) {
    const was = running.workers.find((w) => w.name === pool.name);
    // A pool added since the last rollout has nothing running yet; it is not an update.
    if (!was) continue;
    const own = pool.kubernetes?.version;
    if ((own || was.kubernetesVersion) && (own ?? asked) !== (was.kubernetesVersion ?? running.kubernetesVersion))
      changes.push({
        target: pool.name,
        kind: "kubernetes",
        subject: "Kubernetes",
        running: was.kubernetesVersion ?? running.kubernetesVersion,
        asked: own ?? asked,
      });
    const image = pool.machine.image;
    if (image && (image.name !== was.image?.name || image.version !== was.image?.version) && was.image)
      changes.push({
        target: pool.name,
        kind: "machineImage",
        subject: image.name,
        running: imageText(was.image, image.name),
        asked: image.version ?? "",
      });
  }
  if (changes.length === 0) return null;
  return {
    runningSince: running.since,
    when: shoot.spec.maintenance?.confineSpecUpdateRollout === true ? "window" : "reconcile",
    changes,
  };
}

/** The running version of a lane, or the asked one when the lane has no change to come. */
export function runningVersionOf(
  rollout: Pick<VersionRollout, "changes"> | null | undefined,
  target: string,
  kind: RolloutChange["kind"],
  asked: string,
): string {
  return rollout?.changes.find((c) => c.target === target && c.kind === kind)?.running ?? asked;
}
