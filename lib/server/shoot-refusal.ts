// The write port's refusals in words: what was asked, of which shoot, and why not. The refusal's
// code decides the status (at the HTTP edge, lib/http/refusal-answer.ts); the sentences are for people.
import { describeBlockingOperation } from "../engine/migration-admission.ts";
import type { ShootKey, ShootRefusal } from "../garden/shoot-writes.ts";
import { conflict, forbidden, notFound, Refusal, unauthenticated, unavailable, unprocessable } from "../api/refusal.ts";

/** What the caller was asking for, to word "it cannot be changed / maintained / deleted". */
export type Attempt = "change" | "maintain" | "migrate" | "delete" | "inspect";

export function refusalError(refusal: ShootRefusal, key: ShootKey, attempt: Attempt): Refusal {
  const shoot = `Shoot ${key.namespace}/${key.name}`;
  switch (refusal.code) {
    case "NotFound":
      return notFound(`${shoot} does not exist.`);
    case "Stale":
      return conflict(
        `${shoot} was changed since you read it (your resourceVersion ${refusal.yours}, now ${refusal.current}); reload and apply your change again.`,
        { extensions: { currentResourceVersion: String(refusal.current) }, currentVersion: String(refusal.current) },
      );
    case "BeingDeleted":
      return conflict(
        attempt === "delete"
          ? `${shoot} is already being deleted.`
          : attempt === "maintain"
            ? `${shoot} is being deleted; it is not maintained any more.`
            : `${shoot} is being deleted; it cannot be changed any more.`,
      );
    case "OperationPending": {
      const named = refusal.operations.map((op) => `"${op}"`).join(", ");
      return conflict(
        `${shoot} is not maintained now: the operation ${named} asked for with gardener.cloud/operation is still pending. ` +
          "Gardener keeps it until it is carried out, and maintenance may not run beside it (asking would overwrite it); try again once it is done.",
        { extensions: { pendingOperations: [...refusal.operations] } },
      );
    }
    case "Blocked": {
      const why = refusal.reason ?? describeBlockingOperation(refusal.operation);
      return conflict(
        attempt === "maintain"
          ? `${shoot} is not maintained now: ${why}.`
          : `${shoot} cannot be ${attempt === "delete" ? "deleted" : "changed"} now: ${why}.`,
      );
    }
    case "ProfileMissing": {
      // A NamespacedCloudProfile's key is "namespace/name" (lib/gardener/profile-reference.ts).
      const what = `${refusal.profile.includes("/") ? "namespaced " : ""}cloud profile "${refusal.profile}"`;
      return unprocessable(`The shoot's ${what} does not exist, so no change can be checked.`, [
        { field: "spec.cloudProfile.name", type: "NotFound", detail: `${what} not found` },
      ]);
    }
    case "Invalid":
      return unprocessable(
        refusal.problems.map((p) => `${p.field}: ${p.detail}`).join("; "),
        refusal.problems.map((p) => ({ field: p.field, type: p.type, detail: p.detail })),
      );
    case "HibernationNotPossible":
      return unprocessable(
        `${shoot} cannot be hibernated now: its HibernationPossible constraint is ${refusal.status}` +
          (refusal.message ? ` (${refusal.message.replace(/\.$/, "")})` : "") +
          ". Gardener hibernates a shoot only while that constraint is True.",
        [{ field: "spec.hibernation.enabled", type: "Forbidden", detail: refusal.detail }],
      );
    case "AdmissionRejected":
      // gardener-apiserver answers 403 (a denial) or 500 (a webhook that did not answer); here 403
      // means the caller's role, so 422 with the API server's words.
      return unprocessable(`${shoot} cannot be changed: the garden refused the update. ${refusal.message}`, [
        { field: "metadata", type: "Forbidden", detail: refusal.message },
      ]);
    case "DeletionNotConfirmed":
      return unprocessable(`${shoot} must be annotated with ${refusal.annotation}=true before it can be deleted.`, [
        {
          field: `metadata.annotations[${refusal.annotation}]`,
          type: "Forbidden",
          detail: 'set it to "true" to confirm the deletion',
        },
      ]);
    case "DeletionNeedsAnotherSubject": {
      const who = refusal.confirmedBy ?? "the subject who confirmed its deletion";
      const detail =
        "you are not allowed to both confirm the deletion and send the actual DELETE request - another subject must perform the deletion";
      return unprocessable(
        `${shoot} cannot be deleted by ${who}, who also confirmed its deletion: its project asks for dual approval of deletions (spec.dualApprovalForDeletion), so someone else must delete it.` +
          (refusal.message ? ` The garden said: ${refusal.message}` : ""),
        [{ field: "metadata.annotations[deletion.gardener.cloud/confirmed-by]", type: "Forbidden", detail }],
      );
    }
    case "MigrationRefused":
      return unprocessable(
        `The control plane of ${key.namespace}/${key.name} cannot move to "${refusal.destination}": ${refusal.refusals.map((r) => r.detail).join("; ")}.`,
        refusal.refusals,
      );
    case "GardenForbidden":
      return forbidden(
        `The garden does not allow you to ${refusal.verb} ${refusal.resource} (${shoot}). It said: ${refusal.message}`,
        { extensions: { verb: refusal.verb, resource: refusal.resource } },
      );
    case "GardenRefused": {
      // A webhook's denial comes as 403; here 403 means the caller's rights, so 422 (as the
      // simulated garden's AdmissionRejected). Any other status the garden gave passes on.
      return new Refusal("garden-refused", `The garden refused to ${attempt} ${shoot}: ${refusal.message}`, {
        gardenStatus: refusal.status === 403 ? 422 : refusal.status,
        errors:
          refusal.problems.length > 0
            ? refusal.problems
            : [{ field: "metadata", type: refusal.reason || "Invalid", detail: refusal.message }],
        extensions: { reason: refusal.reason },
      });
    }
    case "GardenCredentialsRefused":
      return new Refusal(
        "upstream-failed",
        `The garden refused Almanac's own credentials, so ${shoot} could not be ${attemptDone[attempt]}; an administrator has to renew the garden's kubeconfig or token. The garden said: ${refusal.message}`,
      );
    case "NoGardenIdentity":
      return forbidden(`${shoot} was not ${attemptDone[attempt]}: ${refusal.message}`);
    case "SignInAgain":
      return unauthenticated(`${refusal.message} Sign in again, then ${attempt} ${shoot} once more.`);
    case "GardenUnavailable":
      return unavailable(
        `The garden did not answer, so ${shoot} was not ${attemptDone[attempt]}; try again shortly. ${refusal.message}`,
      );
    case "ShootApiServerFailed":
      // The garden did its part (the viewer kubeconfig); the shoot's own API server did not.
      return refusal.status === undefined || refusal.status >= 500
        ? unavailable(
            `The API server of ${shoot} (${refusal.server}) did not answer, so ${shoot} was not ${attemptDone[attempt]}; try again shortly. ${refusal.message}`,
          )
        : new Refusal(
            "upstream-failed",
            `The API server of ${shoot} (${refusal.server}) refused the viewer kubeconfig the garden issued (HTTP ${refusal.status}), so ${shoot} was not ${attemptDone[attempt]}. It said: ${refusal.message}`,
          );
  }
}

const attemptDone: Record<Attempt, string> = {
  change: "changed",
  maintain: "maintained",
  migrate: "migrated",
  delete: "deleted",
  inspect: "inspected",
};
