// A live garden's worker pools as the garden reports them, without looking inside the shoot: each
// pool's spec (update strategy, minimum/maximum, maxSurge/maxUnavailable, the versions it is to
// run) and how its roll stands, read from the shoot's status: the lastOperation while it is at the
// worker steps, the EveryNodeReady condition (gardenlet's care controller), and
// status.inPlaceUpdates' pools still pending. Pure: the mirrored shoot in, the pools out.
import type { PoolRoll } from "../../api/nodes.ts";
import type { Condition, Shoot, Worker } from "../../gardener/types.ts";

/** Gardener's defaults (SetDefaults_Worker) for a pool that states no maxSurge/maxUnavailable. */
function defaultLimits(strategy: string): { maxSurge: string; maxUnavailable: string } {
  if (strategy === "AutoInPlaceUpdate") return { maxSurge: "0", maxUnavailable: "1" };
  if (strategy === "ManualInPlaceUpdate") return { maxSurge: "0", maxUnavailable: "0" };
  return { maxSurge: "1", maxUnavailable: "0" };
}

const limit = (value: unknown, fallback: string) =>
  typeof value === "number" || typeof value === "string" ? String(value) : fallback;

/** The pool's target: its own Kubernetes version (or the shoot's) and its machine image. */
function targetOf(shoot: Shoot, worker: Worker): PoolRoll["target"] {
  return {
    kubernetesVersion: worker.kubernetes?.version ?? shoot.spec.kubernetes.version,
    image: { name: worker.machine.image?.name ?? "", version: worker.machine.image?.version ?? "" },
  };
}

// gardenlet's reconcile flow names its worker steps so ("Waiting until all shoot worker nodes have
// updated the operating system config", "Reconciling the Shoot workers", ...).
const WORKER_STEP = /\bworker/i;

/** The shoot's lastOperation is running (or stuck) at its worker steps. */
function atWorkerSteps(shoot: Shoot): { readonly failed: boolean } | undefined {
  const operation = shoot.status?.lastOperation;
  if (!operation || !WORKER_STEP.test(operation.description ?? "")) return undefined;
  if (operation.state === "Processing" || operation.state === "Pending") return { failed: false };
  if (operation.state === "Error" || operation.state === "Failed") return { failed: true };
  return undefined;
}

function everyNodeReady(shoot: Shoot): Condition | undefined {
  return shoot.status?.conditions?.find((c) => c.type === "EveryNodeReady");
}

/** Pools the garden's words name (`worker pool "a"`), or undefined when they name none: then all. */
function namedPools(message: string, pools: readonly string[]): Set<string> | undefined {
  const named = pools.filter((pool) => message.includes(`"${pool}"`));
  return named.length > 0 ? new Set(named) : undefined;
}

function pendingInPlace(shoot: Shoot): Set<string> {
  const pending = (shoot.status?.inPlaceUpdates as { pendingWorkerUpdates?: Record<string, unknown> } | undefined)
    ?.pendingWorkerUpdates;
  const names = [pending?.autoInPlaceUpdate, pending?.manualInPlaceUpdate].flatMap((list) =>
    Array.isArray(list) ? list.filter((n): n is string => typeof n === "string") : [],
  );
  return new Set(names);
}

/**
 * Each pool and its roll as far as the garden tells: Held where EveryNodeReady is False (or the
 * operation failed at the worker steps), Rolling where it is Progressing, the operation is at the
 * worker steps or an in-place update is pending, Stable otherwise. Without the nodes, `updated`
 * counts the pool's nodes as all updated only when it is Stable, and none otherwise: the counts
 * of a roll under way are inside the shoot.
 */
export function poolsAsTheGardenReports(shoot: Shoot): PoolRoll[] {
  const workers = shoot.spec.provider?.workers ?? [];
  const names = workers.map((w) => w.name);
  const condition = everyNodeReady(shoot);
  const operation = atWorkerSteps(shoot);
  const inPlace = pendingInPlace(shoot);
  const notReady = condition && condition.status !== "True" ? condition : undefined;
  const affected = notReady ? (namedPools(notReady.message ?? "", names) ?? new Set(names)) : new Set<string>();

  return workers.map((worker): PoolRoll => {
    const updateStrategy = worker.updateStrategy ?? "AutoRollingUpdate";
    const defaults = defaultLimits(updateStrategy);
    const minimum = worker.minimum ?? 0;
    const held = (notReady?.status === "False" && affected.has(worker.name)) || operation?.failed === true;
    const rolling =
      held ||
      (notReady !== undefined && affected.has(worker.name)) ||
      operation !== undefined ||
      inPlace.has(worker.name);
    const state = held ? "Held" : rolling ? "Rolling" : "Stable";
    return {
      pool: worker.name,
      updateStrategy,
      minimum,
      maximum: worker.maximum ?? minimum,
      maxSurge: limit(worker.maxSurge, defaults.maxSurge),
      maxUnavailable: limit(worker.maxUnavailable, defaults.maxUnavailable),
      target: targetOf(shoot, worker),
      state,
      updated: state === "Stable" ? minimum : 0,
      desired: minimum,
    };
  });
}

/** What the garden says of the roll, in its own words, for the answer's note (undefined: nothing). */
export function gardenRollWords(shoot: Shoot): string | undefined {
  const words: string[] = [];
  const condition = everyNodeReady(shoot);
  if (condition && condition.status !== "True")
    words.push(
      `EveryNodeReady is ${condition.status}${condition.reason ? ` (${condition.reason})` : ""}` +
        (condition.message ? `: ${condition.message}` : ""),
    );
  const operation = shoot.status?.lastOperation;
  if (operation && atWorkerSteps(shoot))
    words.push(
      `the ${operation.type} is ${operation.state}` +
        (operation.progress !== undefined ? ` at ${operation.progress}%` : "") +
        (operation.description ? `: ${operation.description}` : ""),
    );
  return words.length > 0 ? words.join("; ") : undefined;
}
