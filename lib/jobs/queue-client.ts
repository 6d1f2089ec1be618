// The web processes' handle on the job queue: they only send jobs (in their transactions).
import { databaseUrl, serverDbTimeoutMs } from "../db/client.ts";
import { jobsConfig } from "./config.ts";
import { type PgBoss, startQueue } from "./queue.ts";

const holder = globalThis as { almanacQueue?: Promise<PgBoss> };

export function queueClient(): Promise<PgBoss> {
  holder.almanacQueue ??= startQueue(databaseUrl(), {
    expireSeconds: jobsConfig().jobExpireSeconds,
    supervise: false,
    timeoutMs: serverDbTimeoutMs(),
  }).catch((error) => {
    holder.almanacQueue = undefined;
    throw error;
  });
  return holder.almanacQueue;
}
