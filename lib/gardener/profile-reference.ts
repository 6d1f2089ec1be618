// Which profile a shoot's versions, images and machine types come from, read as Gardener reads it
// (pkg/utils/gardener/cloudprofile.go): spec.cloudProfile {kind, name} when set (no kind means a
// CloudProfile; a kind Gardener does not know names no profile it can read), else the older
// spec.cloudProfileName. A
// NamespacedCloudProfile lives in the shoot's own namespace, and Gardener takes its merged spec
// from status.cloudProfileSpec.
//
// Everywhere profiles are held together they are keyed by profileKey: a CloudProfile by its name,
// a NamespacedCloudProfile by "namespace/name". Object names never hold "/", so the two never meet.
import {
  type CloudProfile,
  cloudProfileNameOf,
  GARDENER_API_VERSION,
  type NamespacedCloudProfile,
  type Shoot,
} from "./types.ts";

export interface ProfileReference {
  readonly kind: "CloudProfile" | "NamespacedCloudProfile";
  readonly name: string;
  /** A NamespacedCloudProfile's namespace: the shoot's. */
  readonly namespace?: string;
}

export function profileReferenceOf(shoot: Shoot): ProfileReference | undefined {
  const name = cloudProfileNameOf(shoot);
  if (!name) return undefined;
  const kind = shoot.spec.cloudProfile?.name ? (shoot.spec.cloudProfile.kind ?? "") : "";
  if (kind === "NamespacedCloudProfile")
    return { kind: "NamespacedCloudProfile", name, namespace: shoot.metadata.namespace ?? "" };
  if (kind === "" || kind === "CloudProfile") return { kind: "CloudProfile", name };
  return undefined;
}

export function profileKey(reference: ProfileReference): string {
  return reference.kind === "NamespacedCloudProfile"
    ? `${reference.namespace ?? ""}/${reference.name}`
    : reference.name;
}

/** The key of the shoot's profile in a map of profiles ("" when it names none). */
export function profileKeyOf(shoot: Shoot): string {
  const reference = profileReferenceOf(shoot);
  return reference ? profileKey(reference) : "";
}

/** How messages name the profile: `cloud profile "aws"`, `namespaced cloud profile "garden-dev/aws-long"`. */
export function describeProfileReference(reference: ProfileReference | undefined): string {
  if (!reference) return 'cloud profile ""';
  return reference.kind === "NamespacedCloudProfile"
    ? `namespaced cloud profile "${reference.namespace}/${reference.name}"`
    : `cloud profile "${reference.name}"`;
}

/** The message of a shoot whose profile cannot be read. */
export function missingProfileMessage(shoot: Shoot): string {
  return `${describeProfileReference(profileReferenceOf(shoot))} not found`;
}

/**
 * A NamespacedCloudProfile as the CloudProfile Gardener reads through it: its identity, with
 * status.cloudProfileSpec as the spec and its parent named. Undefined until Gardener's controller
 * has written that status: Gardener then has no merged spec either (its status field is empty),
 * so Almanac treats the profile as missing rather than guess a merge of its own.
 */
export function resolvedNamespacedProfile(profile: NamespacedCloudProfile): CloudProfile | undefined {
  const spec = profile.status?.cloudProfileSpec;
  if (!spec || typeof spec !== "object" || !spec.kubernetes) return undefined;
  return {
    apiVersion: GARDENER_API_VERSION,
    kind: "NamespacedCloudProfile",
    metadata: profile.metadata,
    spec,
    parent: { kind: profile.spec.parent?.kind ?? "CloudProfile", name: profile.spec.parent?.name ?? "" },
  };
}

/** The CloudProfile a profile rests on: its own name, or a resolved NamespacedCloudProfile's parent. */
export function parentProfileName(profile: CloudProfile): string {
  return profile.parent?.name ?? profile.metadata.name;
}

/**
 * The name the fleet list files a shoot under (its cloud_profile column): the CloudProfile it
 * rests on. For a NamespacedCloudProfile that is the parent, known only once resolved; until
 * then "" (the NamespacedCloudProfile's change rewrites the shoot's columns when it comes).
 */
export function fleetProfileName(shoot: Shoot, profile: CloudProfile | undefined): string {
  const reference = profileReferenceOf(shoot);
  if (!reference) return "";
  if (reference.kind === "CloudProfile") return reference.name;
  return profile ? parentProfileName(profile) : "";
}
