// The port through which Almanac reads a shoot's worker nodes: the simulated garden keeps them in
// its inventory (lib/garden/embedded); a live garden's are inside the shoot, read with a short-lived
// viewer kubeconfig the person asks the garden for (lib/garden/kubernetes), never stored. Use cases
// call it and never ask which garden it is. The answer is the API's (lib/api/nodes.ts).
import type { ShootNodesAnswer } from "../api/nodes.ts";
import type { Actor, ShootKey, Written } from "./shoot-writes.ts";

export interface NodesRequest {
  /** Read from inside the shoot with a viewer kubeconfig requested as the actor (live garden only). */
  readonly throughViewerKubeconfig: boolean;
  readonly now: number;
}

export interface ShootNodes {
  readNodes(actor: Actor, key: ShootKey, request: NodesRequest): Promise<Written<ShootNodesAnswer>>;
}
