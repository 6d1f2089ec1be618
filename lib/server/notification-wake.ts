// Waking the notification worker when deliveries are due now (new events, a test): a job on the
// notifications queue, so a worker in another process starts at once instead of at its next sweep.
// The worker process registers its own queue (startNotificationWorker); a web process uses its
// queue client. Waking is best effort: the sweep finds what a lost wake-up missed.
import { config } from "../config/load-config.ts";
import { queueClient } from "../jobs/queue-client.ts";
import { type PgBoss, QUEUES } from "../jobs/queue.ts";
import { logger } from "../observability/logger.ts";
import { redactSecrets } from "../engine/redact-secrets.ts";

const holder = globalThis as { almanacNotificationBoss?: PgBoss };

/** The queue this process wakes the worker through (the worker's own; undefined: the queue client). */
export function setNotificationQueue(boss: PgBoss | undefined): void {
  holder.almanacNotificationBoss = boss;
}

export async function wakeNotificationWorker(): Promise<void> {
  try {
    const boss = holder.almanacNotificationBoss ?? (config().data.databaseUrl ? await queueClient() : undefined);
    await boss?.send(QUEUES.notifications, {});
  } catch (error) {
    logger().warn(
      `Waking the notification worker failed (its sweep delivers instead): ${redactSecrets(error instanceof Error ? error.message : String(error))}`,
    );
  }
}
