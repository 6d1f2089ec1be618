import { db } from "@/lib/db/client.ts";
import { json, route } from "@/lib/http/route.ts";
import { getCloudProfile } from "@/lib/server/get-cloud-profile.ts";

export const GET = route<{ name: string }>({ need: "read", project: "any" }, async (_ctx, { name }) =>
  json(await getCloudProfile(db(), name)),
);
