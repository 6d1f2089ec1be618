import { db } from "@/lib/db/client.ts";
import { json, route } from "@/lib/http/route.ts";
import { listAudit, parseAuditParams } from "@/lib/server/list-audit.ts";

export const GET = route({ need: "read" }, async ({ request }) => {
  const params = parseAuditParams(new URL(request.url).searchParams);
  return json(await listAudit(db(), params));
});
