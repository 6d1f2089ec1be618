// Sending a guarded edit of a shoot, whatever carries the requests. The merge patch carries the
// resourceVersion the user's choice was made on; on a 409 the shoot is read again and
// guarded-patch.ts judges the change by the part of the shoot it is about: sent again on the
// current version, reported as already made, or handed back with the current shoot for the user to
// decide again. Other failures (refusals, the network) are thrown as they are.
import { RequestError } from "../ui/api.ts";
import type { Shoot } from "../ui/api-types.ts";
import { recheckConflict, type ChangedPart } from "./guarded-patch.ts";

export interface ShootEdit<P> extends ChangedPart<P> {
  /** The resourceVersion the change was made on. */
  readonly resourceVersion: string | undefined;
  /** The merge patch, guarded by the resourceVersion given. */
  readonly patch: (resourceVersion: string | undefined) => unknown;
  /** Reads the part of a shoot the change is about (compared with `base` and `wanted`). */
  readonly part: (shoot: Shoot) => P;
}

export type EditOutcome =
  /** The change is saved; `shoot` is the server's answer. */
  | { readonly outcome: "saved"; readonly shoot: Shoot }
  /** Someone else made the same change first; nothing was sent. */
  | { readonly outcome: "applied"; readonly shoot: Shoot }
  /** Someone changed the part differently; nothing was saved. `conflict` is the server's 409. */
  | { readonly outcome: "superseded"; readonly current: Shoot; readonly conflict: RequestError };

/** How an edit reaches the shoot: PATCH it (answering the saved shoot) and read it as it is now. */
export interface EditTransport {
  readonly patch: (body: unknown) => Promise<Shoot>;
  readonly read: () => Promise<Shoot>;
}

// A re-sent patch can meet another 409 while the gardenlet keeps writing the status; each try
// re-checks first, and after these many the 409 is reported as it is.
export const EDIT_TRIES = 3;

export const isConflict = (error: unknown): error is RequestError =>
  error instanceof RequestError && error.status === 409;

export async function sendEdit<P>(edit: ShootEdit<P>, transport: EditTransport): Promise<EditOutcome> {
  let resourceVersion = edit.resourceVersion;
  for (let tries = 1; ; tries++) {
    try {
      return { outcome: "saved", shoot: await transport.patch(edit.patch(resourceVersion)) };
    } catch (error) {
      if (!isConflict(error) || tries === EDIT_TRIES) throw error;
      const current = await transport.read();
      const verdict = recheckConflict(edit, edit.part(current));
      if (verdict === "superseded") return { outcome: "superseded", current, conflict: error };
      if (verdict === "applied") return { outcome: "applied", shoot: current };
      resourceVersion = current.metadata.resourceVersion;
    }
  }
}
