import { db } from "@/lib/db/client.ts";
import { json, route } from "@/lib/http/route.ts";
import { fleetSummary } from "@/lib/server/fleet-summary.ts";

export const GET = route({ need: "read" }, async ({ request }) =>
  json(await fleetSummary(db(), new URL(request.url).searchParams, Date.now())),
);
