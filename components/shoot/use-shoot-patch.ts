"use client";

// "Patch this shoot with a 409 re-check", for every edit of a shoot (the update dialogs, the
// maintenance editor): the merge patch carries the resourceVersion the user's choice was made on.
// On a 409 the shoot is read again and lib/ui/guarded-patch.ts judges the change by the part of
// the shoot it is about: sent again on the current version, reported as already made, or handed
// back with the current shoot for the user to decide again. A saved shoot goes into the cache at
// once, so the page shows it without waiting for the live feed.
import { useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { apiSend, RequestError, shootPath } from "@/lib/ui/api";
import type { Shoot } from "@/lib/ui/api-types";
import { recheckConflict, type ChangedPart } from "@/lib/ui/guarded-patch";
import { shootQuery } from "@/lib/ui/queries";
import { queryKeys } from "@/lib/ui/query-keys";

export interface ShootChange<P> extends ChangedPart<P> {
  /** The resourceVersion the change was made on. */
  readonly resourceVersion: string | undefined;
  /** The merge patch, guarded by the resourceVersion given. */
  readonly patch: (resourceVersion: string | undefined) => unknown;
  /** Reads the part of a shoot the change is about (compared with `base` and `wanted`). */
  readonly part: (shoot: Shoot) => P;
}

export type PatchOutcome =
  /** The change is saved; `shoot` is the server's answer. */
  | { readonly outcome: "saved"; readonly shoot: Shoot }
  /** Someone else made the same change first; nothing was sent. */
  | { readonly outcome: "applied"; readonly shoot: Shoot }
  /** Someone changed the part differently; nothing was saved. */
  | { readonly outcome: "superseded"; readonly current: Shoot; readonly conflict: RequestError };

// A re-sent patch can meet another 409 while the gardenlet keeps writing the status; each try
// re-checks first, and after these many the 409 is reported as it is.
const TRIES = 3;

/** Other failures (refusals, the network) are thrown as they are. */
export function useShootPatch(namespace: string, name: string) {
  const queryClient = useQueryClient();
  return useCallback(
    async <P>(change: ShootChange<P>): Promise<PatchOutcome> => {
      let resourceVersion = change.resourceVersion;
      for (let tries = 1; ; tries++) {
        let saved: Shoot;
        try {
          saved = await apiSend<Shoot>("PATCH", shootPath(namespace, name), change.patch(resourceVersion));
        } catch (error) {
          if (!(error instanceof RequestError && error.status === 409) || tries === TRIES) throw error;
          // fetchQuery puts the current shoot into the cache too.
          const current = await queryClient.fetchQuery({ ...shootQuery(namespace, name), staleTime: 0 });
          const verdict = recheckConflict(change, change.part(current));
          if (verdict === "superseded") return { outcome: "superseded", current, conflict: error };
          if (verdict === "applied") return { outcome: "applied", shoot: current };
          resourceVersion = current.metadata.resourceVersion;
          continue;
        }
        queryClient.setQueryData(queryKeys.shoot(namespace, name), saved);
        // The shoot's parts (its plan, its history) follow from what was saved.
        await queryClient.invalidateQueries({ queryKey: queryKeys.shoot(namespace, name) });
        return { outcome: "saved", shoot: saved };
      }
    },
    [namespace, name, queryClient],
  );
}
