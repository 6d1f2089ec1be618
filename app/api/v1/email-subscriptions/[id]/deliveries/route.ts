import { db } from "@/lib/db/client.ts";
import { listEmailSubscriptionDeliveries as listOp } from "@/lib/api/operations/notifications.ts";
import { json, route } from "@/lib/http/route.ts";
import { listSubscriptionDeliveries } from "@/lib/server/notification-subscriptions.ts";

export const GET = route(listOp, async ({ params, query, principal }) =>
  json(await listSubscriptionDeliveries(db(), "email", params.id, principal, query)),
);
