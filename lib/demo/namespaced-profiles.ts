// The demo's NamespacedCloudProfile: one project (analytics) keeps its clusters on Kubernetes
// versions longer than the landscape's CloudProfile allows, as teams do with Gardener's
// NamespacedCloudProfiles: every version of the parent that still has an expiration date ahead
// gets one EXTENSION_DAYS later. Its shoots name it in spec.cloudProfile (the only field shoots of
// Kubernetes 1.34 and later have). Only dates ahead move, so the history already replayed against
// the parent stays true. status.cloudProfileSpec holds the merge, as Gardener's controller writes it.
import { GARDENER_API_VERSION, type CloudProfile, type NamespacedCloudProfile, type Shoot } from "../gardener/types.ts";
import { uuid, type Rng } from "./random.ts";
import { DAY, iso } from "./time.ts";

export const EXTENDING_PROJECT_NAMESPACE = "garden-analytics";
export const EXTENDED_PARENT = "aws";
export const EXTENDED_PROFILE = "aws-extended";
const EXTENSION_DAYS = 120;

/** The demo's NamespacedCloudProfiles (their shoots are moved by moveOntoNamespacedProfile). */
export function namespacedProfilesOf(
  cloudProfiles: readonly CloudProfile[],
  now: number,
  rng: Rng,
): NamespacedCloudProfile[] {
  const parent = cloudProfiles.find((p) => p.metadata.name === EXTENDED_PARENT);
  if (!parent) return [];
  const extended = parent.spec.kubernetes.versions
    .filter((v) => v.expirationDate !== undefined && Date.parse(v.expirationDate) > now)
    .map((v) => ({ version: v.version, expirationDate: iso(Date.parse(v.expirationDate!) + EXTENSION_DAYS * DAY) }));
  const later = new Map(extended.map((v) => [v.version, v.expirationDate]));
  const created = iso(now - 90 * DAY);
  const profile: NamespacedCloudProfile = {
    apiVersion: GARDENER_API_VERSION,
    kind: "NamespacedCloudProfile",
    metadata: {
      name: EXTENDED_PROFILE,
      namespace: EXTENDING_PROJECT_NAMESPACE,
      uid: uuid(rng),
      generation: 1,
      creationTimestamp: created,
    },
    spec: { parent: { kind: "CloudProfile", name: parent.metadata.name }, kubernetes: { versions: extended } },
    status: {
      observedGeneration: 1,
      cloudProfileSpec: {
        ...parent.spec,
        kubernetes: {
          ...parent.spec.kubernetes,
          versions: parent.spec.kubernetes.versions.map((v) =>
            later.has(v.version) ? { ...v, expirationDate: later.get(v.version) } : v,
          ),
        },
      },
    },
  };
  return [profile];
}

/**
 * Moves a shoot of the extending project from the parent profile onto the project's own (in
 * place), once its history was made against the parent. Only where the landscape has that parent
 * (namespacedProfilesOf made the profile).
 */
export function moveOntoNamespacedProfile(shoot: Shoot): void {
  if (shoot.metadata.namespace !== EXTENDING_PROJECT_NAMESPACE) return;
  if (shoot.spec.cloudProfile?.name !== EXTENDED_PARENT) return;
  shoot.spec.cloudProfile = { kind: "NamespacedCloudProfile", name: EXTENDED_PROFILE };
  delete shoot.spec.cloudProfileName;
}
