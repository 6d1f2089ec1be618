// GET .../nodes: a shoot's worker nodes, pool by pool, and how each pool's roll stands. During a
// roll both the old nodes and the new ones are listed. The simulated garden knows its nodes; a live
// garden's are read from inside the shoot only with a short-lived viewer credential the person asks
// for (never stored), otherwise the answer says what it cannot see and why.
import { z } from "zod";
import type { NodeWait as EngineNodeWait } from "../engine/node-readiness.ts";
import { NODE_STATES } from "../engine/node-roll.ts";
import { component } from "./components.ts";
import { describes } from "./schema-agreement.ts";

export const NODE_TAINT_EFFECTS = ["NoSchedule", "PreferNoSchedule", "NoExecute"] as const;

/** Where a node stands in its pool's life: serving, new and not yet schedulable, being replaced. */
export { NODE_STATES };

/**
 * A node-critical component (or CSI driver) that has not become ready on a node yet: the engine's
 * readiness rule (gardener-resource-manager's Node controller) says what it waits for.
 */
export type NodeWait = EngineNodeWait;

export interface ShootNode {
  readonly name: string;
  readonly pool: string;
  readonly zone?: string;
  readonly kubernetesVersion: string;
  readonly image: { readonly name: string; readonly version: string };
  /** The node's Ready condition. */
  readonly ready: boolean;
  readonly taints: readonly { readonly key: string; readonly value?: string; readonly effect: string }[];
  readonly state: (typeof NODE_STATES)[number];
  readonly createdAt?: string;
  /** What keeps node.gardener.cloud/critical-components-not-ready on the node (empty once removed). */
  readonly waitingFor: readonly NodeWait[];
}

export interface PoolRoll {
  readonly pool: string;
  /** AutoRollingUpdate (the default: nodes replaced), AutoInPlaceUpdate or ManualInPlaceUpdate. */
  readonly updateStrategy: string;
  readonly minimum: number;
  readonly maximum: number;
  /** As the pool states them (a number or a percentage). */
  readonly maxSurge: string;
  readonly maxUnavailable: string;
  /** What the pool's nodes are to run. */
  readonly target: {
    readonly kubernetesVersion: string;
    readonly image: { readonly name: string; readonly version: string };
  };
  /**
   * Stable: every node runs the target; Rolling: nodes are replaced or updated; Held: a node waits
   * for a component that does not become ready.
   */
  readonly state: "Stable" | "Rolling" | "Held";
  /** Nodes on the target and ready, out of the nodes the pool is to have. */
  readonly updated: number;
  readonly desired: number;
  /** When Held: which node waits, and for what. */
  readonly heldBy?: { readonly node: string; readonly waits: readonly NodeWait[] };
  /** ManualInPlaceUpdate: old nodes marked candidates for update that nobody selected yet. */
  readonly awaitingSelection?: number;
}

export interface ShootNodesAnswer {
  /**
   * simulated: the simulated garden's own nodes; shoot: read from the shoot's API server with a
   * viewer credential; garden: only what the garden reports (no nodes).
   */
  readonly source: "simulated" | "shoot" | "garden";
  readonly items: readonly ShootNode[];
  readonly pools: readonly PoolRoll[];
  /** What Almanac cannot see, and why (a live garden without a viewer credential). */
  readonly note?: string;
  readonly observedAt: string;
}

const nodeWaitSchema = z.object({
  kind: z.enum(["DaemonSet", "Pod", "CSIDriver"]),
  namespace: z.string().optional(),
  name: z.string(),
  reason: z.string(),
});

const imageSchema = z.object({ name: z.string(), version: z.string() });

export const shootNodeSchema = describes<ShootNode>()(
  component(
    "ShootNode",
    z.object({
      name: z.string(),
      pool: z.string(),
      zone: z.string().optional(),
      kubernetesVersion: z.string(),
      image: imageSchema,
      ready: z.boolean().meta({ description: "The node's Ready condition." }),
      taints: z.array(z.object({ key: z.string(), value: z.string().optional(), effect: z.string() })),
      state: z.enum(NODE_STATES),
      createdAt: z.string().optional(),
      waitingFor: z
        .array(nodeWaitSchema)
        .meta({ description: "What keeps node.gardener.cloud/critical-components-not-ready on the node." }),
    }),
  ),
);

export const poolRollSchema = describes<PoolRoll>()(
  component(
    "PoolRoll",
    z.object({
      pool: z.string(),
      updateStrategy: z.string(),
      minimum: z.number().int(),
      maximum: z.number().int(),
      maxSurge: z.string(),
      maxUnavailable: z.string(),
      target: z.object({ kubernetesVersion: z.string(), image: imageSchema }),
      state: z.enum(["Stable", "Rolling", "Held"]),
      updated: z.number().int(),
      desired: z.number().int(),
      heldBy: z.object({ node: z.string(), waits: z.array(nodeWaitSchema) }).optional(),
      awaitingSelection: z.number().int().optional(),
    }),
  ),
);

export const shootNodesAnswerSchema = describes<ShootNodesAnswer>()(
  component(
    "ShootNodes",
    z.object({
      source: z.enum(["simulated", "shoot", "garden"]),
      items: z.array(shootNodeSchema),
      pools: z.array(poolRollSchema),
      note: z.string().optional(),
      observedAt: z.string(),
    }),
  ),
);
