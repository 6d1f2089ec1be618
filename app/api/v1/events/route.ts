import { databaseUrl, db } from "@/lib/db/client.ts";
import { revision } from "@/lib/db/change-feed.ts";
import { route } from "@/lib/http/route.ts";
import { changeStream } from "@/lib/server/change-stream.ts";
import { readableNamespaces } from "@/lib/server/readable-namespaces.ts";

// A role on any project may follow the stream: it then names only that project's shoots.
export const GET = route({ need: "read", project: "any" }, async ({ request, principal }) => {
  revision(databaseUrl()); // start listening to the database's change notifications
  const namespaces = await readableNamespaces(db(), principal);
  const visible = namespaces === "all" ? undefined : (c: { namespace?: string }) => namespaces.has(c.namespace ?? "");
  return new Response(changeStream(request.signal, visible), {
    headers: {
      "content-type": "text/event-stream",
      "cache-control": "no-cache, no-transform",
      connection: "keep-alive",
      "x-accel-buffering": "no",
    },
  });
});
