// Readiness: 200 once the database is migrated and seeded, 503 (with what is missing, in fixed
// words; the reason goes to the server log) before.
import { db } from "@/lib/db/client.ts";
import { readiness } from "@/lib/server/readiness.ts";

export async function GET() {
  // db() throws when DATABASE_URL is missing: the check counts that as an unreachable database.
  const result = await readiness(db);
  return Response.json(
    { status: result.ready ? "ready" : "not ready", checks: result.checks },
    {
      status: result.ready ? 200 : 503,
      headers: { "Cache-Control": "no-store" },
    },
  );
}
