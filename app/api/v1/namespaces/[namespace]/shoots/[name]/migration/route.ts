import { db } from "@/lib/db/client.ts";
import { json, route } from "@/lib/http/route.ts";
import { shootMigration } from "@/lib/server/start-migration.ts";

export const GET = route<{ namespace: string; name: string }>(
  { need: "read", project: "namespace" },
  async (_ctx, { namespace, name }) => json(await shootMigration(db(), namespace, name, Date.now())),
);
