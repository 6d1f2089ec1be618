import { db } from "@/lib/db/client.ts";
import { gardenAccess } from "@/lib/garden/garden.ts";
import { EXPORT_MEDIA_TYPES } from "@/lib/api/export.ts";
import { exportAudit as exportAuditOp } from "@/lib/api/operations/audit.ts";
import { download, textStream } from "@/lib/http/download.ts";
import { route } from "@/lib/http/route.ts";
import { exportAudit } from "@/lib/server/export-audit.ts";
import { fleetScope } from "@/lib/server/fleet-scope.ts";

// Every event the log's filters select, as CSV or JSON; the same scope as GET /api/v1/audit.
export const GET = route(exportAuditOp, async ({ query, principal, requestId }) => {
  const scope = await fleetScope(db(), principal, gardenAccess());
  const file = await exportAudit(db(), query, scope, Date.now());
  return download(textStream(file.pieces, `[${requestId}] audit export`), {
    filename: file.filename,
    contentType: EXPORT_MEDIA_TYPES[file.format],
  });
});
