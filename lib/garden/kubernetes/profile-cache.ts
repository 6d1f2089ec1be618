// The mirror's profiles in memory, so that a shoot event does not read its profile from the
// database: loaded from the tables when a process starts following the garden, then kept by the
// profile followers after each write they commit. Keyed as everywhere profiles are held together
// (lib/gardener/profile-reference.ts): a CloudProfile by its name, a NamespacedCloudProfile by
// "namespace/name", holding what Gardener reads through it (its status.cloudProfileSpec).
import { profileKey, profileKeyOf, type ProfileReference } from "../../gardener/profile-reference.ts";
import type { CloudProfile, Shoot } from "../../gardener/types.ts";

export class ProfileCache {
  private readonly profiles = new Map<string, CloudProfile>();

  /** Everything at once (profilesByKey's map), at the start of following. */
  load(byKey: ReadonlyMap<string, CloudProfile>): void {
    this.profiles.clear();
    for (const [key, profile] of byKey) this.profiles.set(key, profile);
  }

  /** `profile` undefined: the profile is gone (or, namespaced, not resolved by Gardener yet). */
  set(reference: ProfileReference, profile: CloudProfile | undefined): void {
    if (profile) this.profiles.set(profileKey(reference), profile);
    else this.profiles.delete(profileKey(reference));
  }

  get(reference: ProfileReference): CloudProfile | undefined {
    return this.profiles.get(profileKey(reference));
  }

  /** Read at the moment a shoot's columns are computed (after its row is locked), never earlier. */
  readonly forShoot = (shoot: Shoot): CloudProfile | undefined => this.profiles.get(profileKeyOf(shoot));
}
