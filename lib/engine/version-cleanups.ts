// Fields that a Kubernetes minor forbids are removed when maintenance moves a shoot across it
// (Gardener: pkg/controllermanager/controller/shoot/maintenance/reconciler.go, the version checks
// in (*Reconciler).reconcile and migrateSecretBindingToCredentialsBinding). Each removal is
// reported as an "operation" in lastMaintenance.
import type { ShootSpec } from "../gardener/types.ts";
import { compareVersions, parseVersion, type Version } from "./version.ts";

type Obj = Record<string, unknown>;

function crosses(oldVersion: Version, newVersion: Version, minor: number): boolean {
  const threshold = parseVersion(`1.${minor}.0`);
  return compareVersions(oldVersion, threshold) < 0 && compareVersions(newVersion, threshold) >= 0;
}

/** Removes `key` from the object at `path` (copying along the way) and says whether it was set. */
function removeField(spec: ShootSpec, path: string[], key: string): boolean {
  let parent: Obj = spec as Obj;
  for (const part of path) {
    const child = parent[part];
    if (child === null || typeof child !== "object") return false;
    const copy = { ...(child as Obj) };
    parent[part] = copy;
    parent = copy;
  }
  if (parent[key] === undefined || parent[key] === null) return false;
  delete parent[key];
  return true;
}

const REMOVALS_133: { path: string[]; key: string; message: string }[] = [
  {
    path: ["kubernetes", "kubeControllerManager"],
    key: "podEvictionTimeout",
    message:
      ".spec.kubernetes.kubeControllerManager.podEvictionTimeout is set to nil. Reason: The field was deprecated in favour of `spec.kubernetes.kubeAPIServer.defaultNotReadyTolerationSeconds` and `spec.kubernetes.kubeAPIServer.defaultUnreachableTolerationSeconds` and can no longer be enabled for Shoot clusters using Kubernetes version 1.33+",
  },
  {
    path: ["kubernetes", "clusterAutoscaler"],
    key: "maxEmptyBulkDelete",
    message:
      ".spec.kubernetes.clusterAutoscaler.maxEmptyBulkDelete is set to nil. Reason: The field was deprecated in favour of `.spec.kubernetes.clusterAutoscaler.maxScaleDownParallelism` and can no longer be enabled for Shoot clusters using Kubernetes version 1.33+",
  },
];

const REASON_135 = "can no longer be set for Shoot clusters using Kubernetes version 1.35+";

const REMOVALS_135: { path: string[]; key: string; message: string }[] = [
  {
    path: ["kubernetes"],
    key: "enableAnonymousAuthentication",
    message: `.spec.kubernetes.enableAnonymousAuthentication is set to nil. Reason: The field was deprecated in favour of the anonymous authentication configuration of the kube-apiserver and ${REASON_135}`,
  },
  {
    path: ["kubernetes", "kubeScheduler"],
    key: "kubeMaxPDVols",
    message: `.spec.kubernetes.kubeScheduler.kubeMaxPDVols is set to nil. Reason: The field has no effect any more and ${REASON_135}`,
  },
  {
    path: ["kubernetes", "kubeAPIServer", "watchCacheSizes"],
    key: "default",
    message: `.spec.kubernetes.kubeAPIServer.watchCacheSizes.default is set to nil. Reason: The field has no effect any more and ${REASON_135}`,
  },
  {
    path: [],
    key: "addons",
    message: `.spec.addons is set to nil. Reason: The addons were deprecated and ${REASON_135}`,
  },
];

/** Applies the removals to a copy-on-write spec and returns the operation messages. */
export function applyVersionCleanups(spec: ShootSpec, oldVersion: Version, newVersion: Version): string[] {
  const operations: string[] = [];
  if (crosses(oldVersion, newVersion, 33)) {
    for (const r of REMOVALS_133) if (removeField(spec, r.path, r.key)) operations.push(r.message);
  }
  if (crosses(oldVersion, newVersion, 34) && spec.secretBindingName && !spec.credentialsBindingName) {
    // The real controller creates a CredentialsBinding named force-migrated-<name>; the engine
    // records the same rename and leaves creating the object to the garden backend.
    spec.credentialsBindingName = `force-migrated-${spec.secretBindingName}`;
    delete spec.secretBindingName;
    operations.push(
      ".spec.secretBindingName was migrated to .spec.credentialsBindingName. Reason: SecretBinding is deprecated and can no longer be used for Shoot clusters using Kubernetes version 1.34+",
    );
  }
  if (crosses(oldVersion, newVersion, 35)) {
    for (const r of REMOVALS_135) if (removeField(spec, r.path, r.key)) operations.push(r.message);
    const dns = spec.dns as { providers?: Obj[] } | undefined;
    dns?.providers?.forEach((provider, i) => {
      if (provider.secretName === undefined) return;
      const providers = [...(spec.dns as { providers: Obj[] }).providers];
      providers[i] = { ...provider };
      delete providers[i].secretName;
      spec.dns = { ...(spec.dns as Obj), providers };
      operations.push(
        `.spec.dns.providers[${i}].secretName is set to nil. Reason: The field was deprecated in favour of credentialsRef and ${REASON_135}`,
      );
    });
  }
  return operations;
}
