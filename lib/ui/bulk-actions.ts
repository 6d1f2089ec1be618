// What the fleet page's bulk actions say and send: each action's words, its parameters as the
// API takes them (lib/api/bulk-actions.ts), who may start one, and the outcome's order (what
// needs a look first).
import type { BulkActionItem, BulkActionName, BulkActionState, BulkItemState } from "../api/bulk-actions.ts";
import type { MeBinding } from "../api/me.ts";
import { allowsSomewhere, roleFor } from "../api/roles.ts";
import { LANDSCAPE } from "../api/roles.ts";
import type { Allowance } from "./permissions.ts";
import { ALLOWED, NOT_KNOWN, NOT_YET_KNOWN } from "./permissions.ts";

export interface BulkActionChoice {
  readonly action: BulkActionName;
  readonly label: string;
  /** What it does to each cluster, in a sentence. */
  readonly help: string;
  /** Whether it asks for parameters before the preview. */
  readonly hasParams: boolean;
  /** Disruptive: the start button says so in red. */
  readonly disruptive: boolean;
}

export const BULK_ACTION_CHOICES: readonly BulkActionChoice[] = [
  {
    action: "maintain",
    label: "Maintain now",
    help: "Starts each cluster's maintenance now: the version updates its next window would apply, and a reconcile.",
    hasParams: false,
    disruptive: true,
  },
  {
    action: "set-window",
    label: "Set maintenance window",
    help: "Sets the same daily maintenance window (UTC) on each cluster.",
    hasParams: true,
    disruptive: false,
  },
  {
    action: "set-auto-update",
    label: "Auto-update flags",
    help: "Switches whether Gardener updates Kubernetes patches and machine images in the window.",
    hasParams: true,
    disruptive: false,
  },
  {
    action: "set-confine-rollout",
    label: "Confine rollout",
    help: "Whether changes to a cluster's spec wait for its maintenance window.",
    hasParams: true,
    disruptive: false,
  },
  {
    action: "hibernate",
    label: "Hibernate",
    help: "Scales each cluster's worker nodes and control plane down; workloads stop.",
    hasParams: false,
    disruptive: true,
  },
  {
    action: "wake",
    label: "Wake up",
    help: "Wakes each hibernated cluster: nodes and control plane come back.",
    hasParams: false,
    disruptive: false,
  },
];

export const choiceOf = (action: BulkActionName): BulkActionChoice =>
  BULK_ACTION_CHOICES.find((c) => c.action === action)!;

/** "22:00" (a time input, UTC) as Gardener's "220000+0000"; undefined if it is not a time. */
export function gardenerClock(value: string): string | undefined {
  const m = /^(\d{2}):(\d{2})$/.exec(value);
  if (!m || Number(m[1]) > 23 || Number(m[2]) > 59) return undefined;
  return `${m[1]}${m[2]}00+0000`;
}

/** A tri-state switch of the auto-update form: leave each cluster's as it is, or set it. */
export type FlagChoice = "keep" | "on" | "off";

export interface BulkParamsDraft {
  readonly windowBegin: string;
  readonly windowEnd: string;
  readonly kubernetesVersion: FlagChoice;
  readonly machineImageVersion: FlagChoice;
  readonly confine: boolean;
}

export const DEFAULT_PARAMS: BulkParamsDraft = {
  windowBegin: "22:00",
  windowEnd: "23:00",
  kubernetesVersion: "on",
  machineImageVersion: "keep",
  confine: true,
};

/**
 * The action's params as POST /bulk-actions takes them. What the form cannot tell (an empty time)
 * is sent as typed, so the server's 422 names the field.
 */
export function bulkParams(action: BulkActionName, draft: BulkParamsDraft): Record<string, unknown> | undefined {
  switch (action) {
    case "set-window":
      return {
        begin: gardenerClock(draft.windowBegin) ?? draft.windowBegin,
        end: gardenerClock(draft.windowEnd) ?? draft.windowEnd,
      };
    case "set-auto-update": {
      const flag = (c: FlagChoice) => (c === "keep" ? {} : { value: c === "on" });
      const k = flag(draft.kubernetesVersion);
      const m = flag(draft.machineImageVersion);
      return {
        ...("value" in k ? { kubernetesVersion: k.value } : {}),
        ...("value" in m ? { machineImageVersion: m.value } : {}),
      };
    }
    case "set-confine-rollout":
      return { confineSpecUpdateRollout: draft.confine };
    default:
      return undefined;
  }
}

/** A few words on the parameters, for the preview's heading ("22:00–23:00 UTC"). */
export function paramsSummary(action: BulkActionName, draft: BulkParamsDraft): string | undefined {
  switch (action) {
    case "set-window":
      return `${draft.windowBegin}–${draft.windowEnd} UTC every day`;
    case "set-auto-update": {
      const word = (c: FlagChoice) => (c === "on" ? "on" : "off");
      const parts = [
        draft.kubernetesVersion !== "keep" && `Kubernetes patches ${word(draft.kubernetesVersion)}`,
        draft.machineImageVersion !== "keep" && `machine images ${word(draft.machineImageVersion)}`,
      ].filter(Boolean);
      return parts.length ? parts.join(", ") : "nothing chosen";
    }
    case "set-confine-rollout":
      return draft.confine ? "changes wait for the window" : "changes roll out at once";
    default:
      return undefined;
  }
}

/**
 * Whether the caller may start a bulk action at all: the operator role somewhere (each cluster's
 * own project is judged in the preview, as the server does).
 */
export function bulkAllowance(bindings: readonly MeBinding[] | undefined, failed: boolean): Allowance {
  if (!bindings) return failed ? NOT_KNOWN : NOT_YET_KNOWN;
  if (allowsSomewhere(bindings, "operate")) return ALLOWED;
  const needed = roleFor("operate");
  const held = bindings.map(
    (b) => `${b.role} on ${b.scope === LANDSCAPE ? "the whole landscape" : `project ${b.scope}`}`,
  );
  return {
    allowed: false,
    known: true,
    reason: held.length
      ? `Your role ${held.join(", ")} does not allow changing clusters; bulk actions need ${needed}.`
      : `You have no role that allows changing clusters; bulk actions need ${needed}.`,
  };
}

export const isFinalBulkState = (state: BulkActionState) => state !== "Running";

export const isFinalItemState = (state: BulkItemState) => state !== "Pending" && state !== "Acting";

const ITEM_ORDER: Record<BulkItemState, number> = {
  Failed: 0,
  Refused: 1,
  Acting: 2,
  Pending: 3,
  Cancelled: 4,
  Succeeded: 5,
};

/** Failures first, then refusals, what is under way, waiting, cancelled, and done; by name within. */
export function outcomeOrder(items: readonly BulkActionItem[]): BulkActionItem[] {
  return [...items].sort(
    (a, b) =>
      ITEM_ORDER[a.state] - ITEM_ORDER[b.state] ||
      a.namespace.localeCompare(b.namespace) ||
      a.name.localeCompare(b.name),
  );
}
