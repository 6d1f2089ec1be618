// The garden this Almanac runs on, as the write port its use cases call: the simulated garden in
// Postgres by default, or a live Gardener landscape through its API when configured
// (garden-config.ts). Use cases never ask which.
import { db } from "../db/client.ts";
import { queueClient } from "../jobs/queue-client.ts";
import { embeddedShootWrites } from "./embedded/embedded-shoot-writes.ts";
import { gardenConfig } from "./garden-config.ts";
import { kubernetesShootWrites } from "./kubernetes/kubernetes-shoot-writes.ts";
import type { ShootWrites } from "./shoot-writes.ts";

const holder = globalThis as { almanacShootWrites?: ShootWrites };

export function shootWrites(): ShootWrites {
  if (!holder.almanacShootWrites) {
    const garden = gardenConfig();
    holder.almanacShootWrites =
      garden.kind === "live"
        ? kubernetesShootWrites(db(), garden.kubeConfig, garden.identity)
        : embeddedShootWrites(db(), queueClient);
  }
  return holder.almanacShootWrites;
}
