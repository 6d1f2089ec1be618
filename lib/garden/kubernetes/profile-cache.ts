// The mirror's cloud profiles in memory, so that a shoot event does not read its profile from the
// database: loaded from the tables when a process starts following the garden, then kept by the
// profile follower after each write it commits. Keyed by a profile reference, not by a bare name,
// so that another kind of profile (a NamespacedCloudProfile, named within a namespace) fits beside
// the cluster-wide one: a new kind adds a case to ProfileRef, profileRefOf and profileKey.
import type { CloudProfile, Shoot } from "../../gardener/types.ts";
import { cloudProfileNameOf } from "../../gardener/types.ts";

export interface ProfileRef {
  readonly kind: "CloudProfile";
  readonly name: string;
}

export const profileKey = (ref: ProfileRef): string => `${ref.kind}/${ref.name}`;

/** The profile a shoot's derived columns are computed with. */
export const profileRefOf = (shoot: Shoot): ProfileRef => ({
  kind: "CloudProfile",
  name: cloudProfileNameOf(shoot) ?? "",
});

export class ProfileCache {
  private readonly profiles = new Map<string, CloudProfile>();

  set(ref: ProfileRef, profile: CloudProfile | undefined): void {
    if (profile) this.profiles.set(profileKey(ref), profile);
    else this.profiles.delete(profileKey(ref));
  }

  get(ref: ProfileRef): CloudProfile | undefined {
    return this.profiles.get(profileKey(ref));
  }

  /** Read at the moment a shoot's columns are computed (after its row is locked), never earlier. */
  readonly forShoot = (shoot: Shoot): CloudProfile | undefined => this.get(profileRefOf(shoot));
}
