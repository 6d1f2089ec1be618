import { databaseUrl, db } from "@/lib/db/client.ts";
import { gardenAccess } from "@/lib/garden/garden.ts";
import { revision } from "@/lib/db/change-feed.ts";
import { EXPORT_MEDIA_TYPES } from "@/lib/api/export.ts";
import { exportForecast as exportForecastOp } from "@/lib/api/operations/forecast.ts";
import { download, textStream } from "@/lib/http/download.ts";
import { route } from "@/lib/http/route.ts";
import { exportForecast } from "@/lib/server/export-forecast.ts";
import { fleetScope } from "@/lib/server/fleet-scope.ts";

// The forecast's forced updates with the page's filters, as CSV or JSON; the same scope as
// GET /api/v1/forecast.
export const GET = route(exportForecastOp, async ({ query, principal, requestId }) => {
  const scope = await fleetScope(db(), principal, gardenAccess());
  const file = await exportForecast(db(), query, scope, revision(databaseUrl()), Date.now());
  return download(textStream(file.pieces, `[${requestId}] forecast export`), {
    filename: file.filename,
    contentType: EXPORT_MEDIA_TYPES[file.format],
  });
});
