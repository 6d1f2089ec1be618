import { db } from "@/lib/db/client.ts";
import { getCloudProfile as getCloudProfileOp } from "@/lib/api/operations/landscape.ts";
import { json, route } from "@/lib/http/route.ts";
import { getCloudProfile } from "@/lib/server/get-cloud-profile.ts";

export const GET = route(getCloudProfileOp, async ({ params }) => json(await getCloudProfile(db(), params.name)));
