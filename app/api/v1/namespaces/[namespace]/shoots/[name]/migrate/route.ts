import { shootWrites } from "@/lib/garden/garden.ts";
import { json, readJsonBody, route } from "@/lib/http/route.ts";
import { startShootMigration } from "@/lib/server/start-migration.ts";

export const POST = route<{ namespace: string; name: string }>(
  { need: "administer", project: "namespace" },
  async ({ request, actor, requestId, identity }, { namespace, name }) => {
    const body = await readJsonBody(request);
    const answer = await startShootMigration(shootWrites(), {
      namespace,
      name,
      body,
      actor,
      requestId,
      identity,
      now: Date.now(),
    });
    return json(answer, { status: 202 });
  },
);
