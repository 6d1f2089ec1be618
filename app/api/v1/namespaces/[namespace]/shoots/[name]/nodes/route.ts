import { shootNodes } from "@/lib/garden/garden.ts";
import { getShootNodes } from "@/lib/api/operations/shoots.ts";
import { json, route } from "@/lib/http/route.ts";
import { readShootNodes } from "@/lib/server/shoot-nodes.ts";

export const GET = route(getShootNodes, async ({ params, query, actor, requestId, identity }) =>
  json(
    await readShootNodes(shootNodes(), {
      ...params,
      actor,
      requestId,
      identity,
      throughViewerKubeconfig: query.through === "viewer-kubeconfig",
      now: Date.now(),
    }),
  ),
);
