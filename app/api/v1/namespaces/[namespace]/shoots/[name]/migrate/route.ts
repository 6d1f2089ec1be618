import { shootWrites } from "@/lib/garden/garden.ts";
import { migrateShoot } from "@/lib/api/operations/migrations.ts";
import { json, route } from "@/lib/http/route.ts";
import { startShootMigration } from "@/lib/server/start-migration.ts";

export const POST = route(migrateShoot, async ({ params, body, actor, requestId, identity }) => {
  const answer = await startShootMigration(shootWrites(), {
    ...params,
    body,
    actor,
    requestId,
    identity,
    now: Date.now(),
  });
  return json(answer, { status: 202 });
});
