// Gardener's deletion confirmation (plugin/pkg/global/deletionconfirmation/admission.go;
// pkg/utils/gardener/deletion_confirmation.go): a shoot is deleted only while its
// confirmation.gardener.cloud/deletion annotation is a true boolean (Go's strconv.ParseBool: "1",
// "t", "T", "TRUE", "true", "True"). Whoever sets it is remembered in
// deletion.gardener.cloud/confirmed-by (the plugin's Admit), and where the shoot's project asks
// for dual approval (spec.dualApprovalForDeletion: an entry for "shoots" whose label selector
// matches the shoot; service accounts included unless includeServiceAccounts is false), the
// subject who sends the DELETE must be another than the one who confirmed (Validate).
import type { Project, Shoot } from "../gardener/types.ts";
import { ANNOTATION_CONFIRM_DELETION } from "./deletion-cleanup.ts";
import { matchLabelSelector } from "./label-selector.ts";
import { parseBool } from "./operation-annotations.ts";

export const ANNOTATION_CONFIRMED_BY = "deletion.gardener.cloud/confirmed-by";

const SERVICE_ACCOUNT_PREFIX = "system:serviceaccount:";

/** CheckIfDeletionIsConfirmed: the annotation holds a true boolean. */
export function deletionConfirmed(shoot: Shoot): boolean {
  return parseBool(shoot.metadata.annotations?.[ANNOTATION_CONFIRM_DELETION]);
}

/**
 * The plugin's Admit on an update: the subject who turns the confirmation on is recorded, it stays
 * while the shoot stays confirmed, and goes with the confirmation. `after` is not modified.
 */
export function withConfirmer(before: Shoot, after: Shoot, subject: string): Shoot {
  const annotations = { ...after.metadata.annotations };
  if (deletionConfirmed(after)) {
    const confirmer = deletionConfirmed(before) ? before.metadata.annotations?.[ANNOTATION_CONFIRMED_BY] : subject;
    if (confirmer === undefined) delete annotations[ANNOTATION_CONFIRMED_BY];
    else annotations[ANNOTATION_CONFIRMED_BY] = confirmer;
  } else {
    delete annotations[ANNOTATION_CONFIRMED_BY];
  }
  if (annotations[ANNOTATION_CONFIRMED_BY] === after.metadata.annotations?.[ANNOTATION_CONFIRMED_BY]) return after;
  return { ...after, metadata: { ...after.metadata, annotations } };
}

/** checkIfDeletionMustBeDualApproved for a shoot deleted by `subject`. */
export function dualApprovalRequired(shoot: Shoot, project: Project | undefined, subject: string): boolean {
  for (const entry of project?.spec.dualApprovalForDeletion ?? []) {
    if (entry.resource !== "shoots") continue;
    const matched = matchLabelSelector(entry.selector ?? {}, shoot.metadata.labels ?? {});
    // A selector Gardener cannot parse is its internal error: the deletion is refused there too.
    if (!matched.ok) return true;
    if (!matched.matches) return false;
    if (subject.startsWith(SERVICE_ACCOUNT_PREFIX)) return entry.includeServiceAccounts ?? true;
    return true;
  }
  return false;
}

/**
 * The plugin's Validate beyond the confirmation itself: under dual approval, the subject who
 * confirmed may not also delete. Answers the confirmer when it refuses.
 */
export function sameSubjectConfirmed(shoot: Shoot, project: Project | undefined, deleter: string): string | undefined {
  const confirmer = shoot.metadata.annotations?.[ANNOTATION_CONFIRMED_BY];
  if (confirmer === undefined || confirmer !== deleter) return undefined;
  return dualApprovalRequired(shoot, project, deleter) ? confirmer : undefined;
}
