import { db } from "@/lib/db/client.ts";
import { shootWrites } from "@/lib/garden/garden.ts";
import { etag, ifNoneMatchHits } from "@/lib/http/etag.ts";
import { json, readJsonBody, route } from "@/lib/http/route.ts";
import { deleteShoot } from "@/lib/server/delete-shoot.ts";
import { getShoot } from "@/lib/server/get-shoot.ts";
import { updateShootFromPatch } from "@/lib/server/update-shoot.ts";

type Params = { namespace: string; name: string };

export const GET = route<Params>({ need: "read", project: "namespace" }, async ({ request }, { namespace, name }) => {
  const { shoot, resourceVersion } = await getShoot(db(), namespace, name);
  if (ifNoneMatchHits(request.headers.get("if-none-match"), resourceVersion)) {
    return new Response(null, { status: 304, headers: { etag: etag(resourceVersion) } });
  }
  return json(shoot, { headers: { etag: etag(resourceVersion) } });
});

export const PATCH = route<Params>(
  { need: "operate", project: "namespace" },
  async ({ request, actor, requestId, identity, require }, { namespace, name }) => {
    const body = await readJsonBody(request, ["application/merge-patch+json", "application/json"]);
    const shoot = await updateShootFromPatch(shootWrites(), {
      namespace,
      name,
      body,
      actor,
      requestId,
      identity,
      ifMatch: request.headers.get("if-match"),
      now: Date.now(),
      authorize: require,
    });
    return json(shoot, { headers: { etag: etag(shoot.metadata.resourceVersion ?? "") } });
  },
);

export const DELETE = route<Params>(
  { need: "administer", project: "namespace" },
  async ({ actor, requestId, identity }, { namespace, name }) => {
    const answer = await deleteShoot(shootWrites(), { namespace, name, actor, requestId, identity, now: Date.now() });
    return json(answer, { status: 202 });
  },
);
