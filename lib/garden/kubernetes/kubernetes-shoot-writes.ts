// A live garden's side of the write port: each change is judged by the engine first, exactly as
// the simulated garden judges it (lib/garden/shoot-change-rules.ts; the simulated garden's own
// webhooks are not consulted: the real garden's answer for themselves), then sent to Gardener's
// API as the person who asks, the way Gardener's users make it: a merge patch of the named fields
// (a JSON patch when worker pools are named), the gardener.cloud/operation annotation, the
// shoots/binding subresource, DELETE. Gardener does the work that follows; the mirror shows it.
import { type KubeConfig, PatchStrategy } from "@kubernetes/client-node";
import type { Db } from "../../db/client.ts";
import { ANNOTATION_OPERATION } from "../../engine/operation-annotations.ts";
import { observedDeletionEnd } from "../../engine/observed-endings.ts";
import { findInventory } from "../../store/inventories.ts";
import { findProjectByNamespace } from "../../store/projects.ts";
import type { StoredShoot } from "../../store/shoots.ts";
import type { GardenIdentityMode } from "../garden-config.ts";
import * as rules from "../shoot-change-rules.ts";
import { type Actor, gardenSubject, type Precondition, type ShootKey, type ShootWrites } from "../shoot-writes.ts";
import { changeGardenShoot, type GardenDecision, type MirroredShoot } from "./garden-shoot-change.ts";
import { shootGardenPatch } from "./shoot-garden-patch.ts";

const timestamp = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");

/** The caller's resourceVersion, for the words of a 409 the garden answers. */
function yoursOf(precondition: Precondition, current: number): string {
  if (precondition.exactly !== undefined) return String(precondition.exactly);
  if (precondition.anyOf) return precondition.anyOf.join(" or ") || "(weak tags only)";
  return String(current);
}

/** `identity`: how a person's changes reach the garden (garden-config.ts: ALMANAC_GARDEN_IDENTITY). */
export function kubernetesShootWrites(db: Db, kubeConfig: KubeConfig, identity: GardenIdentityMode): ShootWrites {
  const garden = { kubeConfig, identity };
  const change = <T>(
    actor: Actor,
    key: ShootKey,
    now: number,
    decide: (shoot: MirroredShoot) => GardenDecision<T> | Promise<GardenDecision<T>>,
    options?: { evenWhileDeleting?: boolean },
  ) => changeGardenShoot(db, garden, actor, key, now, decide, options);
  return {
    async patchShoot(actor, key, patch, precondition, now) {
      return change(actor, key, now, async ({ stored, shoot, profile, gardenResourceVersion }) => {
        const stale = rules.staleRefusal(precondition, stored.resourceVersion);
        if (stale) return { refusal: stale };
        const judged = await rules.judgePatch(shoot, patch, profile, rules.seedsOf(db), now);
        if (judged.refusal) return judged;
        const audit = () => ({ action: "shoot.update", changes: judged.changes });
        if (judged.changes.length === 0) return { audit, answer: (row) => row.shoot }; // nothing to send
        return {
          send: {
            verb: "patch",
            resource: "shoots",
            yours: yoursOf(precondition, stored.resourceVersion),
            call: (garden) => garden.patch(key, shootGardenPatch(shoot, patch, gardenResourceVersion)),
          },
          audit,
          answer: (row) => row.shoot,
        };
      });
    },

    async maintainNow(actor, key, now) {
      return change(actor, key, now, ({ shoot, profile, gardenResourceVersion }) => {
        const judged = rules.judgeMaintainNow(shoot);
        if (judged.refusal) return judged;
        // What the run will do, as Gardener's maintenance controller would compute it now.
        const plan = rules.maintenancePlan(shoot, profile, now);
        const answer = (row: StoredShoot) => ({ queued: judged.queued, resourceVersion: row.resourceVersion, ...plan });
        const audit = () => ({ action: "shoot.maintain-now.request", changes: judged.changes });
        if (!judged.queued) return { audit, answer }; // already asked for: nothing more to send
        return {
          send: {
            verb: "patch",
            resource: "shoots",
            call: (garden) =>
              garden.patch(key, {
                type: PatchStrategy.MergePatch,
                body: {
                  metadata: {
                    resourceVersion: gardenResourceVersion,
                    annotations: { [ANNOTATION_OPERATION]: "maintain" },
                  },
                },
              }),
          },
          audit,
          answer,
        };
      });
    },

    async migrateShoot(actor, key, destination, now) {
      return change(
        actor,
        key,
        now,
        async ({ shoot, profile, gardenResourceVersion }) => {
          const judged = await rules.judgeMigration(db, shoot, destination, profile, now);
          if (judged.refusal) return judged;
          const { flow, changes } = judged;
          return {
            send: {
              verb: "patch",
              resource: "shoots/binding",
              destination,
              call: (garden) =>
                garden.bind(key, {
                  metadata: { resourceVersion: gardenResourceVersion },
                  spec: { seedName: destination },
                }),
            },
            audit: () => ({ action: "shoot.migrate", changes }),
            // Gardener runs the flow; the mirror follows it from the shoot's lastOperation.
            record: () => ({ kind: "migration", flow }),
            answer: (_row, id) => ({ id: id ?? "", flow }),
          };
        },
        { evenWhileDeleting: true },
      );
    },

    async deleteShoot(actor, key, now) {
      return change(actor, key, now, async ({ shoot, gardenResourceVersion }) => {
        const inventory = await findInventory(db, key.namespace, key.name);
        // Gardener records the confirmer itself; the mirror shows it.
        const judged = rules.judgeDeletion(shoot, inventory?.resources ?? [], now, {
          project: await findProjectByNamespace(db, key.namespace),
          deleter: gardenSubject(actor, "live"),
        });
        if (judged.refusal) return judged;
        const { flow } = judged;
        return {
          send: {
            verb: "delete",
            resource: "shoots",
            // Only the shoot the engine judged (its confirmation included) is deleted.
            call: (garden) =>
              garden.remove(key, {
                preconditions: { uid: shoot.metadata.uid, resourceVersion: gardenResourceVersion },
              }),
          },
          audit: (answer) => ({
            action: "shoot.delete",
            changes: rules.deletionChanges(answer?.metadata.deletionTimestamp ?? timestamp(now)),
          }),
          // A garden that deleted the shoot at once (no finalizer left) answers without it.
          record: (answer) => ({ kind: "deletion", flow: answer ? flow : (observedDeletionEnd(flow, now) ?? flow) }),
          answer: (_row, id) => ({ id: id ?? "", flow }),
        };
      });
    },
  };
}
