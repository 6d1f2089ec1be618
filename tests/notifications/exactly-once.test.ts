// Exactly once across processes: two real child processes run the delivery claim loop against
// the same database at the same time; N events × M subscriptions reach the receivers each exactly
// once (counted by delivery id at the receivers), and every delivery ends Delivered with one attempt.
import { spawn } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { recordNotificationEvents } from "../../lib/server/notification-events.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { type Receiver, startReceiver } from "../support/webhook-receiver.ts";

const EVENTS = 40;
const SUBSCRIPTIONS = 4;
const child = path.resolve(import.meta.dirname, "../support/notification-claim-child.ts");
let t: TestDatabase;
const receivers: Receiver[] = [];

beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  await t?.drop();
});

function run(url: string): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [child], {
      env: { ...process.env, DATABASE_URL: url },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    p.stdout.on("data", (d) => (out += d));
    p.on("exit", (code) => resolve({ code, out }));
  });
}

it("two worker processes deliver every event to every subscription exactly once", async () => {
  for (let i = 0; i < SUBSCRIPTIONS; i++) {
    const r = await startReceiver();
    receivers.push(r);
    await t.db.notificationSubscription.create({
      data: {
        channel: "webhook",
        url: r.url,
        secret: "exactly-once-secret",
        kinds: ["maintenance-failed"],
        createdBy: "test",
        createdAt: new Date(Date.now() - 3_600_000),
      },
    });
  }
  await recordNotificationEvents(
    t.db,
    Array.from({ length: EVENTS }, (_, i) => ({
      kind: "maintenance-failed" as const,
      key: `maintenance-failed:run-${i}`,
      occurredAt: new Date(),
      projects: ["dev"],
      summary: `run ${i} failed`,
      data: { i },
    })),
    new Date(),
  );
  const [a, b] = await Promise.all([run(t.url), run(t.url)]);
  expect([a.code, b.code]).toEqual([0, 0]);
  const byA = (JSON.parse(a.out.trim()) as { delivered: number }).delivered;
  const byB = (JSON.parse(b.out.trim()) as { delivered: number }).delivered;
  expect(byA + byB).toBe(EVENTS * SUBSCRIPTIONS);

  const ids = receivers.flatMap((r) => r.received.map((x) => x.json.id as string));
  expect(ids).toHaveLength(EVENTS * SUBSCRIPTIONS);
  expect(new Set(ids).size).toBe(EVENTS * SUBSCRIPTIONS);
  for (const r of receivers) expect(new Set(r.received.map((x) => x.json.eventId)).size).toBe(EVENTS);
  const rows = await t.db.notificationDelivery.findMany();
  expect(rows).toHaveLength(EVENTS * SUBSCRIPTIONS);
  expect(rows.every((d) => d.state === "Delivered" && d.attempts === 1)).toBe(true);
  expect(await t.db.notificationAttempt.count()).toBe(EVENTS * SUBSCRIPTIONS);
}, 120_000);
