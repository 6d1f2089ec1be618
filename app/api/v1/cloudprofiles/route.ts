import { db } from "@/lib/db/client.ts";
import { listCloudProfiles as listCloudProfilesOp } from "@/lib/api/operations/landscape.ts";
import { json, route } from "@/lib/http/route.ts";
import { listCloudProfiles } from "@/lib/server/list-cloud-profiles.ts";

export const GET = route(listCloudProfilesOp, async () => json(await listCloudProfiles(db())));
