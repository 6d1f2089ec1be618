import { db } from "@/lib/db/client.ts";
import { getShootMigration } from "@/lib/api/operations/migrations.ts";
import { json, route } from "@/lib/http/route.ts";
import { shootMigration } from "@/lib/server/start-migration.ts";

export const GET = route(getShootMigration, async ({ params }) =>
  json(await shootMigration(db(), params.namespace, params.name, Date.now())),
);
