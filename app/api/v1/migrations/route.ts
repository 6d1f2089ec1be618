import { db } from "@/lib/db/client.ts";
import { gardenAccess } from "@/lib/garden/garden.ts";
import { listMigrations } from "@/lib/api/operations/migrations.ts";
import { json, route } from "@/lib/http/route.ts";
import { fleetScope } from "@/lib/server/fleet-scope.ts";
import { listFleetMigrations } from "@/lib/server/list-migrations.ts";

// A role on any project may list: the answer holds only the migrations of the caller's projects.
export const GET = route(listMigrations, async ({ query, principal }) =>
  json(await listFleetMigrations(db(), query, await fleetScope(db(), principal, gardenAccess()), Date.now())),
);
