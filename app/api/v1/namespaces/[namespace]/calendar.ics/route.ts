import { db } from "@/lib/db/client.ts";
import { download } from "@/lib/http/download.ts";
import { route } from "@/lib/http/route.ts";
import { namespaceCalendar, pageLinks } from "@/lib/server/maintenance-calendar.ts";

// The maintenance windows and forced updates of the next 30 days of every shoot in the project's
// namespace, as iCalendar.
export const GET = route<{ namespace: string }>(
  { need: "read", project: "namespace" },
  async ({ request }, { namespace }) => {
    const calendar = await namespaceCalendar(db(), namespace, Date.now(), pageLinks(request.url));
    return download(calendar.text, { filename: calendar.filename, contentType: "text/calendar; charset=utf-8" });
  },
);
