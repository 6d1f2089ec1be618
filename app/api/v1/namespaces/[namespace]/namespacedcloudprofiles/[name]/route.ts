import { db } from "@/lib/db/client.ts";
import { json, route } from "@/lib/http/route.ts";
import { getNamespacedProfile } from "@/lib/server/namespaced-cloud-profiles.ts";

type Params = { namespace: string; name: string };

export const GET = route<Params>({ need: "read", project: "namespace" }, async (_ctx, { namespace, name }) =>
  json(await getNamespacedProfile(db(), namespace, name)),
);
