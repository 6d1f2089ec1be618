// The garden this Almanac runs on, as the write port its use cases call. Today that is the
// simulated garden in Postgres; the live garden (a real Gardener landscape) plugs in here.
import { db } from "../db/client.ts";
import { queueClient } from "../jobs/queue-client.ts";
import { embeddedShootWrites } from "./embedded/embedded-shoot-writes.ts";
import type { ShootWrites } from "./shoot-writes.ts";

const holder = globalThis as { almanacShootWrites?: ShootWrites };

export function shootWrites(): ShootWrites {
  holder.almanacShootWrites ??= embeddedShootWrites(db(), queueClient);
  return holder.almanacShootWrites;
}
