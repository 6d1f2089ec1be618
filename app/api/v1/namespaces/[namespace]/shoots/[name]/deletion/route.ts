import { db } from "@/lib/db/client.ts";
import { json, route } from "@/lib/http/route.ts";
import { shootDeletion } from "@/lib/server/delete-shoot.ts";

export const GET = route<{ namespace: string; name: string }>(
  { need: "read", project: "namespace" },
  async (_ctx, { namespace, name }) => json(await shootDeletion(db(), namespace, name)),
);
