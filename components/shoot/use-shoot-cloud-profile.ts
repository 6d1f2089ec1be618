"use client";

// The cloud profile of a shoot. Its name is read as the server reads it (cloudProfile.name before
// the older cloudProfileName, lib/gardener/types.ts), and the profile comes through the one
// definition of a profile query, so the outlook, the timeline and the update dialogs share one
// request and one cache entry.
import { useQuery } from "@tanstack/react-query";
import { cloudProfileNameOf } from "@/lib/gardener/types";
import type { Shoot } from "@/lib/ui/api-types";
import { cloudProfileQuery } from "@/lib/ui/queries";

/** The name of the shoot's cloud profile; "" when it names none. */
export const shootProfileName = (shoot: Shoot) => cloudProfileNameOf(shoot) ?? "";

/** The shoot's cloud profile; idle while the shoot names none. */
export function useShootCloudProfile(shoot: Shoot) {
  return useQuery(cloudProfileQuery(shootProfileName(shoot)));
}
