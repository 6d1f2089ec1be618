// A child process for the exactly-once test: runs the delivery claim loop against DATABASE_URL
// with a webhook channel (private targets allowed: the receivers are on loopback) until nothing
// is left to deliver, then exits. Several run at once on one database.
import { createDb } from "../../lib/db/client.ts";
import { webhookChannel } from "../../lib/server/notification-webhook.ts";
import { deliverDueNotifications } from "../../lib/server/notification-worker.ts";

const db = createDb(process.env.DATABASE_URL!, 4);
const channel = webhookChannel({ allowPrivate: true, timeoutMs: 10_000 });
let delivered = 0;
for (;;) {
  const pass = await deliverDueNotifications(db, [channel], new Date(), {
    subscriptions: 2,
    perSubscription: 3,
    maxAttempts: 3,
  });
  delivered += pass.delivered;
  if (pass.claimed > 0) continue;
  const left = await db.notificationDelivery.count({ where: { state: { in: ["Pending", "Sending"] } } });
  if (left === 0) break;
  await new Promise((resolve) => setTimeout(resolve, 50));
}
process.stdout.write(`${JSON.stringify({ delivered })}\n`);
await channel.close();
await db.$disconnect();
