// The notifications API over HTTP, against the production build, a real PostgreSQL, the delivery
// worker running in this process on the same database, and a real receiver on loopback
// (ALMANAC_WEBHOOK_ALLOW_PRIVATE=true): POST 201 with an id and no secret; the test answers 202
// and the receiver gets a POST whose X-Almanac-Signature is the HMAC of its raw body (the web
// process woke the worker through the queue); the deliveries list shows it with its attempt.
import { createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DeliveryListAnswer, NotificationSubscriptionJson } from "../../lib/api/notifications.ts";
import { type PgBoss, startQueue } from "../../lib/jobs/queue.ts";
import { webhookChannel, type WebhookChannel } from "../../lib/server/notification-webhook.ts";
import { type RunningNotificationWorker, startNotificationWorker } from "../../lib/server/notification-worker.ts";
import { seedLandscape } from "../../lib/server/seed-landscape.ts";
import { call } from "../support/api-client.ts";
import { type AppServer, startNext } from "../support/app-server.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { smallLandscape } from "../support/small-landscape.ts";
import { tokenHeader } from "../support/tokens.ts";
import { type Receiver, startReceiver } from "../support/webhook-receiver.ts";

const SECRET = "http-contract-secret";
let database: TestDatabase;
let server: AppServer;
let boss: PgBoss;
let channel: WebhookChannel;
let worker: RunningNotificationWorker;
let receiver: Receiver;

beforeAll(async () => {
  database = await createTestDatabase();
  await seedLandscape(database.db, smallLandscape(Date.now(), 2), { actor: "test", now: Date.now() });
  server = await startNext(database.url, { ALMANAC_WEBHOOK_ALLOW_PRIVATE: "true" });
  boss = await startQueue(database.url, { expireSeconds: 10, supervise: false });
  channel = webhookChannel({ allowPrivate: true, timeoutMs: 5_000 });
  // A long sweep: the delivery below comes from the web process's wake-up, not the sweep.
  worker = await startNotificationWorker(database.db, boss, {
    channels: [channel],
    sweepMs: 600_000,
    pollSeconds: 0.5,
  });
  receiver = await startReceiver();
}, 300_000);

afterAll(async () => {
  await worker?.stop();
  await channel?.close();
  await boss?.stop({ graceful: false });
  await receiver?.close();
  await server?.stop();
  await database?.drop();
});

const post = <T>(path: string, body: unknown, headers: Record<string, string> = {}) =>
  call<T>(server.baseUrl, path, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });

describe("/api/v1/webhooks", () => {
  it("makes a webhook (201, id, no secret), sends a signed test (202) and lists the delivery", async () => {
    const made = await post<NotificationSubscriptionJson>("/api/v1/webhooks", {
      url: receiver.url,
      secret: SECRET,
      events: ["forced-update", "maintenance-failed"],
      project: "dev",
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(made.body).toMatchObject({ hasSecret: true, project: "dev", days: [7, 1] });
    expect(JSON.stringify(made.body)).not.toContain(SECRET);
    const got = await call(server.baseUrl, `/api/v1/webhooks/${made.body.id}`);
    expect(JSON.stringify(got.body)).not.toContain(SECRET);

    const arrived = receiver.next();
    const test = await post<{ deliveryId: string }>(`/api/v1/webhooks/${made.body.id}/test`, {});
    expect(test.status, JSON.stringify(test.body)).toBe(202);
    const hit = await arrived;
    expect(hit.headers["x-almanac-signature"]).toBe(
      `sha256=${createHmac("sha256", SECRET).update(hit.raw).digest("hex")}`,
    );
    expect(hit.json).toMatchObject({ id: test.body.deliveryId, type: "test" });

    let list: DeliveryListAnswer | undefined;
    for (let i = 0; i < 100; i++) {
      list = (await call<DeliveryListAnswer>(server.baseUrl, `/api/v1/webhooks/${made.body.id}/deliveries`)).body;
      if (list.items[0]?.state === "Delivered") break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(list!.items[0]).toMatchObject({
      id: test.body.deliveryId,
      type: "test",
      state: "Delivered",
      attempts: 1,
      lastStatus: 200,
      history: [{ status: 200, response: "ok" }],
    });
  });

  it("answers 422 naming the field, and a project viewer cannot make a landscape-wide one", async () => {
    const bad = await post<{ errors: { field: string }[] }>("/api/v1/webhooks", {
      url: "ftp://example.com",
      secret: SECRET,
      events: ["nope"],
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e) => e.field).sort()).toEqual(["events[0]", "url"]);
    const viewer = await tokenHeader(database.db, "dev-viewer", "viewer", "dev");
    const wide = await post("/api/v1/webhooks", { url: receiver.url, secret: SECRET, events: ["stuck"] }, viewer);
    expect(wide.status).toBe(403);
    const own = await post<NotificationSubscriptionJson>(
      "/api/v1/webhooks",
      { url: receiver.url, secret: SECRET, events: ["stuck"], project: "dev" },
      viewer,
    );
    expect(own.status).toBe(201);
    const seen = await call<{ items: NotificationSubscriptionJson[] }>(server.baseUrl, "/api/v1/webhooks", {
      headers: viewer,
    });
    expect(seen.body.items.every((s) => s.project === "dev")).toBe(true);
  });

  it("takes a PATCH as a JSON merge patch or as plain JSON, and refuses another media type (415)", async () => {
    const made = await post<NotificationSubscriptionJson>("/api/v1/webhooks", {
      url: receiver.url,
      secret: SECRET,
      events: ["stuck"],
      project: "dev",
    });
    const patch = (contentType: string, body: unknown) =>
      call<NotificationSubscriptionJson>(server.baseUrl, `/api/v1/webhooks/${made.body.id}`, {
        method: "PATCH",
        headers: { "content-type": contentType },
        body: JSON.stringify(body),
      });
    const merged = await patch("application/merge-patch+json", { name: "by merge patch" });
    expect(merged.status, JSON.stringify(merged.body)).toBe(200);
    expect(merged.body.name).toBe("by merge patch");
    const plain = await patch("application/json", { name: "by plain JSON" });
    expect(plain.status).toBe(200);
    expect(plain.body.name).toBe("by plain JSON");
    expect((await patch("text/plain", { name: "no" })).status).toBe(415);

    const mail = await post<NotificationSubscriptionJson>("/api/v1/email-subscriptions", {
      to: "ops@example.com",
      events: ["stuck"],
      project: "dev",
    });
    const changed = await call<NotificationSubscriptionJson>(
      server.baseUrl,
      `/api/v1/email-subscriptions/${mail.body.id}`,
      {
        method: "PATCH",
        headers: { "content-type": "application/merge-patch+json" },
        body: JSON.stringify({ digest: "daily" }),
      },
    );
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.digest).toBe("daily");
  });
});
