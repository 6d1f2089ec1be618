// Kubernetes version maintenance of the control plane and of worker pools (Gardener:
// pkg/controllermanager/controller/shoot/maintenance/reconciler.go,
// maintainKubernetesVersion, shouldKubernetesVersionBeUpdated, determineKubernetesVersion).
import type { PreparedProfile } from "./prepared-profile.ts";
import { consecutiveMinorForce, determineVersionForStrategy, messageOf, patchAuto } from "./selection.ts";
import type { UpdateResult } from "./update-result.ts";

export const REASON_VERSION_MISSING = "Version does not exist in CloudProfile";
const REASON_KUBERNETES_EXPIRED = "Kubernetes version expired - force update required";
const REASON_KUBERNETES_AUTO = "Automatic update of Kubernetes version configured";

interface KubernetesDecision {
  readonly reason: string;
  readonly isExpired: boolean;
}

/** Whether a version must be looked at, and why. Missing versions count as expired. */
function kubernetesUpdateTrigger(
  profile: PreparedProfile,
  version: string,
  autoUpdate: boolean,
): KubernetesDecision | undefined {
  const entry = profile.kubernetesVersion(version);
  if (!entry) return { reason: REASON_VERSION_MISSING, isExpired: true };
  if (entry.classification === "expired") return { reason: REASON_KUBERNETES_EXPIRED, isExpired: true };
  if (autoUpdate) return { reason: REASON_KUBERNETES_AUTO, isExpired: false };
  return undefined;
}

/**
 * Maintains one Kubernetes version. `apply` receives the selected version and returns what was
 * really set (worker pools are capped at the control plane). Returns undefined when nothing is
 * to be done; throws only for a version that cannot be parsed at all.
 */
export function maintainKubernetesVersion(
  profile: PreparedProfile,
  version: string,
  autoUpdate: boolean,
  apply: (selected: string) => string,
): UpdateResult | undefined {
  const trigger = kubernetesUpdateTrigger(profile, version, autoUpdate);
  if (!trigger) return undefined;
  let selected: string;
  try {
    selected = profile.kubernetes.remember(`k8s|${version}|${trigger.isExpired}`, () =>
      determineVersionForStrategy(profile.kubernetes, version, patchAuto, consecutiveMinorForce, trigger.isExpired),
    );
  } catch (e) {
    return {
      description: `could not determine higher suitable version than "${version}": ${messageOf(e)}`,
      reason: trigger.reason,
      isSuccessful: false,
      from: version,
    };
  }
  if (selected === "") return undefined;
  const applied = apply(selected);
  return {
    description: `Updated Kubernetes version from "${version}" to "${applied}"`,
    reason: trigger.reason,
    isSuccessful: true,
    from: version,
    to: applied,
  };
}
