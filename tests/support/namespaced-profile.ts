// A NamespacedCloudProfile as a garden holds one: spec.parent and the project's overrides, and in
// status.cloudProfileSpec the merge Gardener's controller wrote (here: the parent's spec with the
// overrides laid over it, enough for tests that set the versions they read).
import type { CloudProfile, ExpirableVersion, NamespacedCloudProfile } from "../../lib/gardener/types.ts";

export function namespacedProfile(
  parent: CloudProfile,
  namespace: string,
  name: string,
  overrides: ExpirableVersion[],
  options: { resolved?: boolean } = {},
): NamespacedCloudProfile {
  const byVersion = new Map(parent.spec.kubernetes.versions.map((v) => [v.version, v]));
  for (const o of overrides) byVersion.set(o.version, { ...byVersion.get(o.version), ...o });
  return {
    apiVersion: "core.gardener.cloud/v1beta1",
    kind: "NamespacedCloudProfile",
    metadata: { name, namespace },
    spec: { parent: { kind: "CloudProfile", name: parent.metadata.name }, kubernetes: { versions: overrides } },
    ...(options.resolved === false
      ? {}
      : {
          status: {
            cloudProfileSpec: {
              ...parent.spec,
              kubernetes: { ...parent.spec.kubernetes, versions: [...byVersion.values()] },
            },
          },
        }),
  };
}
