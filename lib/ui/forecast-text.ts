// How a forecast item reads in a table: what moves (control plane or which pool, Kubernetes or
// machine image), the change, and the controller's reason in a few words (the full reason and
// message stay available in a tooltip; a stuck item's explanation is written in its row).
import type { ForecastItem } from "../api/forecast.ts";
import { HELD_ROLLOUT_REASON } from "../engine/held-rollout-forecast.ts";
import { REASON_VERSION_MISSING } from "../engine/kubernetes-maintenance.ts";

type ItemLike = Pick<ForecastItem, "target" | "worker" | "kind" | "from" | "to" | "reason" | "stuck">;

/**
 * Why a stuck item is stuck, in sentences shown in the row itself (not only in a tooltip): the
 * forecast's explanation, what follows from it, and the controller's own failure text.
 */
export function stuckExplanation(item: Pick<ForecastItem, "stuck" | "message" | "error">): string[] {
  if (!item.stuck) return [];
  const lines = [
    item.message,
    "Maintenance fails in this window and the cluster stays on an expired version until a newer version is offered or the cluster is updated by hand.",
  ];
  if (item.error && !item.message.includes(item.error)) lines.push(`The maintenance controller reports: ${item.error}`);
  return lines;
}

/** "Control plane" or "Pool worker-a". */
export const targetText = (item: ItemLike) =>
  item.target === "controlPlane" ? "Control plane" : `Pool ${item.worker ?? "?"}`;

export const kindText = (item: ItemLike) => (item.kind === "kubernetes" ? "Kubernetes" : "Machine image");

/** "1.31.10 → 1.31.13", or "1.31.10 → no version (stuck)". */
export const changeText = (item: ItemLike) => `${item.from} → ${item.to ?? "no version (stuck)"}`;

/** The reason in a few words: "Expired", "Expired (image strategy minor)", "Not in the cloud profile". */
export function shortReason(reason: string): string {
  if (reason === REASON_VERSION_MISSING) return "Not in the cloud profile";
  if (reason === HELD_ROLLOUT_REASON) return "Held for the window (asked, not rolled out yet)";
  const strategy = /image update strategy: (\w+)/.exec(reason)?.[1];
  if (reason.includes("expired - force update required"))
    return strategy ? `Expired (image strategy ${strategy})` : "Expired";
  return reason;
}

/** Whether a Kubernetes update crosses a minor line (the disruptive kind). */
export function isMinorUpdate(item: ItemLike): boolean {
  if (item.kind !== "kubernetes" || !item.to) return false;
  const minor = (v: string) => v.split(".").slice(0, 2).join(".");
  return minor(item.from) !== minor(item.to);
}
