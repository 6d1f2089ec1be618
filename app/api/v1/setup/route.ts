// POST /api/v1/setup: the first admin, from the setup link's token. Public by nature (nobody can
// sign in yet); the one-time token is the credential.
import { db } from "@/lib/db/client.ts";
import { createFirstAdmin as createFirstAdminOp } from "@/lib/api/operations/upkeep.ts";
import { json, publicRoute } from "@/lib/http/route.ts";
import { createFirstAdmin } from "@/lib/server/first-admin.ts";

export const POST = publicRoute(createFirstAdminOp, async ({ body }) =>
  json(await createFirstAdmin(db(), body, Date.now()), { status: 201 }),
);
