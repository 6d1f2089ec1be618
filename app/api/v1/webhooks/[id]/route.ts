import { db } from "@/lib/db/client.ts";
import {
  deleteWebhook as deleteOp,
  getWebhook as getOp,
  updateWebhook as updateOp,
} from "@/lib/api/operations/notifications.ts";
import { json, route } from "@/lib/http/route.ts";
import { deleteSubscription, getSubscription, updateSubscription } from "@/lib/server/notification-subscriptions.ts";

export const GET = route(getOp, async ({ params, principal }) =>
  json(await getSubscription(db(), "webhook", params.id, principal)),
);

export const PATCH = route(updateOp, async ({ params, body, principal, actor, requestId }) =>
  json(await updateSubscription(db(), "webhook", params.id, body, { principal, actor, requestId }, new Date())),
);

export const DELETE = route(deleteOp, async ({ params, principal, actor, requestId }) => {
  await deleteSubscription(db(), "webhook", params.id, { principal, actor, requestId });
  return new Response(null, { status: 204 });
});
