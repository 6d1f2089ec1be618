// Readiness: 200 once the database is migrated and seeded, 503 (with what is missing) before.
import { databaseUrl, db } from "@/lib/db/client.ts";
import { readiness } from "@/lib/server/readiness.ts";

export async function GET() {
  let result;
  try {
    databaseUrl();
    result = await readiness(db());
  } catch (error) {
    result = { ready: false, checks: { database: { ok: false, detail: (error as Error).message } } };
  }
  return Response.json(
    { status: result.ready ? "ready" : "not ready", checks: result.checks },
    {
      status: result.ready ? 200 : 503,
      headers: { "Cache-Control": "no-store" },
    },
  );
}
