// A live garden's nodes. The garden itself reports the pools (the mirrored shoot's spec) and how
// their roll stands (lastOperation, EveryNodeReady, inPlaceUpdates), but not the nodes: those live
// inside the shoot, behind its own API server. Almanac's identity never reads there. When the
// person asks (?through=viewer-kubeconfig), Almanac requests shoots/viewerkubeconfig from the
// garden as that person (the same identity machinery as changes: garden-caller.ts), so the
// garden's RBAC decides and its 403 is passed on; with the short-lived, read-only kubeconfig it
// reads the nodes and what their critical components wait for, then lets it go. The kubeconfig is
// never stored, cached, logged or answered: it lives in this request only.
import type { KubeConfig } from "@kubernetes/client-node";
import type { Db } from "../../db/client.ts";
import type { Shoot } from "../../gardener/types.ts";
import { findShoot } from "../../store/shoots.ts";
import type { GardenIdentityMode } from "../garden-config.ts";
import type { ShootNodes } from "../shoot-nodes.ts";
import { gardenShoots } from "./garden-api.ts";
import { gardenCaller } from "./garden-caller.ts";
import { gardenRefusal } from "./garden-refusal.ts";
import { gardenRollWords, poolsAsTheGardenReports } from "./garden-pools.ts";
import { readShootInside } from "./shoot-api-server.ts";
import { poolsWithNodes, shootNodeItems } from "./shoot-node-items.ts";
import {
  UnusableViewerKubeconfig,
  VIEWER_KUBECONFIG_SECONDS,
  viewerAccess,
  type ViewerAccessOptions,
} from "./viewer-kubeconfig.ts";

const WHY_NO_NODES =
  "The nodes live inside the shoot, behind its own API server, which Almanac's identity does not read. " +
  "Almanac reads them only when you ask, with a short-lived read-only kubeconfig it requests from the garden as you " +
  `(shoots/viewerkubeconfig, valid ${VIEWER_KUBECONFIG_SECONDS / 60} minutes), uses for that one request and never stores.`;

/** The answer's note without nodes: what the garden says, and why the nodes are not shown. */
function gardenNote(shoot: Shoot): string {
  const words = gardenRollWords(shoot);
  return `${words ? `The garden reports: ${words}. ` : ""}${WHY_NO_NODES}`;
}

/**
 * `viewer`: how the issued kubeconfig is taken; only the tests' wiring passes `insecureForTests`
 * (their stand-in shoot API server speaks plain HTTP).
 */
export function kubernetesShootNodes(
  db: Db,
  kubeConfig: KubeConfig,
  identity: GardenIdentityMode,
  viewer: ViewerAccessOptions = {},
): ShootNodes {
  return {
    async readNodes(actor, key, request) {
      const stored = await findShoot(db, key.namespace, key.name);
      if (!stored) return { ok: false, refusal: { code: "NotFound" } };
      const { shoot } = stored;
      const pools = poolsAsTheGardenReports(shoot);
      const observedAt = new Date(request.now).toISOString();
      if (!request.throughViewerKubeconfig)
        return { ok: true, value: { source: "garden", items: [], pools, note: gardenNote(shoot), observedAt } };

      if (actor.identity.kind === "almanac")
        return {
          ok: false,
          refusal: {
            code: "NoGardenIdentity",
            message:
              "the admin token acts as Almanac's own identity, which may not request viewer kubeconfigs; " +
              "a person reads the nodes as themselves.",
          },
        };
      const who = await gardenCaller(db, identity, actor.identity, request.now, "read-nodes");
      if ("refusal" in who) return { ok: false, refusal: who.refusal };

      let encoded: string | undefined;
      try {
        const answer = await gardenShoots(kubeConfig, who.caller).viewerKubeconfig(key, VIEWER_KUBECONFIG_SECONDS);
        encoded = answer.status?.kubeconfig;
      } catch (error) {
        const refusal = gardenRefusal(error, {
          verb: "create",
          resource: "shoots/viewerkubeconfig",
          yours: String(stored.resourceVersion),
          current: stored.resourceVersion,
          ownCredentials: who.caller.kind === "bearer",
        });
        if (refusal) return { ok: false, refusal };
        throw error;
      }
      let access;
      try {
        access = viewerAccess(encoded, viewer);
      } catch (error) {
        if (!(error instanceof UnusableViewerKubeconfig)) throw error;
        return {
          ok: false,
          refusal: {
            code: "GardenUnavailable",
            message: `(the garden answered a viewer kubeconfig for ${key.namespace}/${key.name} that Almanac will not use: ${error.message})`,
          },
        };
      }
      const read = await readShootInside(access);
      if ("refusal" in read) return { ok: false, refusal: read.refusal };
      const items = shootNodeItems(read.inside, pools);
      return {
        ok: true,
        value: { source: "shoot", items, pools: poolsWithNodes(pools, items, read.inside), observedAt },
      };
    },
  };
}
