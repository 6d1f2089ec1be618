import { db } from "@/lib/db/client.ts";
import { shootWrites } from "@/lib/garden/garden.ts";
import { deleteShoot as deleteShootOp, getShoot as getShootOp, patchShoot } from "@/lib/api/operations/shoots.ts";
import { etag, ifNoneMatchHits } from "@/lib/http/etag.ts";
import { json, route } from "@/lib/http/route.ts";
import { deleteShoot } from "@/lib/server/delete-shoot.ts";
import { getShoot } from "@/lib/server/get-shoot.ts";
import { updateShootFromPatch } from "@/lib/server/update-shoot.ts";

export const GET = route(getShootOp, async ({ request, params }) => {
  const { shoot, resourceVersion } = await getShoot(db(), params.namespace, params.name);
  if (ifNoneMatchHits(request.headers.get("if-none-match"), resourceVersion)) {
    return new Response(null, { status: 304, headers: { etag: etag(resourceVersion) } });
  }
  return json(shoot, { headers: { etag: etag(resourceVersion) } });
});

export const PATCH = route(patchShoot, async ({ request, params, body, actor, requestId, identity, require }) => {
  const shoot = await updateShootFromPatch(shootWrites(), {
    ...params,
    body,
    actor,
    requestId,
    identity,
    ifMatch: request.headers.get("if-match"),
    now: Date.now(),
    authorize: require,
  });
  return json(shoot, { headers: { etag: etag(shoot.metadata.resourceVersion ?? "") } });
});

export const DELETE = route(deleteShootOp, async ({ params, actor, requestId, identity }) => {
  const answer = await deleteShoot(shootWrites(), { ...params, actor, requestId, identity, now: Date.now() });
  return json(answer, { status: 202 });
});
