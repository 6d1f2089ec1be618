// Acting on one shoot exactly once, on either garden: the unit a bulk action runs per shoot, and
// which update runs' stages will run per shoot too (docs/architecture.md, "Bulk actions").
//
// A unit of work has a row in a ledger (bulk_action_items for a bulk action) whose state moves
// Pending -> Acting -> Succeeded | Failed | Refused | Cancelled, and the request id of its one
// write. The steps:
//   1. hold the unit (an advisory lock for as long as this worker acts: a second worker that took
//      the same job, an expired one retaken while this one still runs, skips it);
//   2. under the row's lock, Pending becomes Acting (committed before anything is sent), unless
//      the owner was cancelled (Cancelled) or it is already final;
//   3. the change goes through the write port with the unit's request id; on the simulated garden
//      the row moves to Succeeded in the transaction of the write and its audit event (Actor's
//      `alongside`), so the two commit together; on a live garden after the answer;
//   4. the outcome is recorded (a refusal in the single-shoot endpoints' words; an error thrown
//      before the garden was asked is retried, then fails the unit, so one broken shoot holds
//      no other).
// A unit found Acting was left by a worker that died between 2 and 4: it is not sent again blind.
// Its write happened if an audit event carries its request id (both gardens write one for an
// accepted change: the simulated garden with the write, a live garden when recording the answer);
// a live garden's write intent with that id still open means the garden may have applied it, and
// the shoot itself is asked (`alreadyApplied`); without either the garden was never asked (the
// intent is written before a live garden is asked), so it is sent now.
import type { FieldChange } from "../api/audit.ts";
import type { BulkItemState } from "../api/bulk-actions.ts";
import { Refusal } from "../api/refusal.ts";
import type { Db, Queryable, Tx } from "../db/client.ts";
import type { ShootKey } from "../garden/shoot-writes.ts";
import { auditedWrite, writeIntentState } from "../store/bulk-actions.ts";
import { recordedAsField } from "./bulk-action-preview.ts";
import { type MaintainNowRequest, requestMaintainNow } from "./maintain-now.ts";
import type { ShootWrites } from "../garden/shoot-writes.ts";

const FINAL: readonly BulkItemState[] = ["Succeeded", "Failed", "Refused", "Cancelled"];

/** A unit's row, wherever its owner keeps it. */
export interface OnceLedger {
  /** Holds the unit for the transaction `tx`; false when another worker holds it. */
  hold(tx: Tx): Promise<boolean>;
  /** The unit's state and request id, its row locked for `tx`. */
  lock(tx: Queryable): Promise<{ readonly state: BulkItemState; readonly requestId: string } | undefined>;
  /** Moves the unit from one of `from` to `to`; false when it was not in `from`. */
  move(
    tx: Queryable,
    from: readonly BulkItemState[],
    to: BulkItemState,
    outcome?: { readonly message?: string; readonly changes?: readonly FieldChange[] },
  ): Promise<boolean>;
  /** Whether its owner was cancelled (a Pending unit then is not acted on). */
  cancelled(tx: Queryable): Promise<boolean>;
}

export interface OnceOutcome {
  readonly state: "Succeeded" | "Refused" | "Failed";
  readonly message: string;
  readonly changes: readonly FieldChange[];
}

/** The change, for one shoot. */
export interface OnceWrite {
  readonly key: ShootKey;
  /** Whether the caller may act on this shoot now; the refusal's words if not. */
  refusedBeforehand(): Promise<string | undefined>;
  /**
   * Sends the change with this request id, through the write port; `alongside` must go into the
   * port's Actor. A refusal of the port is thrown as a Refusal; anything else thrown leaves the
   * unit Acting, for the next attempt to find out.
   */
  send(requestId: string, alongside: (tx: Tx, changes: readonly FieldChange[]) => Promise<void>): Promise<OnceOutcome>;
  /** Whether the shoot already is as the change leaves it (a live garden's lost answer). */
  alreadyApplied(): Promise<boolean>;
}

/** Refusals that say the garden could not be asked or did not answer: the unit failed, not refused. */
const FAILED_CODES = new Set(["unavailable", "upstream-failed", "unauthenticated"]);

export interface ActOnceOptions {
  /**
   * Whether an error other than a refusal, thrown before the garden was asked (no audit event, no
   * write intent), fails the unit now; otherwise it is thrown, for a retry. The caller says so once
   * it has retried enough (a transient fault passes; a shoot that always throws must not hold
   * every unit after it).
   */
  readonly failUntracedErrors?: boolean;
}

/** Acts on the unit at most once; answers its state afterwards, or "busy" when another worker holds it. */
export async function actOnce(
  db: Db,
  ledger: OnceLedger,
  write: OnceWrite,
  options: ActOnceOptions = {},
): Promise<BulkItemState | "busy"> {
  return db.$transaction(
    async (guard) => {
      if (!(await ledger.hold(guard))) return "busy";
      const start = await db.$transaction(async (tx) => {
        const unit = await ledger.lock(tx);
        if (!unit || FINAL.includes(unit.state)) return { done: unit?.state ?? ("Cancelled" as const) };
        if (unit.state === "Acting") return { requestId: unit.requestId, retaken: true };
        if (await ledger.cancelled(tx)) {
          await ledger.move(tx, ["Pending"], "Cancelled", { message: "Cancelled before it was acted on." });
          return { done: "Cancelled" as const };
        }
        const refusedBy = await write.refusedBeforehand();
        if (refusedBy !== undefined) {
          await ledger.move(tx, ["Pending"], "Refused", { message: refusedBy });
          return { done: "Refused" as const };
        }
        await ledger.move(tx, ["Pending"], "Acting");
        return { requestId: unit.requestId, retaken: false };
      });
      if (start.done) return start.done;
      const requestId = start.requestId!;
      if (start.retaken) {
        const settled = await settleRetaken(db, ledger, write, requestId);
        if (settled) return settled;
        // Never sent, and its owner was cancelled meanwhile: it is one of those not acted on.
        if (await ledger.cancelled(db)) {
          await ledger.move(db, ["Acting"], "Cancelled", { message: "Cancelled before it was acted on." });
          return "Cancelled";
        }
      }
      let outcome: OnceOutcome;
      try {
        outcome = await write.send(requestId, async (tx, changes) => {
          await ledger.move(tx, ["Acting"], "Succeeded", { changes, message: "Written." });
        });
      } catch (error) {
        if (!(error instanceof Refusal)) {
          // Thrown before the garden was asked (no audit event, no write intent): the shoot is
          // unchanged, so once retried enough it fails instead of holding every shoot after it.
          // Otherwise the retry finds out what happened (settleRetaken).
          if (options.failUntracedErrors && (await neverAsked(db, write.key, requestId))) {
            const message = error instanceof Error ? error.message : String(error);
            await ledger.move(db, ["Acting"], "Failed", { message: `Not sent: ${message}` });
            return "Failed";
          }
          throw error;
        }
        outcome = {
          state: FAILED_CODES.has(error.code) ? "Failed" : "Refused",
          message: error.message,
          changes: [],
        };
      }
      // The simulated garden has already moved it to Succeeded with the write; this adds the words.
      await ledger.move(db, ["Acting", "Succeeded"], outcome.state, {
        message: outcome.message,
        changes: outcome.changes,
      });
      return outcome.state;
    },
    // Held while the garden is asked (a live garden may take up to 30 s to answer).
    { timeout: 5 * 60_000, maxWait: 30_000 },
  );
}

/**
 * A unit left Acting: settles it when its write is known to have happened (or may have), and
 * answers undefined when the garden was never asked, so that it is sent now.
 */
async function settleRetaken(
  db: Db,
  ledger: OnceLedger,
  write: OnceWrite,
  requestId: string,
): Promise<BulkItemState | undefined> {
  const audited = await auditedWrite(db, requestId);
  if (audited) {
    await ledger.move(db, ["Acting"], "Succeeded", {
      changes: audited.changes,
      message: "Written before its worker stopped (its audit event says so); not sent again.",
    });
    return "Succeeded";
  }
  const intent = await writeIntentState(db, write.key, requestId);
  if (intent === undefined || intent === "refused") return undefined;
  if (intent === "accepted" || intent === "recorded") {
    // The garden's answer came back as an acceptance; only its record was left to write.
    await ledger.move(db, ["Acting"], "Succeeded", {
      message: "The garden accepted it before its worker stopped; not sent again.",
    });
    return "Succeeded";
  }
  if (await write.alreadyApplied()) {
    await ledger.move(db, ["Acting"], "Succeeded", {
      message:
        "Its worker stopped before the garden's answer was recorded; the shoot shows the change, so it was not sent again.",
    });
    return "Succeeded";
  }
  await ledger.move(db, ["Acting"], "Failed", {
    message:
      "Its worker stopped while the garden was asked, and whether the garden applied the change cannot be told yet; it was not sent again (look at the shoot, and act on it alone if needed).",
  });
  return "Failed";
}

/** Whether a write with this request id left no trace: no audit event and no live write intent. */
async function neverAsked(db: Db, key: OnceWrite["key"], requestId: string): Promise<boolean> {
  return (
    (await auditedWrite(db, requestId)) === undefined && (await writeIntentState(db, key, requestId)) === undefined
  );
}

/** A "maintain now" sent through the port, as a unit's outcome (a bulk action's and an update run's). */
export async function maintainNowOutcome(garden: ShootWrites, request: MaintainNowRequest): Promise<OnceOutcome> {
  const answer = await requestMaintainNow(garden, request);
  return {
    state: "Succeeded",
    message: `${answer.message} ${answer.plan.summary}`,
    changes: answer.plan.changes.map(recordedAsField),
  };
}
