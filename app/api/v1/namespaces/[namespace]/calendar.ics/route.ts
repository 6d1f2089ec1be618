import { db } from "@/lib/db/client.ts";
import { getNamespaceCalendar } from "@/lib/api/operations/calendars.ts";
import { download } from "@/lib/http/download.ts";
import { route } from "@/lib/http/route.ts";
import { namespaceCalendar, pageLinks } from "@/lib/server/maintenance-calendar.ts";

// The maintenance windows and forced updates of the next 30 days of every shoot in the project's
// namespace, as iCalendar.
export const GET = route(getNamespaceCalendar, async ({ request, params }) => {
  const calendar = await namespaceCalendar(db(), params.namespace, Date.now(), pageLinks(request.url));
  return download(calendar.text, { filename: calendar.filename, contentType: "text/calendar; charset=utf-8" });
});
