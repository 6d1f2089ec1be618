import { db } from "@/lib/db/client.ts";
import { deleteFreeze as deleteFreezeOp } from "@/lib/api/operations/freezes.ts";
import { route } from "@/lib/http/route.ts";
import { deleteFreeze } from "@/lib/server/delete-freeze.ts";

export const DELETE = route(deleteFreezeOp, async ({ params, principal, actor, requestId }) => {
  await deleteFreeze(db(), { id: params.id, principal, actor, requestId });
  return new Response(null, { status: 204 });
});
