// POST .../maintain: "maintain now". Sets gardener.cloud/operation=maintain (as Gardener's users
// do with kubectl annotate), through the garden's write port; the maintenance controller runs
// within seconds and removes the annotation. Asking again while a run is pending gives no second
// run. The answer says what the run will change, as it would run now.
import type { GardenIdentity } from "../auth/garden-identity.ts";
import type { MaintainNowAnswer } from "../api/maintain-now.ts";
import type { Actor, ShootWrites } from "../garden/shoot-writes.ts";
import { refusalError } from "./shoot-refusal.ts";

export interface MaintainNowRequest {
  readonly namespace: string;
  readonly name: string;
  readonly actor: string;
  readonly requestId: string;
  readonly identity: GardenIdentity;
  readonly now: number;
  /** A record of the caller's written with the change where the garden can (Actor.alongside). */
  readonly alongside?: Actor["alongside"];
}

export async function requestMaintainNow(garden: ShootWrites, req: MaintainNowRequest): Promise<MaintainNowAnswer> {
  const key = { namespace: req.namespace, name: req.name };
  const written = await garden.maintainNow(
    { name: req.actor, requestId: req.requestId, identity: req.identity, alongside: req.alongside },
    key,
    req.now,
  );
  if (!written.ok) throw refusalError(written.refusal, key, "maintain");
  const { queued, resourceVersion, changes, missingProfile, failureReason } = written.value;
  return {
    namespace: req.namespace,
    name: req.name,
    queued,
    message: queued
      ? `Maintenance of ${req.namespace}/${req.name} is asked for: the maintenance controller runs it within seconds.`
      : `Maintenance of ${req.namespace}/${req.name} was already queued; nothing more was queued.`,
    resourceVersion: String(resourceVersion),
    plan: {
      changes,
      summary:
        missingProfile !== undefined
          ? `The cloud profile "${missingProfile}" is missing, so the run will fail.`
          : failureReason !== undefined
            ? `The garden will reject the run's update, so it will fail: ${failureReason}`
            : changes.length === 0
              ? "Maintenance will change no versions."
              : changes.map((c) => c.description).join(" "),
    },
  };
}
