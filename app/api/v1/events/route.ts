import { databaseUrl, db } from "@/lib/db/client.ts";
import { revision } from "@/lib/db/change-feed.ts";
import { gardenAccess } from "@/lib/garden/garden.ts";
import { followEvents } from "@/lib/api/operations/events.ts";
import { route } from "@/lib/http/route.ts";
import { changeStream } from "@/lib/server/change-stream.ts";
import { followReadableNamespaces } from "@/lib/auth/readable-namespaces.ts";

// A role on any project may follow the stream: it then names only the shoots the caller may read
// (their projects', and on a live garden those its RBAC lets them list, asked again as it expires).
export const GET = route(followEvents, async ({ request, query, principal }) => {
  revision(databaseUrl()); // start listening to the database's change notifications
  const readable = await followReadableNamespaces(db(), principal, gardenAccess(), request.signal);
  return new Response(
    changeStream(request.signal, (c: { namespace?: string }) => readable(c.namespace ?? ""), query.since),
    {
      headers: {
        "content-type": "text/event-stream",
        "cache-control": "no-cache, no-transform",
        connection: "keep-alive",
        "x-accel-buffering": "no",
      },
    },
  );
});
