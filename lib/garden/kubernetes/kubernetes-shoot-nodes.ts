// A live garden's nodes: PLACEHOLDER until the viewer-kubeconfig read lands (issue 27).
import type { GardenKubeConfig } from "./garden-kubeconfig.ts";
import type { ShootNodes } from "../shoot-nodes.ts";

export function kubernetesShootNodes(_kubeConfig: GardenKubeConfig): ShootNodes {
  return {
    async readNodes(_actor, _key, request) {
      return {
        ok: true,
        value: {
          source: "garden",
          items: [],
          pools: [],
          note: "Reading nodes from a live garden is not built yet.",
          observedAt: new Date(request.now).toISOString(),
        },
      };
    },
  };
}
