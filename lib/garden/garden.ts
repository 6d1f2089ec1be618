// The garden this Almanac runs on, as the ports its use cases call: changing a shoot (the write
// port) and what a person may read (the read access): the simulated garden in Postgres by
// default, or a live Gardener landscape through its API. Both are chosen once per process, by
// configuration (garden-config.ts); use cases never ask which.
import { db } from "../db/client.ts";
import { queueClient } from "../jobs/queue-client.ts";
import { embeddedGardenAccess } from "./embedded/embedded-garden-access.ts";
import { embeddedShootWrites } from "./embedded/embedded-shoot-writes.ts";
import type { GardenAccess } from "../auth/garden-access.ts";
import { gardenConfig } from "./garden-config.ts";
import { gardenSignInCheck, type SignInCheck } from "./kubernetes/garden-sign-in.ts";
import { kubernetesGardenAccess } from "./kubernetes/kubernetes-garden-access.ts";
import { kubernetesShootWrites } from "./kubernetes/kubernetes-shoot-writes.ts";
import type { ShootWrites } from "./shoot-writes.ts";
import type { ShootNodes } from "./shoot-nodes.ts";
import { embeddedShootNodes } from "./embedded/embedded-shoot-nodes.ts";
import { kubernetesShootNodes } from "./kubernetes/kubernetes-shoot-nodes.ts";

const holder = globalThis as {
  almanacShootWrites?: ShootWrites;
  almanacShootNodes?: ShootNodes;
  almanacGardenAccess?: GardenAccess;
  almanacGardenSignIn?: () => Promise<SignInCheck>;
};

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

/** Where a shoot's worker nodes are read: the simulated garden's own, or inside a live garden's shoot. */
export function shootNodes(): ShootNodes {
  if (!holder.almanacShootNodes) {
    const garden = gardenConfig();
    holder.almanacShootNodes =
      garden.kind === "live"
        ? kubernetesShootNodes(db(), garden.kubeConfig, garden.identity)
        : embeddedShootNodes(db());
  }
  return holder.almanacShootNodes;
}

/**
 * What a person may read: the simulated garden leaves it to Almanac's roles (everything, at
 * once); a live garden asks its RBAC with access reviews.
 */
export function gardenAccess(): GardenAccess {
  if (!holder.almanacGardenAccess) {
    const config = gardenConfig();
    holder.almanacGardenAccess =
      config.kind === "live" ? kubernetesGardenAccess(config.kubeConfig) : embeddedGardenAccess;
  }
  return holder.almanacGardenAccess;
}

/**
 * Whether Almanac can sign in to its live garden (its token file, the garden's last answer to it),
 * for readiness; undefined for the simulated garden.
 */
export function gardenSignIn(): (() => Promise<SignInCheck>) | undefined {
  const config = gardenConfig();
  if (config.kind !== "live") return undefined;
  holder.almanacGardenSignIn ??= gardenSignInCheck(config.kubeConfig, config.source);
  return holder.almanacGardenSignIn;
}
