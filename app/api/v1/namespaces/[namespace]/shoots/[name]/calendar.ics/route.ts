import { db } from "@/lib/db/client.ts";
import { download } from "@/lib/http/download.ts";
import { route } from "@/lib/http/route.ts";
import { shootCalendar, pageLinks } from "@/lib/server/maintenance-calendar.ts";

// The shoot's maintenance windows and forced updates of the next 30 days, as iCalendar.
export const GET = route<{ namespace: string; name: string }>(
  { need: "read", project: "namespace" },
  async ({ request }, { namespace, name }) => {
    const calendar = await shootCalendar(db(), namespace, name, Date.now(), pageLinks(request.url));
    return download(calendar.text, { filename: calendar.filename, contentType: "text/calendar; charset=utf-8" });
  },
);
