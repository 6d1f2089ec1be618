// The simulated garden's nodes: PLACEHOLDER until the simulated roll lands (issue 27): the pools
// as the spec states them, without nodes.
import type { Db } from "../../db/client.ts";
import type { ShootNodes } from "../shoot-nodes.ts";

export function embeddedShootNodes(_db: Db): ShootNodes {
  return {
    async readNodes(_actor, _key, request) {
      return {
        ok: true,
        value: { source: "simulated", items: [], pools: [], observedAt: new Date(request.now).toISOString() },
      };
    },
  };
}
