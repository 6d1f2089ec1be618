"use client";

// The profile of a shoot, read as the server reads it (lib/gardener/profile-reference.ts): the
// CloudProfile it names, or the merged spec of its NamespacedCloudProfile. It comes through one
// query definition, so the outlook, the timeline and the update dialogs share one request and one
// cache entry.
import { useQuery } from "@tanstack/react-query";
import { profileKeyOf } from "@/lib/gardener/profile-reference";
import type { Shoot } from "@/lib/ui/api-types";
import { shootProfileQuery } from "@/lib/client/queries";

/** How messages name the shoot's profile: a CloudProfile's name, or "namespace/name"; "" when it names none. */
export const shootProfileName = (shoot: Shoot) => profileKeyOf(shoot);

/** The shoot's profile; idle while the shoot names none. */
export function useShootCloudProfile(shoot: Shoot) {
  return useQuery(shootProfileQuery(shoot));
}
