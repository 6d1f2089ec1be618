import { db } from "@/lib/db/client.ts";
import { gardenAccess } from "@/lib/garden/garden.ts";
import { EXPORT_MEDIA_TYPES } from "@/lib/api/export.ts";
import { exportShoots as exportShootsOp } from "@/lib/api/operations/shoots.ts";
import { download, textStream } from "@/lib/http/download.ts";
import { route } from "@/lib/http/route.ts";
import { exportShoots } from "@/lib/server/export-shoots.ts";
import { fleetScope } from "@/lib/server/fleet-scope.ts";

// Every shoot the list's filters select, as CSV or JSON; the same scope as GET /api/v1/shoots.
export const GET = route(exportShootsOp, async ({ query, principal, requestId }) => {
  const scope = await fleetScope(db(), principal, gardenAccess());
  const file = await exportShoots(db(), query, scope, Date.now());
  return download(textStream(file.pieces, `[${requestId}] shoots export`), {
    filename: file.filename,
    contentType: EXPORT_MEDIA_TYPES[file.format],
  });
});
