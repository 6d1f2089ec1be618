// Whether gardener-apiserver lets a change hibernate a shoot. Follows Gardener's shoot validator
// admission plugin: plugin/pkg/shoot/validator/admission.go (validationContext.validateShootHibernation):
// a shoot that is not hibernated may be hibernated only while its HibernationPossible constraint is
// True or absent; False, Unknown and Progressing all refuse. Pure, so a live garden can run it as
// a pre-check before sending the patch.
import type { Condition, Shoot } from "../gardener/types.ts";
import { HIBERNATION_POSSIBLE } from "./shoot-constraints.ts";

export interface HibernationRefusal {
  /** The HibernationPossible constraint's status: False, Unknown, Progressing... */
  readonly status: string;
  readonly message: string;
  /** Gardener's words: `'HibernationPossible' constraint is 'False': <message>`. */
  readonly detail: string;
}

const hibernationEnabled = (shoot: Shoot) => shoot.spec.hibernation?.enabled === true;

/** The HibernationPossible constraint when it keeps the shoot from being hibernated. */
export function blockingHibernationConstraint(constraints: readonly Condition[] | undefined): Condition | undefined {
  const constraint = constraints?.find((c) => c.type === HIBERNATION_POSSIBLE);
  return constraint && constraint.status !== "True" ? constraint : undefined;
}

/**
 * Gardener's validateShootHibernation: refuses a change from not hibernated to hibernated while
 * the shoot's HibernationPossible constraint is there and not True. (Gardener answers 403
 * Forbidden with the detail.) Waking up, or staying as it is, is never refused.
 */
export function validateShootHibernation(oldShoot: Shoot, shoot: Shoot): HibernationRefusal | undefined {
  if (hibernationEnabled(oldShoot) || !hibernationEnabled(shoot)) return undefined;
  const constraint = blockingHibernationConstraint(shoot.status?.constraints);
  if (!constraint) return undefined;
  const message = constraint.message ?? "";
  return {
    status: constraint.status,
    message,
    detail: `'${HIBERNATION_POSSIBLE}' constraint is '${constraint.status}': ${message}`,
  };
}
