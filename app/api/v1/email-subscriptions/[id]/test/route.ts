import { db } from "@/lib/db/client.ts";
import { testEmailSubscription as testOp } from "@/lib/api/operations/notifications.ts";
import { json, route } from "@/lib/http/route.ts";
import { sendTestNotification } from "@/lib/server/notification-subscriptions.ts";

export const POST = route(testOp, async ({ params, principal, actor, requestId }) =>
  json(await sendTestNotification(db(), "email", params.id, { principal, actor, requestId }, new Date()), {
    status: 202,
  }),
);
