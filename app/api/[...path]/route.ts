// Any other path under /api answers with a problem document, not the HTML 404 page.
import { notFound } from "@/lib/api/refusal.ts";
import { route } from "@/lib/http/route.ts";

const unknown = route<{ path: string[] }>({ need: "read" }, async ({ request }) => {
  throw notFound(
    `There is no API at ${new URL(request.url).pathname} (${request.method}). The API lives under /api/v1.`,
  );
});

export { unknown as GET, unknown as POST, unknown as PUT, unknown as PATCH, unknown as DELETE };
