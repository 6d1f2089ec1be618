// The notification delivery worker (issue 30): claims due deliveries grouped per subscription,
// hands each group to its channel, and keeps every attempt with its outcome: Delivered, Pending
// again after a backoff, or Failed once ALMANAC_NOTIFY_MAX_ATTEMPTS are spent. The state is all in
// the database (a claim whose process died is claimed again once its claimed_until passes); a
// pg-boss job wakes the worker when something is due now, and a sweep finds retries and
// whatever a lost wake-up missed. Each process runs a few lanes, each claiming one subscription
// at a time: a receiver that hangs holds one lane for its time limit, never the others.
import type { Db } from "../db/client.ts";
import { config } from "../config/load-config.ts";
import { redactSecrets } from "../engine/redact-secrets.ts";
import { type PgBoss, QUEUES } from "../jobs/queue.ts";
import { logger } from "../observability/logger.ts";
import { holdSubscription } from "../store/notification-backoff.ts";
import { claimDueDeliveries, type DeliveryResult, storeDeliveryResults } from "../store/notifications.ts";
import type { ClaimedDelivery, DeliveryOutcome, NotificationChannel } from "./notification-channel.ts";
import { setNotificationQueue } from "./notification-wake.ts";

/** The waits after the 1st, 2nd, … failed attempt; the last repeats. */
export const RETRY_DELAYS_MS: readonly number[] = [30_000, 120_000, 600_000, 3_600_000, 7_200_000];

/** How long to wait after `attempts` failed attempts before the next. */
export const retryDelayMs = (attempts: number): number =>
  RETRY_DELAYS_MS[Math.min(Math.max(attempts, 1), RETRY_DELAYS_MS.length) - 1];

export interface DeliveryPassOptions {
  /** ALMANAC_NOTIFY_MAX_ATTEMPTS. */
  readonly maxAttempts: number;
  /** How many subscriptions one pass claims (their groups are sent at the same time). */
  readonly subscriptions: number;
  /** How many deliveries of one subscription one pass claims. */
  readonly perSubscription: number;
  /**
   * How many deliveries of a daily e-mail digest one pass claims: all that wait, so that one
   * digest is one mail (a digest of thousands is still one mail; past this bound, two).
   */
  readonly perDigest: number;
  /** How long a webhook claim holds: after it, another process may claim the deliveries again. */
  readonly claimMs: number;
  /** How long an e-mail claim holds (EMAIL_CLAIM_MS). */
  readonly emailClaimMs: number;
}

/**
 * An e-mail claim must outlast the mail channel's batch: its mails are sent one after the other
 * for up to 120 s (notification-mail.ts' budget), and the one under way when that runs out may
 * take the SMTP socket's time (at most 90 s) more. A claim that ran out first would let another
 * process send the same mails again; this leaves a margin to store the outcomes.
 */
export const EMAIL_CLAIM_MS = 300_000;

/** A daily digest's deliveries claimed at once (all that wait, in any landscape we expect). */
export const DIGEST_CLAIM_LIMIT = 5_000;

export function defaultPassOptions(): DeliveryPassOptions {
  const { maxAttempts, webhookTimeoutMs } = config().notifications;
  const perSubscription = 20;
  return {
    maxAttempts,
    subscriptions: 8,
    perSubscription,
    perDigest: DIGEST_CLAIM_LIMIT,
    // Long enough for a whole group to time out one by one, and a margin to store the outcomes.
    claimMs: perSubscription * webhookTimeoutMs + 60_000,
    emailClaimMs: EMAIL_CLAIM_MS,
  };
}

export interface DeliveryPass {
  readonly claimed: number;
  readonly delivered: number;
  /** Failed attempts that will be tried again. */
  readonly retrying: number;
  /** Given up. */
  readonly failed: number;
  /** Put off by the channel without an attempt (a digest). */
  readonly deferred: number;
}

const NOTHING: DeliveryPass = { claimed: 0, delivered: 0, retrying: 0, failed: 0, deferred: 0 };

const text = (error: unknown) => redactSecrets(error instanceof Error ? error.message : String(error));

function resultOf(
  delivery: ClaimedDelivery,
  outcome: DeliveryOutcome | undefined,
  at: Date,
  sharedMs: number,
  maxAttempts: number,
): DeliveryResult {
  if (outcome && "deferUntil" in outcome) return { kind: "defer", id: delivery.id, until: outcome.deferUntil };
  const got: DeliveryOutcome = outcome ?? { ok: false, error: "the channel said nothing of it", retry: true };
  const base = {
    kind: "attempt" as const,
    id: delivery.id,
    at,
    durationMs: Math.max(0, Math.round(got.durationMs ?? sharedMs)),
    status: got.status ?? null,
    response: got.response ?? null,
  };
  if (got.ok) return { ...base, error: null, state: "Delivered", nextAttemptAt: at };
  const givesUp = !got.retry || delivery.attempt >= maxAttempts;
  return {
    ...base,
    error: got.error,
    state: givesUp ? "Failed" : "Pending",
    nextAttemptAt: givesUp ? at : new Date(at.getTime() + retryDelayMs(delivery.attempt)),
  };
}

/**
 * One pass: claims what is due at `now` for the given channels, sends each subscription's group
 * through its channel (the groups at the same time) and stores the outcomes. Tests and the mail
 * channel call it directly with a chosen `now`.
 */
export async function deliverDueNotifications(
  db: Db,
  channels: readonly NotificationChannel[],
  now: Date = new Date(),
  options: Partial<DeliveryPassOptions> = {},
): Promise<DeliveryPass> {
  const o = { ...defaultPassOptions(), ...options };
  const byName = new Map(channels.map((c) => [c.channel as string, c]));
  const claimed = await claimDueDeliveries(db, {
    now,
    claimedUntil: new Date(now.getTime() + o.claimMs),
    claimedUntilByChannel: { email: new Date(now.getTime() + Math.max(o.claimMs, o.emailClaimMs)) },
    channels: [...byName.keys()],
    subscriptions: o.subscriptions,
    perSubscription: o.perSubscription,
    perDigest: o.perDigest,
  });
  if (claimed.length === 0) return NOTHING;
  const groups = new Map<string, ClaimedDelivery[]>();
  for (const row of claimed) {
    const group = groups.get(row.subscription.id) ?? [];
    group.push({
      id: row.id,
      attempt: row.attempts + 1,
      createdAt: row.createdAt,
      subscription: row.subscription,
      event: row.event,
    });
    groups.set(row.subscription.id, group);
  }
  const results = (
    await Promise.all(
      [...groups.values()].map(async (batch) => {
        const channel = byName.get(batch[0].subscription.channel)!;
        const started = performance.now();
        let outcomes: ReadonlyMap<string, DeliveryOutcome>;
        try {
          outcomes = await channel.deliver(batch, now);
        } catch (error) {
          const failure: DeliveryOutcome = { ok: false, error: `the channel failed: ${text(error)}`, retry: true };
          outcomes = new Map(batch.map((d) => [d.id, failure]));
        }
        const sharedMs = (performance.now() - started) / batch.length;
        const batchResults = batch.map((d) => resultOf(d, outcomes.get(d.id), now, sharedMs, o.maxAttempts));
        // A receiver that failed: the subscription's other deliveries wait until the batch's latest
        // moment, its failed delivery's retry or the rest of the batch put off, so that none goes
        // out ahead of those (a delivery that gave up has no retry, but put its batch off all the
        // same). Before the outcomes are stored, while this claim keeps other processes off it.
        const failed = batchResults.some((r) => r.kind === "attempt" && r.state !== "Delivered");
        const later = batchResults.flatMap((r) =>
          r.kind === "defer" ? [r.until.getTime()] : r.state === "Pending" ? [r.nextAttemptAt.getTime()] : [],
        );
        if (!failed || later.length === 0) return batchResults;
        await holdSubscription(db, batch[0].subscription.id, new Date(Math.max(...later)));
        // The batch's own retries all at the latest of them (not at a moment put off to, such as
        // tomorrow's digest): deliveries of one failed digest mail that had been tried different
        // numbers of times would otherwise come due apart, as several mails.
        const retries = batchResults.flatMap((r) =>
          r.kind === "attempt" && r.state === "Pending" ? [r.nextAttemptAt.getTime()] : [],
        );
        if (retries.length < 2) return batchResults;
        const retryAt = new Date(Math.max(...retries));
        return batchResults.map((r) =>
          r.kind === "attempt" && r.state === "Pending" ? { ...r, nextAttemptAt: retryAt } : r,
        );
      }),
    )
  ).flat();
  // Each outcome is stored under its own claim (e-mail and webhook claims hold for different times).
  const claimOf = new Map(claimed.map((c) => [c.id, c.claimedUntil.getTime()]));
  const byClaim = Map.groupBy(results, (r) => claimOf.get(r.id)!);
  const stored = new Set<string>();
  for (const [until, part] of byClaim)
    for (const id of await storeDeliveryResults(db, new Date(until), part)) stored.add(id);
  const counted = results.filter((r) => stored.has(r.id));
  const lost = results.length - counted.length;
  if (lost > 0)
    logger().warn(
      `${lost} notification deliveries were claimed again by another process before their outcome was stored`,
    );
  return {
    claimed: claimed.length,
    delivered: counted.filter((r) => r.kind === "attempt" && r.state === "Delivered").length,
    retrying: counted.filter((r) => r.kind === "attempt" && r.state === "Pending").length,
    failed: counted.filter((r) => r.kind === "attempt" && r.state === "Failed").length,
    deferred: counted.filter((r) => r.kind === "defer").length,
  };
}

export interface NotificationWorkerOptions {
  readonly channels: readonly NotificationChannel[];
  /** How many subscriptions this process sends to at once (lanes). */
  readonly concurrency?: number;
  /** How often the sweep looks for retries and what a lost wake-up missed. */
  readonly sweepMs?: number;
  readonly pollSeconds?: number;
  readonly pass?: Partial<DeliveryPassOptions>;
}

export interface RunningNotificationWorker {
  /** Stops claiming; resolves when the lanes have stored what they sent. */
  stop(): Promise<void>;
}

/**
 * Runs the delivery worker in this process: the notifications queue's wake-ups and a sweep start
 * lanes, each of which claims one subscription's due deliveries at a time until none is left.
 */
export async function startNotificationWorker(
  db: Db,
  boss: PgBoss,
  options: NotificationWorkerOptions,
): Promise<RunningNotificationWorker> {
  const concurrency = options.concurrency ?? 8;
  const lanes = new Set<Promise<void>>();
  let stopped = false;
  let again = false;

  const lane = async () => {
    while (!stopped) {
      let pass: DeliveryPass;
      try {
        pass = await deliverDueNotifications(db, options.channels, new Date(), { ...options.pass, subscriptions: 1 });
      } catch (error) {
        logger().error(`Delivering notifications failed (the sweep tries again): ${text(error)}`);
        return;
      }
      if (pass.claimed === 0) {
        if (!again) return;
        again = false;
      }
    }
  };
  // Starts lanes up to the bound; lanes already running look once more before they stop, so a
  // wake-up that comes while all are busy is not lost.
  const kick = () => {
    if (stopped) return;
    again = true;
    while (lanes.size < concurrency) {
      const running: Promise<void> = lane().finally(() => lanes.delete(running));
      lanes.add(running);
    }
  };

  setNotificationQueue(boss);
  await boss.work(QUEUES.notifications, { pollingIntervalSeconds: options.pollSeconds ?? 1 }, async () => {
    kick();
  });
  const sweep = setInterval(kick, options.sweepMs ?? 5_000);
  sweep.unref();
  kick();
  return {
    stop: async () => {
      stopped = true;
      clearInterval(sweep);
      setNotificationQueue(undefined);
      await boss.offWork(QUEUES.notifications).catch(() => {});
      await Promise.allSettled([...lanes]);
    },
  };
}
