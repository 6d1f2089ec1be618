import { db } from "@/lib/db/client.ts";
import { getNamespacedCloudProfile } from "@/lib/api/operations/landscape.ts";
import { json, route } from "@/lib/http/route.ts";
import { getNamespacedProfile } from "@/lib/server/namespaced-cloud-profiles.ts";

export const GET = route(getNamespacedCloudProfile, async ({ params }) =>
  json(await getNamespacedProfile(db(), params.namespace, params.name)),
);
