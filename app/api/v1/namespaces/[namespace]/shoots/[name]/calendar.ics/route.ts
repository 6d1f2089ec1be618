import { db } from "@/lib/db/client.ts";
import { getShootCalendar } from "@/lib/api/operations/calendars.ts";
import { download } from "@/lib/http/download.ts";
import { route } from "@/lib/http/route.ts";
import { shootCalendar, pageLinks } from "@/lib/server/maintenance-calendar.ts";

// The shoot's maintenance windows and forced updates of the next 30 days, as iCalendar.
export const GET = route(getShootCalendar, async ({ request, params }) => {
  const calendar = await shootCalendar(db(), params.namespace, params.name, Date.now(), pageLinks(request.url));
  return download(calendar.text, { filename: calendar.filename, contentType: "text/calendar; charset=utf-8" });
});
