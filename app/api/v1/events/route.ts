import { databaseUrl } from "@/lib/db/client.ts";
import { revision } from "@/lib/db/change-feed.ts";
import { route } from "@/lib/http/route.ts";
import { changeStream } from "@/lib/server/change-stream.ts";

export const GET = route({ need: "read" }, async ({ request }) => {
  revision(databaseUrl()); // start listening to the database's change notifications
  return new Response(changeStream(request.signal), {
    headers: {
      "content-type": "text/event-stream",
      "cache-control": "no-cache, no-transform",
      connection: "keep-alive",
      "x-accel-buffering": "no",
    },
  });
});
