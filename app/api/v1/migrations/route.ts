import { db } from "@/lib/db/client.ts";
import { json, route } from "@/lib/http/route.ts";
import { listFleetMigrations } from "@/lib/server/list-migrations.ts";

export const GET = route({ need: "read" }, async ({ request }) =>
  json(await listFleetMigrations(db(), new URL(request.url).searchParams, Date.now())),
);
