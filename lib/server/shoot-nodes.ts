// GET .../nodes: the shoot's worker nodes and each pool's roll, through the garden's nodes port.
import type { GardenIdentity } from "../auth/garden-identity.ts";
import type { ShootNodesAnswer } from "../api/nodes.ts";
import type { ShootNodes } from "../garden/shoot-nodes.ts";
import { refusalError } from "./shoot-refusal.ts";

export interface NodesRequest {
  readonly namespace: string;
  readonly name: string;
  readonly actor: string;
  readonly requestId: string;
  readonly identity: GardenIdentity;
  readonly throughViewerKubeconfig: boolean;
  readonly now: number;
}

export async function readShootNodes(garden: ShootNodes, req: NodesRequest): Promise<ShootNodesAnswer> {
  const key = { namespace: req.namespace, name: req.name };
  const read = await garden.readNodes({ name: req.actor, requestId: req.requestId, identity: req.identity }, key, {
    throughViewerKubeconfig: req.throughViewerKubeconfig,
    now: req.now,
  });
  if (!read.ok) throw refusalError(read.refusal, key, "inspect");
  return read.value;
}
