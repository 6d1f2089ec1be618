import { db } from "@/lib/db/client.ts";
import { json, route } from "@/lib/http/route.ts";
import { parseHistoryParams, shootHistory } from "@/lib/server/shoot-history.ts";

export const GET = route<{ namespace: string; name: string }>(
  { need: "read", project: "namespace" },
  async ({ request }, { namespace, name }) => {
    const limit = parseHistoryParams(new URL(request.url).searchParams);
    return json(await shootHistory(db(), namespace, name, limit));
  },
);
