// "Change a shoot" in a live garden, written once: read the shoot and its cloud profile from the
// mirror, let the engine decide (as the simulated garden does), send the change to the garden as
// the person who asks, then write the garden's answer into the mirror at once, with the audit
// event and what the change records (a migration, a deletion), in one transaction. So the caller
// reads their own write; the watch event that follows finds the row up to date. No row lock is
// held while the garden is asked: the garden's resourceVersion precondition is the lock.
import type { KubeConfig } from "@kubernetes/client-node";
import { noteLocalChange } from "../../db/change-feed.ts";
import type { Db, Tx } from "../../db/client.ts";
import type { FieldChange } from "../../engine/shoot-patch.ts";
import type { Shoot } from "../../gardener/types.ts";
import { recordAuditEvent } from "../../store/audit.ts";
import { mirrorShoot, unmirrorShoot } from "../../store/garden-mirror.ts";
import { recordObserved } from "./mirror-writes.ts";
import type { StoredShoot } from "../../store/shoots.ts";
import type { GardenIdentityMode } from "../garden-config.ts";
import { shootForChange, type ShootForChange } from "../shoot-change-rules.ts";
import type { Actor, ShootKey, ShootRefusal, Written } from "../shoot-writes.ts";
import { type GardenShoots, gardenShoots } from "./garden-api.ts";
import { gardenCaller } from "./garden-caller.ts";
import { gardenRefusal } from "./garden-refusal.ts";

export interface MirroredShoot extends ShootForChange {
  /** The garden's resourceVersion of the mirrored shoot: every request's precondition. */
  readonly gardenResourceVersion: string;
}

export interface GardenRequestPlan {
  /** Kubernetes' verb and resource, to word the garden's 403. */
  readonly verb: "patch" | "delete";
  readonly resource: "shoots" | "shoots/binding";
  /** The caller's resourceVersion, to word the garden's 409 (default: the row's). */
  readonly yours?: string;
  /** The request; answers the shoot as the garden stored it, or undefined when it is gone. */
  readonly call: (garden: GardenShoots) => Promise<Shoot | undefined>;
}

export type GardenDecision<T> =
  | { readonly refusal: ShootRefusal }
  | {
      readonly refusal?: undefined;
      /** What to ask of the garden; absent when nothing is to be asked. */
      readonly send?: GardenRequestPlan;
      /** The audit event, given the garden's answer. */
      readonly audit?: (answer: Shoot | undefined) => {
        readonly action: string;
        readonly changes: readonly FieldChange[];
      };
      /** What the change records beside the shoot, in the mirror's transaction. */
      readonly record?: (tx: Tx, answer: Shoot | undefined) => Promise<void>;
      /** The answer, given the row after the change (the row as it was when the shoot is gone). */
      readonly answer: (row: StoredShoot) => T;
    };

/** The garden and how a person's changes reach it. */
export interface GardenConnection {
  readonly kubeConfig: KubeConfig;
  readonly identity: GardenIdentityMode;
}

export async function changeGardenShoot<T>(
  db: Db,
  garden: GardenConnection,
  actor: Actor,
  key: ShootKey,
  now: number,
  decide: (shoot: MirroredShoot) => GardenDecision<T> | Promise<GardenDecision<T>>,
  options: { evenWhileDeleting?: boolean } = {},
): Promise<Written<T>> {
  const found = await shootForChange(db, key, options);
  if (found.refusal) return { ok: false, refusal: found.refusal };
  const gardenResourceVersion = found.stored.gardenResourceVersion;
  if (gardenResourceVersion === undefined)
    throw new Error(`Shoot ${key.namespace}/${key.name} is not mirrored from the garden (no garden resourceVersion).`);
  const decision = await decide({ ...found, gardenResourceVersion });
  if (decision.refusal) return { ok: false, refusal: decision.refusal };
  if (!decision.send) return { ok: true, value: decision.answer(found.stored) };

  const { send } = decision;
  const who = await gardenCaller(db, garden.identity, actor.identity, now);
  if ("refusal" in who) return { ok: false, refusal: who.refusal };
  let answer: Shoot | undefined;
  try {
    answer = await send.call(gardenShoots(garden.kubeConfig, who.caller));
  } catch (error) {
    const refusal = gardenRefusal(error, {
      verb: send.verb,
      resource: send.resource,
      yours: send.yours ?? String(found.stored.resourceVersion),
      current: found.stored.resourceVersion,
      ownCredentials: who.caller.kind === "bearer",
    });
    if (!refusal) throw error;
    if (refusal.code !== "Stale") return { ok: false, refusal };
    // The garden's shoot moved on and the watch has not brought it yet: mirror it now, so that the
    // caller who reads again (the pages re-check their edit on a 409) sees what the garden has.
    const current = await refreshMirror(db, garden.kubeConfig, key, found, now);
    return { ok: false, refusal: { ...refusal, current: current ?? refusal.current } };
  }

  const outcome = await db.$transaction(async (tx) => {
    let row = found.stored;
    let changed = true;
    if (answer) {
      // Only the row that was read: a watch that meanwhile removed or replaced it has the last word.
      const mirrored = await mirrorShoot(tx, answer, found.profile, now, { onlyExisting: true });
      row = mirrored.stored;
      changed = mirrored.changed;
    } else {
      await unmirrorShoot(tx, key.namespace, key.name, found.stored.shoot.metadata.uid);
    }
    const audit = decision.audit?.(answer);
    if (audit)
      await recordAuditEvent(tx, {
        actor: actor.name,
        action: audit.action,
        requestId: actor.requestId,
        target: { kind: "Shoot", namespace: key.namespace, name: key.name },
        changes: audit.changes,
      });
    await decision.record?.(tx, answer);
    return { value: decision.answer(row), changed };
  });
  // This process's caches learn of the change at once, before the notification comes round.
  if (outcome.changed) noteLocalChange({ kind: "Shoot", ...key });
  return { ok: true, value: outcome.value };
}

/** Reads the shoot from the garden as Almanac and mirrors it; its resourceVersion in the mirror, if that worked. */
async function refreshMirror(
  db: Db,
  kubeConfig: KubeConfig,
  key: ShootKey,
  found: ShootForChange,
  now: number,
): Promise<number | undefined> {
  try {
    const shoot = await gardenShoots(kubeConfig, { kind: "almanac" }).get(key);
    // What the garden did meanwhile (Gardener's maintenance, say) is history, as when the watch brings it.
    const mirrored = await db.$transaction(async (tx) => {
      const written = await mirrorShoot(tx, shoot, found.profile, now, { onlyExisting: true });
      if (written.previous) await recordObserved(tx, written.previous, shoot, now);
      return written;
    });
    if (mirrored.changed) noteLocalChange({ kind: "Shoot", ...key });
    return mirrored.stored.resourceVersion;
  } catch {
    return undefined; // the watch brings it
  }
}
