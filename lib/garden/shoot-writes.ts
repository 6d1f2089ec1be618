// The one port through which Almanac changes a garden: patch a shoot, ask for maintenance now,
// move its control plane, delete it. The simulated garden implements it in Postgres
// (lib/garden/embedded); a live garden will implement it against Gardener's API. Use cases call
// it and never ask which garden it is. Reads do not go through here: both gardens are read from
// the Postgres mirror (lib/store).
//
// Refusals are codes with the facts they rest on, not sentences: callers decide by the code, and
// lib/server words them for people.
import type { GardenIdentity } from "../auth/garden-identity.ts";
import type { Deletion } from "../engine/deletion-cleanup.ts";
import type { Tx } from "../db/client.ts";
import type { FieldError } from "../engine/field-error.ts";
import type { FieldChange } from "../engine/shoot-patch.ts";
import type { RecordedChange } from "../engine/maintenance-record.ts";
import type { Refusal as MigrationRefusal } from "../engine/migration-admission.ts";
import type { BlockingOperation } from "../engine/migration-admission.ts";
import type { Migration } from "../engine/migration-flow.ts";
import type { ShootPatch } from "../engine/shoot-patch.ts";
import type { Shoot } from "../gardener/types.ts";

/**
 * The subject the garden sees sending a request: the person (impersonated, or their own token);
 * for Almanac's own credentials, the simulated garden takes the actor's name, and a live garden's
 * is not known here (undefined: the garden decides what depends on it).
 */
export function gardenSubject(actor: Actor, garden: "embedded" | "live"): string | undefined {
  if (actor.identity.kind === "person") return actor.identity.user;
  return garden === "embedded" ? actor.name : undefined;
}

/** Who asks: the name for the audit log, and who the request acts as in a live garden. */
export interface Actor {
  readonly name: string;
  readonly requestId: string;
  readonly identity: GardenIdentity;
  /**
   * The caller's own record of the write (a bulk action's item: lib/server/act-once.ts), written in
   * the same transaction as the change and its audit event where the garden has one (the simulated
   * garden), so that both commit or neither does. A live garden's write is outside the database:
   * it does not call it, and the caller records the outcome after the answer (and finds out after
   * a crash from the audit event or the write intent carrying `requestId`).
   */
  readonly alongside?: (tx: Tx, changes: readonly FieldChange[]) => Promise<void>;
}

export interface ShootKey {
  readonly namespace: string;
  readonly name: string;
}

export type ShootRefusal =
  | { readonly code: "NotFound" }
  /** The caller's resourceVersion is not the current one. */
  | { readonly code: "Stale"; readonly yours: string; readonly current: number }
  | { readonly code: "BeingDeleted" }
  /**
   * The shoot's gardener.cloud/operation annotation holds operations Gardener has not carried out
   * yet (a credentials rotation, rollout-workers, ...): maintenance now would overwrite them.
   */
  | { readonly code: "OperationPending"; readonly operations: readonly string[] }
  /**
   * An operation under way forbids this change (a migration, or a deletion); `reason` is Gardener's
   * own refusal when it has one (e.g. "cannot mark shoot for deletion during Migrate operation that
   * is in state Failed").
   */
  | { readonly code: "Blocked"; readonly operation: BlockingOperation; readonly reason?: string }
  /** The shoot's cloud profile is missing, so the change cannot be checked. */
  | { readonly code: "ProfileMissing"; /** profile-reference.ts's profileKey */ readonly profile: string }
  /** Gardener's rules refuse the change: every problem, by field. */
  | { readonly code: "Invalid"; readonly problems: readonly FieldError[] }
  /**
   * Hibernating the shoot is refused while its HibernationPossible constraint is not True: its
   * status and message, and gardener-apiserver's words for it (`detail`).
   */
  | {
      readonly code: "HibernationNotPossible";
      readonly status: string;
      readonly message: string;
      readonly detail: string;
    }
  /**
   * One of the garden's admission webhooks rejected the change (it denied it, or did not answer in
   * time): the webhook and the API server's answer in Kubernetes' words.
   */
  | { readonly code: "AdmissionRejected"; readonly webhook: string; readonly message: string }
  | { readonly code: "DeletionNotConfirmed"; readonly annotation: string }
  /**
   * The shoot's project asks for dual approval of deletions (spec.dualApprovalForDeletion), and the
   * subject who would delete it is the one who confirmed it (`confirmedBy`, when known); `message`
   * is the garden's own words, when it was the garden that refused.
   */
  | { readonly code: "DeletionNeedsAnotherSubject"; readonly confirmedBy?: string; readonly message?: string }
  | { readonly code: "MigrationRefused"; readonly destination: string; readonly refusals: readonly MigrationRefusal[] }
  /** A live garden's RBAC refused the person the request acts as: what was asked, and its words. */
  | { readonly code: "GardenForbidden"; readonly verb: string; readonly resource: string; readonly message: string }
  /**
   * A live garden refused the change itself (its validation, an admission webhook's denial): its
   * HTTP status (400, 422, ...), Kubernetes' reason and its message.
   */
  | {
      readonly code: "GardenRefused";
      readonly status: number;
      readonly reason: string;
      readonly message: string;
      /** The fields the garden names (its Status' causes), if any. */
      readonly problems: readonly { readonly field: string; readonly type: string; readonly detail: string }[];
    }
  /** A live garden refused Almanac's own credentials (401): nothing the caller can fix. */
  | { readonly code: "GardenCredentialsRefused"; readonly message: string }
  /** The person's own credentials for a live garden (their OIDC ID token) expired or were refused. */
  | { readonly code: "SignInAgain"; readonly message: string }
  /**
   * The caller has no identity of their own in a live garden that Almanac may act with (a password
   * account or an API token where changes need the person's own token; anyone in read-only mode;
   * a `system:` name Almanac never impersonates): the message says what they can do.
   */
  | { readonly code: "NoGardenIdentity"; readonly message: string }
  /** A live garden did not answer, or answered with a server error: try again later. */
  | { readonly code: "GardenUnavailable"; readonly message: string }
  /**
   * The shoot's own API server, reached with a viewer kubeconfig the garden issued, did not answer
   * (`status` absent) or refused the request (its HTTP status): its address and its words.
   */
  | {
      readonly code: "ShootApiServerFailed";
      readonly server: string;
      readonly status?: number;
      readonly message: string;
    };

export type Written<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly refusal: ShootRefusal };

/** Optimistic concurrency: the resourceVersions the caller read (If-Match, or the body's), if any. */
export interface Precondition {
  /** Any of these (If-Match may list several); an empty list matches nothing. */
  readonly anyOf?: readonly number[];
  readonly exactly?: number;
}

export interface MaintainNowAccepted {
  /** False when a run was already pending: nothing more was queued. */
  readonly queued: boolean;
  readonly resourceVersion: number;
  /** What the run will change, as it would run now (unless the shoot changes first). */
  readonly changes: readonly RecordedChange[];
  /** The cloud profile the shoot names, when it does not exist: the run will fail. */
  readonly missingProfile?: string;
  /** When the garden's admission webhooks will reject the run's update: the failure it will record. */
  readonly failureReason?: string;
}

export interface MigrationAccepted {
  readonly id: string;
  readonly flow: Migration;
}

export interface DeletionAccepted {
  readonly id: string;
  readonly flow: Deletion;
}

export interface ShootWrites {
  /** A user's merge patch, checked by Gardener's rules; answers the shoot as written. */
  patchShoot(
    actor: Actor,
    key: ShootKey,
    patch: ShootPatch,
    precondition: Precondition,
    now: number,
  ): Promise<Written<Shoot>>;
  /** gardener.cloud/operation=maintain: the maintenance controller runs at once. */
  maintainNow(actor: Actor, key: ShootKey, now: number): Promise<Written<MaintainNowAccepted>>;
  /** Moves the control plane to the seed `destination`. */
  migrateShoot(actor: Actor, key: ShootKey, destination: string, now: number): Promise<Written<MigrationAccepted>>;
  /** Deletes the shoot (it must carry the deletion confirmation). */
  deleteShoot(actor: Actor, key: ShootKey, now: number): Promise<Written<DeletionAccepted>>;
}
