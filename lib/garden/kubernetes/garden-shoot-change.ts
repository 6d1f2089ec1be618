// "Change a shoot" in a live garden, written once: read the shoot and its cloud profile from the
// mirror, let the engine decide (as the simulated garden does), write the intent (what is asked,
// its audit changes, its record) before the garden is asked, send the change as the person who
// asks, then write the outcome: the audit event and the record (a migration, a deletion) in a
// short transaction that touches no shoot row (retried with backoff: a mirror transaction holding
// the row cannot make an accepted write fail), and only then mirror the garden's answer, best
// effort (the watch brings it anyway), so the caller reads their own write. An accepted write is
// never answered as failed; if the outcome cannot be written at all, the intent keeps it, and a
// later pass (write-intents.ts) writes it, or audits "outcome unknown" when nobody saw the answer.
// No row lock is held while the garden is asked: the garden's resourceVersion precondition is the lock.
import type { KubeConfig } from "@kubernetes/client-node";
import { ApiException } from "@kubernetes/client-node";
import { noteLocalChange } from "../../db/change-feed.ts";
import type { Db } from "../../db/client.ts";
import type { FieldChange } from "../../engine/shoot-patch.ts";
import type { Shoot } from "../../gardener/types.ts";
import { gardenWriteOutcome } from "../../observability/garden-writes.ts";
import { logger } from "../../observability/logger.ts";
import { mirrorShoot, unmirrorShoot } from "../../store/garden-mirror.ts";
import {
  type IntendedRecord,
  insertWriteIntent,
  markIntentAccepted,
  markIntentRefused,
  recordAcceptedIntent,
} from "../../store/garden-write-intents.ts";
import { recordObserved } from "./mirror-writes.ts";
import type { StoredShoot } from "../../store/shoots.ts";
import type { GardenIdentityMode } from "../garden-config.ts";
import { shootForChange, type ShootForChange } from "../shoot-change-rules.ts";
import type { Actor, ShootKey, ShootRefusal, Written } from "../shoot-writes.ts";
import { type GardenShoots, gardenShoots } from "./garden-api.ts";
import { gardenCaller } from "./garden-caller.ts";
import { gardenRefusal, neverSent } from "./garden-refusal.ts";
import { briefTransaction, retrying } from "./outcome-retries.ts";
import { resolveWriteIntentsSometimes } from "./write-intents.ts";

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
  /** The seed a binding names, to word the garden's refusal of it. */
  readonly destination?: string;
  /** The request; answers the shoot as the garden stored it, or undefined when it is gone. */
  readonly call: (garden: GardenShoots) => Promise<Shoot | undefined>;
}

export type GardenDecision<T> =
  | { readonly refusal: ShootRefusal }
  | {
      readonly refusal?: undefined;
      /** What to ask of the garden; absent when nothing is to be asked. */
      readonly send?: GardenRequestPlan;
      /**
       * The audit event, given the garden's answer (the intent holds it as planned: given the
       * shoot as it was).
       */
      readonly audit: (answer: Shoot | undefined) => {
        readonly action: string;
        readonly changes: readonly FieldChange[];
      };
      /** What the change records beside its audit event, given the garden's answer. */
      readonly record?: (answer: Shoot | undefined) => IntendedRecord;
      /**
       * The answer, given the row after the change (the row as it was when the shoot is gone) and
       * the record's id.
       */
      readonly answer: (row: StoredShoot, recordId: string | undefined) => T;
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
  resolveWriteIntentsSometimes(db, now);
  const found = await shootForChange(db, key, options);
  if (found.refusal) return { ok: false, refusal: found.refusal };
  const gardenResourceVersion = found.stored.gardenResourceVersion;
  if (gardenResourceVersion === undefined)
    throw new Error(`Shoot ${key.namespace}/${key.name} is not mirrored from the garden (no garden resourceVersion).`);
  const decision = await decide({ ...found, gardenResourceVersion });
  if (decision.refusal) return { ok: false, refusal: decision.refusal };
  if (!decision.send) return { ok: true, value: decision.answer(found.stored, undefined) };

  const { send } = decision;
  const who = await gardenCaller(db, garden.identity, actor.identity, now);
  if ("refusal" in who) return { ok: false, refusal: who.refusal };
  // Before the garden is asked: if even this cannot be written, nothing has happened yet.
  const planned = decision.audit(found.shoot);
  const intent = await insertWriteIntent(db, {
    actor: actor.name,
    requestId: actor.requestId,
    action: planned.action,
    ...key,
    uid: found.shoot.metadata.uid,
    changes: planned.changes,
    ...(decision.record ? { record: decision.record(found.shoot) } : {}),
  });
  let answer: Shoot | undefined;
  try {
    answer = await send.call(gardenShoots(garden.kubeConfig, who.caller));
  } catch (error) {
    // The garden answered no, or was never reached. A request that got no answer from the garden
    // itself (a timeout, a reset, a gateway's 502/503/504) may have been applied: its intent stays
    // pending, for a later pass to tell from the mirror.
    const answeredNo = error instanceof ApiException && ![502, 503, 504].includes(error.code);
    if (answeredNo || neverSent(error)) {
      gardenWriteOutcome("refused");
      await markIntentRefused(db, intent.id).catch((e: unknown) => warn(`refused write ${intent.id}`, e));
    } else gardenWriteOutcome("pending");
    const refusal = gardenRefusal(error, {
      verb: send.verb,
      resource: send.resource,
      yours: send.yours ?? String(found.stored.resourceVersion),
      current: found.stored.resourceVersion,
      ownCredentials: who.caller.kind === "bearer",
      ...(send.destination !== undefined ? { destination: send.destination } : {}),
    });
    if (!refusal) throw error;
    if (refusal.code !== "Stale") return { ok: false, refusal };
    // The garden's shoot moved on and the watch has not brought it yet: mirror it now, so that the
    // caller who reads again (the pages re-check their edit on a 409) sees what the garden has.
    const current = await refreshMirror(db, garden.kubeConfig, key, found, now);
    return { ok: false, refusal: { ...refusal, current: current ?? refusal.current } };
  }

  // The garden accepted: from here on, nothing may turn that into an error for the caller.
  await recordOutcome(db, intent.id, {
    changes: decision.audit(answer).changes,
    ...(decision.record ? { record: decision.record(answer) } : {}),
  });
  const mirrored = await mirrorAnswer(db, key, found, answer, now);
  // This process's caches learn of the change at once, before the notification comes round.
  if (mirrored.changed) noteLocalChange({ kind: "Shoot", ...key });
  return { ok: true, value: decision.answer(mirrored.row, intent.recordId) };
}

const warn = (what: string, error: unknown) =>
  logger().warn(`Almanac could not write the ${what}: ${error instanceof Error ? error.message : String(error)}`);

/**
 * The audit event and the record of an accepted write, retried; when they cannot be written, the
 * outcome is kept in the intent (accepted), for a later pass to write.
 */
async function recordOutcome(
  db: Db,
  intentId: string,
  outcome: { readonly changes: readonly FieldChange[]; readonly record?: IntendedRecord },
): Promise<void> {
  try {
    await retrying(() => briefTransaction(db, (tx) => recordAcceptedIntent(tx, intentId, outcome)));
    gardenWriteOutcome("recorded");
  } catch (error) {
    gardenWriteOutcome("deferred");
    warn(`outcome of accepted write ${intentId} (kept as its intent, for a later pass)`, error);
    await retrying(() => markIntentAccepted(db, intentId, outcome)).catch((e: unknown) =>
      warn(`acceptance of write ${intentId} (its intent stays pending: a later pass decides)`, e),
    );
  }
}

/**
 * The garden's answer into the mirror (only the row that was read: a watch that meanwhile removed
 * or replaced it has the last word), once, without waiting long for a row the mirror holds. When
 * that fails the watch brings it; the caller is answered the garden's shoot under the row's
 * resourceVersion as it was, so an edit based on it is checked against the garden again.
 */
async function mirrorAnswer(
  db: Db,
  key: ShootKey,
  found: ShootForChange,
  answer: Shoot | undefined,
  now: number,
): Promise<{ readonly row: StoredShoot; readonly changed: boolean }> {
  try {
    return await briefTransaction(db, async (tx) => {
      if (!answer) {
        await unmirrorShoot(tx, key.namespace, key.name, found.stored.shoot.metadata.uid);
        return { row: found.stored, changed: true };
      }
      const mirrored = await mirrorShoot(tx, answer, found.profile, now, { onlyExisting: true });
      return { row: mirrored.stored, changed: mirrored.changed };
    });
  } catch (error) {
    warn(`garden's answer for ${key.namespace}/${key.name} into the mirror (the watch brings it)`, error);
    const resourceVersion = String(found.stored.resourceVersion);
    const shoot = answer ? { ...answer, metadata: { ...answer.metadata, resourceVersion } } : found.stored.shoot;
    return { row: { ...found.stored, shoot }, changed: false };
  }
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
