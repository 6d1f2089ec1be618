import { db } from "@/lib/db/client.ts";
import {
  createEmailSubscription as createOp,
  listEmailSubscriptions as listOp,
} from "@/lib/api/operations/notifications.ts";
import { json, route } from "@/lib/http/route.ts";
import { createEmailSubscription, listSubscriptions } from "@/lib/server/notification-subscriptions.ts";

// Read on some project lets one in; which subscriptions, and on what, is the use case's to say.
export const GET = route(listOp, async ({ principal }) => json(await listSubscriptions(db(), "email", principal)));

export const POST = route(createOp, async ({ body, principal, actor, requestId }) =>
  json(await createEmailSubscription(db(), body, { principal, actor, requestId }, new Date()), { status: 201 }),
);
