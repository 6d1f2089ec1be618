import { getOpenApiDocument } from "@/lib/api/operations/upkeep.ts";
import { route } from "@/lib/http/route.ts";
import { openApiDocumentText } from "@/lib/server/openapi-document.ts";

// Anyone signed in may read it: it holds no data, but like the rest of /api/v1 it answers only
// those who can call the API. It changes only with a new build, so clients may keep it.
export const GET = route(getOpenApiDocument, async ({ request }) => {
  const { text, etag } = openApiDocumentText();
  const headers = { etag, "cache-control": "private, max-age=300" };
  if (request.headers.get("if-none-match") === etag) return new Response(null, { status: 304, headers });
  return new Response(text, { headers: { ...headers, "content-type": "application/json" } });
});
