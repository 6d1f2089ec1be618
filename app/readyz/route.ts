// Readiness: 200 once the database is migrated and seeded, 503 (with what is missing) before.
import { db } from "@/lib/db/client.ts";
import { readiness } from "@/lib/server/readiness.ts";

export async function GET() {
  const result = await readiness(db());
  return Response.json({ status: result.ready ? "ready" : "not ready", checks: result.checks }, {
    status: result.ready ? 200 : 503,
    headers: { "Cache-Control": "no-store" },
  });
}
