import { db } from "@/lib/db/client.ts";
import { listCloudProfiles } from "@/lib/garden/embedded/cloud-profiles.ts";
import { json, route } from "@/lib/http/route.ts";

export const GET = route(async () => json({ items: await listCloudProfiles(db()) }));
