// Recording notification events (recordNotificationEvents) on a real PostgreSQL: each key once
// (in one call and across calls), one delivery per subscription that wants the event (kind,
// threshold, scope, and time: transition events only to subscriptions that existed, condition
// events while they are relevant), thousands of events in one call, and the thresholds the
// producers ask subscribedDays for.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  recordNotificationEvents,
  subscribedDays,
  type NewNotificationEvent,
} from "../../lib/server/notification-events.ts";
import { fanOutConditionEvents } from "../../lib/store/notifications.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";

const NOW = new Date("2026-11-28T01:00:00Z");
const HOUR = 3_600_000;

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(() => t?.drop());
beforeEach(async () => {
  await t.db.$executeRawUnsafe("TRUNCATE notification_subscriptions, notification_events CASCADE");
});

async function subscribe(fields: {
  kinds: string[];
  days?: number[];
  project?: string;
  shoot?: { namespace: string; name: string };
  enabled?: boolean;
  createdAt?: Date;
}): Promise<string> {
  const row = await t.db.notificationSubscription.create({
    data: {
      channel: "webhook",
      url: "http://127.0.0.1:9/hook",
      secret: "0123456789abcdef",
      kinds: fields.kinds,
      ...(fields.days ? { days: fields.days } : {}),
      project: fields.project ?? null,
      shootNamespace: fields.shoot?.namespace ?? null,
      shootName: fields.shoot?.name ?? null,
      enabled: fields.enabled ?? true,
      createdBy: "test",
      createdAt: fields.createdAt ?? new Date(NOW.getTime() - 24 * HOUR),
    },
  });
  return row.id;
}

const failed = (run: string, projects: string[], occurredAt = NOW): NewNotificationEvent => ({
  kind: "maintenance-failed",
  key: `maintenance-failed:${run}`,
  occurredAt,
  projects,
  shoot: { namespace: `garden-${projects[0]}`, name: run },
  summary: `garden-${projects[0]}/${run}: maintenance failed`,
  data: { run },
});

const forced = (
  name: string,
  days: number,
  until = new Date(NOW.getTime() + days * 24 * HOUR),
): NewNotificationEvent => ({
  kind: "forced-update",
  key: `forced-update:garden-dev/${name}:kubernetes:-:1.31.4:${until.toISOString()}:${days}`,
  occurredAt: NOW,
  until,
  projects: ["dev"],
  shoot: { namespace: "garden-dev", name },
  days,
  summary: `garden-dev/${name}: forced update in ${days} days`,
  data: {},
});

async function deliveries(): Promise<{ subscription: string; key: string }[]> {
  const rows = await t.db.notificationDelivery.findMany({ include: { event: true } });
  return rows
    .map((r) => ({ subscription: r.subscriptionId, key: r.event.key }))
    .sort((a, b) => (a.subscription + a.key).localeCompare(b.subscription + b.key));
}

describe("recordNotificationEvents", () => {
  it("records each key once, in one call and across calls", async () => {
    const landscape = await subscribe({ kinds: ["maintenance-failed"] });
    const first = await recordNotificationEvents(
      t.db,
      [failed("a", ["dev"]), failed("a", ["dev"]), failed("b", ["dev"])],
      NOW,
    );
    expect(first.recorded).toBe(2);
    const again = await recordNotificationEvents(t.db, [failed("a", ["dev"]), failed("c", ["dev"])], NOW);
    expect(again.recorded).toBe(1);
    expect(await t.db.notificationEvent.count()).toBe(3);
    expect(await deliveries()).toEqual(
      ["a", "b", "c"].map((run) => ({ subscription: landscape, key: `maintenance-failed:${run}` })),
    );
    const states = await t.db.notificationDelivery.findMany();
    expect(states.every((d) => d.state === "Pending" && d.attempts === 0)).toBe(true);
  });

  it("fans out by kind, scope (landscape, project, shoot) and enabled", async () => {
    const landscape = await subscribe({ kinds: ["maintenance-failed", "stuck"] });
    const dev = await subscribe({ kinds: ["maintenance-failed"], project: "dev" });
    const oneShoot = await subscribe({
      kinds: ["maintenance-failed"],
      project: "dev",
      shoot: { namespace: "garden-dev", name: "a" },
    });
    await subscribe({ kinds: ["migration-failed"] }); // another kind
    await subscribe({ kinds: ["maintenance-failed"], enabled: false });
    await subscribe({ kinds: ["maintenance-failed"], project: "prod" });
    await recordNotificationEvents(t.db, [failed("a", ["dev"]), failed("b", ["dev"]), failed("c", ["ops"])], NOW);
    const got = await deliveries();
    expect(got.filter((d) => d.subscription === landscape).map((d) => d.key)).toEqual([
      "maintenance-failed:a",
      "maintenance-failed:b",
      "maintenance-failed:c",
    ]);
    expect(got.filter((d) => d.subscription === dev).map((d) => d.key)).toEqual([
      "maintenance-failed:a",
      "maintenance-failed:b",
    ]);
    expect(got.filter((d) => d.subscription === oneShoot).map((d) => d.key)).toEqual(["maintenance-failed:a"]);
    expect(got).toHaveLength(6);
  });

  it("an event about several projects reaches landscape subscriptions only (a project's readers may not read the others)", async () => {
    const landscape = await subscribe({ kinds: ["maintenance-failed"] });
    const dev = await subscribe({ kinds: ["maintenance-failed"], project: "dev" });
    await subscribe({ kinds: ["maintenance-failed"], project: "ops" });
    await recordNotificationEvents(t.db, [failed("run", ["dev", "ops"]), failed("one", ["dev"])], NOW);
    expect(await deliveries()).toEqual(
      [
        { subscription: landscape, key: "maintenance-failed:one" },
        { subscription: landscape, key: "maintenance-failed:run" },
        { subscription: dev, key: "maintenance-failed:one" },
      ].sort((a, b) => (a.subscription + a.key).localeCompare(b.subscription + b.key)),
    );
  });

  it("matches thresholds: an event with days goes to subscriptions that ask for that many days", async () => {
    const sevenAndOne = await subscribe({ kinds: ["forced-update"] }); // default {7,1}
    const fourteen = await subscribe({ kinds: ["forced-update"], days: [14] });
    await recordNotificationEvents(t.db, [forced("a", 7), forced("a", 1), forced("a", 14), forced("a", 3)], NOW);
    const got = await deliveries();
    expect(got.filter((d) => d.subscription === sevenAndOne).map((d) => d.key.split(":").at(-1))).toEqual(["1", "7"]);
    expect(got.filter((d) => d.subscription === fourteen).map((d) => d.key.split(":").at(-1))).toEqual(["14"]);
  });

  it("a transition event goes only to subscriptions that existed when it happened; a condition event while relevant", async () => {
    const before = await subscribe({
      kinds: ["maintenance-failed", "forced-update"],
      createdAt: new Date(NOW.getTime() - HOUR),
    });
    const after = await subscribe({
      kinds: ["maintenance-failed", "forced-update"],
      createdAt: new Date(NOW.getTime() + HOUR),
    });
    const later = new Date(NOW.getTime() + 2 * HOUR);
    await recordNotificationEvents(
      t.db,
      [failed("a", ["dev"]), forced("x", 7), forced("gone", 1, new Date(NOW.getTime() - HOUR))],
      later,
    );
    const got = await deliveries();
    expect(got.filter((d) => d.subscription === before).map((d) => d.key)).toEqual([
      expect.stringMatching(/^forced-update:garden-dev\/x:/),
      "maintenance-failed:a",
    ]);
    // Made after the failure: only the forced update still ahead.
    expect(got.filter((d) => d.subscription === after).map((d) => d.key)).toEqual([
      expect.stringMatching(/^forced-update:garden-dev\/x:/),
    ]);
  });

  it("a subscription made later gets the condition events still ahead (fanOutConditionEvents), never twice", async () => {
    await recordNotificationEvents(t.db, [forced("x", 7), forced("y", 1), failed("a", ["dev"])], NOW);
    expect(await t.db.notificationDelivery.count()).toBe(0);
    const late = await subscribe({ kinds: ["forced-update", "maintenance-failed"], days: [7], createdAt: NOW });
    expect(await fanOutConditionEvents(t.db, late, NOW)).toBe(1);
    expect(await fanOutConditionEvents(t.db, late, NOW)).toBe(0);
    expect((await deliveries()).map((d) => d.key)).toEqual([expect.stringMatching(/^forced-update:garden-dev\/x:/)]);
  });

  it("records thousands of events in one call", async () => {
    const landscape = await subscribe({ kinds: ["forced-update"], days: [7] });
    const many = Array.from({ length: 5000 }, (_, i) => forced(`shoot-${i}`, 7));
    expect((await recordNotificationEvents(t.db, many, NOW)).recorded).toBe(5000);
    expect(await t.db.notificationDelivery.count({ where: { subscriptionId: landscape } })).toBe(5000);
    expect((await recordNotificationEvents(t.db, many, NOW)).recorded).toBe(0);
    expect(await t.db.notificationDelivery.count()).toBe(5000);
  });

  it("works inside a transaction", async () => {
    await subscribe({ kinds: ["maintenance-failed"] });
    await t.db.$transaction((tx) => recordNotificationEvents(tx, [failed("tx", ["dev"])], NOW));
    expect(await t.db.notificationDelivery.count()).toBe(1);
  });
});

describe("subscribedDays", () => {
  it("answers the distinct thresholds enabled subscriptions ask for the kind", async () => {
    expect(await subscribedDays(t.db, "forced-update")).toEqual([]);
    await subscribe({ kinds: ["forced-update"] });
    await subscribe({ kinds: ["forced-update", "version-expiring"], days: [30, 7] });
    await subscribe({ kinds: ["forced-update"], days: [60], enabled: false });
    await subscribe({ kinds: ["version-expiring"], days: [14] });
    expect(await subscribedDays(t.db, "forced-update")).toEqual([1, 7, 30]);
    expect(await subscribedDays(t.db, "version-expiring")).toEqual([7, 14, 30]);
    expect(await subscribedDays(t.db, "stuck")).toEqual([]);
  });
});
