// What a cluster runs, as opposed to what its spec asks. Gardener's Shoot status carries no
// running version (the gardenlet keeps what it rolled out in the seed's Cluster resource, which
// the garden does not show), so Almanac records the spec's versions whenever it sees a reconcile
// of the current generation succeed. Both gardens write every shoot through the store, which asks
// `nextRunningVersions` for the record to keep: the simulated gardenlet's writes and the live
// mirror's observed objects get it the same way.
import type { Shoot } from "../gardener/types.ts";
import { rolloutPending } from "./rollout-pending.ts";

export interface RunningPool {
  readonly name: string;
  /** The pool's own Kubernetes version, when it sets one (otherwise the control plane's). */
  readonly kubernetesVersion?: string;
  readonly image?: { readonly name: string; readonly version?: string };
}

export interface RunningVersions {
  /** When the reconcile that rolled them out succeeded (its lastOperation.lastUpdateTime). */
  readonly since: string;
  readonly kubernetesVersion: string;
  readonly workers: readonly RunningPool[];
}

// The operations whose success means the gardenlet rolled the whole spec out (Migrate only
// hands the shoot over; Delete removes it).
const ROLLING_OPERATIONS: ReadonlySet<string> = new Set(["Create", "Reconcile", "Restore"]);

/** The versions `shoot`'s spec asks for, as a record dated `since`. */
export function specVersions(shoot: Pick<Shoot, "spec">, since: string): RunningVersions {
  return {
    since,
    kubernetesVersion: shoot.spec.kubernetes.version,
    workers: (shoot.spec.provider?.workers ?? []).map((w) => ({
      name: w.name,
      ...(w.kubernetes?.version ? { kubernetesVersion: w.kubernetes.version } : {}),
      ...(w.machine.image
        ? {
            image: {
              name: w.machine.image.name,
              ...(w.machine.image.version ? { version: w.machine.image.version } : {}),
            },
          }
        : {}),
    })),
  };
}

/** Whether the gardenlet has taken up the shoot's current generation. */
function generationObserved(shoot: Shoot): boolean {
  const observed = shoot.status?.observedGeneration;
  const generation = shoot.metadata.generation;
  // A garden that does not report generations (old fixtures, hand-written objects) is taken at its word.
  return typeof observed !== "number" || generation === undefined || observed === generation;
}

/**
 * The time of the shoot's last operation when it is a success of a rollout for the generation the
 * shoot has now; undefined otherwise (under way, failed, an older generation, or no rollout).
 */
function rolledOutAt(shoot: Shoot): string | undefined {
  const op = shoot.status?.lastOperation;
  if (!op || op.state !== "Succeeded" || !ROLLING_OPERATIONS.has(op.type) || !op.lastUpdateTime) return undefined;
  return generationObserved(shoot) ? op.lastUpdateTime : undefined;
}

/**
 * For a shoot without a record: the time of its last operation when the cluster exists (its
 * creation succeeded once: any operation but an unfinished Create) and that operation is about
 * the current generation. A later reconcile may have failed, but nothing better is known of what
 * runs than the spec then.
 */
function existsSince(shoot: Shoot): string | undefined {
  const op = shoot.status?.lastOperation;
  if (!op?.lastUpdateTime || (op.type === "Create" && op.state !== "Succeeded")) return undefined;
  return generationObserved(shoot) ? op.lastUpdateTime : undefined;
}

/**
 * The record to keep once `shoot` is written, given the record kept before (undefined for a
 * shoot seen the first time, or never seen succeed):
 * - a newly seen success (a lastUpdateTime other than the record's) of Create, Reconcile or
 *   Restore for the current generation records the spec's versions;
 * - otherwise the record stays: a change held by confineSpecUpdateRollout does not raise the
 *   generation, so the shoot keeps its old success and the record its old versions;
 * - without a record (a shoot seen the first time), the spec counts as running once the
 *   cluster exists: the best knowledge there is.
 * Either way a spec that the simulated gardenlet's note says differs from what it rolled out
 * (rollout-pending.ts: changed while the reconcile ran) is not recorded as running; `rolledOut`,
 * the versions of the spec the reconcile started with when the writer knows them (the simulated
 * gardenlet's own write of its success), is recorded instead.
 */
export function nextRunningVersions(
  previous: RunningVersions | undefined,
  shoot: Shoot,
  rolledOut?: Omit<RunningVersions, "since">,
): RunningVersions | undefined {
  const at = previous === undefined ? existsSince(shoot) : rolledOutAt(shoot);
  if (at === undefined || at === previous?.since) return previous;
  if (rolloutPending(shoot)) return rolledOut ? { ...rolledOut, since: at } : previous;
  return specVersions(shoot, at);
}
