// Gardener's live control-plane migration (pkg/apis/core/v1beta1/constants, AnnotationMigrationLiveMigrate;
// plugin/pkg/shoot/validator/admission.go, validateLiveMigrationPrerequisites): a shoot annotated
// migration.gardener.cloud/live-migrate with a true boolean, whose spec.seedName then changes
// through shoots/binding, moves its control plane without downtime as a LiveMigrate operation.
import type { Shoot } from "../gardener/types.ts";
import { parseBool } from "./operation-annotations.ts";

export const ANNOTATION_LIVE_MIGRATE = "migration.gardener.cloud/live-migrate";

/** Whether a migration of the shoot now would be a live one (v1beta1helper.HasLiveMigrationAnnotation). */
export function asksLiveMigration(shoot: Shoot): boolean {
  return parseBool(shoot.metadata.annotations?.[ANNOTATION_LIVE_MIGRATE]);
}
