import { db } from "@/lib/db/client.ts";
import { json, route } from "@/lib/http/route.ts";
import { listCloudProfiles } from "@/lib/server/list-cloud-profiles.ts";

export const GET = route({ need: "read", project: "any" }, async () => json(await listCloudProfiles(db())));
