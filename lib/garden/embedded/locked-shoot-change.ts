// "Change a shoot" in the simulated garden, written once: in one transaction, lock the row, refuse
// an unknown or (unless asked otherwise) deleting shoot, read its cloud profile, let the caller
// decide, then write the shoot with its derived columns, its audit event, the follow-up jobs and
// the change notification. Either all of it commits or none of it.
import { noteLocalChange, notifyChange } from "../../db/change-feed.ts";
import type { Db, Tx } from "../../db/client.ts";
import type { FieldChange } from "../../engine/shoot-patch.ts";
import type { Shoot } from "../../gardener/types.ts";
import { recordAuditEvent } from "../../store/audit.ts";
import { type ShootColumns, shootColumns } from "../../store/shoot-columns.ts";
import { updateShoot } from "../../store/shoots.ts";
import { shootForChange, type ShootForChange } from "../shoot-change-rules.ts";
import type { Actor, ShootKey, ShootRefusal, Written } from "../shoot-writes.ts";

export interface LockedShoot extends ShootForChange {
  readonly tx: Tx;
}

/** What was written: the new resourceVersion and the derived columns. */
export interface ShootWritten {
  readonly resourceVersion: number;
  readonly columns: ShootColumns;
}

export type Decision<T> =
  | { readonly refusal: ShootRefusal }
  | {
      readonly refusal?: undefined;
      /** The shoot to write and its audit event; absent when nothing changes. */
      readonly write?: { readonly shoot: Shoot; readonly action: string; readonly changes: readonly FieldChange[] };
      /** Work the change sets going (jobs), in the same transaction. */
      readonly followUp?: (tx: Tx, written: ShootWritten | undefined) => Promise<void>;
      /** The answer, given the shoot's resourceVersion after the change. */
      readonly answer: (resourceVersion: number) => T;
    };

export interface LockOptions {
  /** Let the decision see a shoot that is being deleted (migration admission words it itself). */
  readonly evenWhileDeleting?: boolean;
}

export async function changeLockedShoot<T>(
  db: Db,
  actor: Actor,
  key: ShootKey,
  now: number,
  decide: (locked: LockedShoot) => Decision<T> | Promise<Decision<T>>,
  options: LockOptions = {},
): Promise<Written<T>> {
  const outcome = await db.$transaction(async (tx): Promise<{ written: Written<T>; changed: boolean }> => {
    const refused = (refusal: ShootRefusal) => ({ written: { ok: false as const, refusal }, changed: false });
    const found = await shootForChange(tx, key, { forUpdate: true, evenWhileDeleting: options.evenWhileDeleting });
    if (found.refusal) return refused(found.refusal);
    const { stored, profile } = found;
    const decision = await decide({ tx, stored, shoot: found.shoot, profile });
    if (decision.refusal) return refused(decision.refusal);

    let written: ShootWritten | undefined;
    if (decision.write) {
      const next = decision.write.shoot;
      const columns = shootColumns(next, profile, now, stored.resourceVersion + 1, stored.running);
      const resourceVersion = await updateShoot(tx, next, columns, stored.resourceVersion);
      // The row is locked, so this cannot happen; if it does, fail rather than write half.
      if (resourceVersion === undefined)
        throw new Error(`Shoot ${key.namespace}/${key.name} changed while it was locked.`);
      written = { resourceVersion, columns };
      await recordAuditEvent(tx, {
        actor: actor.name,
        action: decision.write.action,
        requestId: actor.requestId,
        target: { kind: "Shoot", namespace: key.namespace, name: key.name },
        changes: decision.write.changes,
      });
      await actor.alongside?.(tx, decision.write.changes);
    }
    await decision.followUp?.(tx, written);
    if (written) await notifyChange(tx, { kind: "Shoot", ...key });
    return {
      written: { ok: true, value: decision.answer(written?.resourceVersion ?? stored.resourceVersion) },
      changed: written !== undefined,
    };
  });
  // This process's caches learn of the change at once, before the notification comes round.
  if (outcome.changed) noteLocalChange({ kind: "Shoot", ...key });
  return outcome.written;
}
