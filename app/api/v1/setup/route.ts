// POST /api/v1/setup: the first admin, from the setup link's token. Public by nature (nobody can
// sign in yet); the one-time token is the credential.
import { db } from "@/lib/db/client.ts";
import { json, publicRoute, readJsonBody } from "@/lib/http/route.ts";
import { createFirstAdmin } from "@/lib/server/first-admin.ts";

export const POST = publicRoute(async ({ request }) => {
  const answer = await createFirstAdmin(db(), await readJsonBody(request), Date.now());
  return json(answer, { status: 201 });
});
