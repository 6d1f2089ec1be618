// PATCH /api/v1/namespaces/{ns}/shoots/{name}: a user's change, checked by the engine's
// validation and written through the garden's write port. Optimistic concurrency: a
// resourceVersion from If-Match or metadata.resourceVersion must still be current (else 409).
import type { GardenIdentity } from "../auth/garden-identity.ts";
import type { ShootPatch } from "../api/shoot-patch.ts";
import type { Permission } from "../auth/roles.ts";
import { ANNOTATION_OPERATION } from "../engine/operation-annotations.ts";
import type { Shoot } from "../gardener/types.ts";
import type { Actor, ShootWrites } from "../garden/shoot-writes.ts";
import { invalid } from "../api/refusal.ts";
import { refusalError } from "./shoot-refusal.ts";

export interface UpdateShootRequest {
  readonly namespace: string;
  readonly name: string;
  /** The merge patch, as the operation's schema parsed it. */
  readonly body: ShootPatch;
  /** The If-Match header, if any. */
  readonly ifMatch: string | null;
  readonly actor: string;
  readonly requestId: string;
  readonly identity: GardenIdentity;
  readonly now: number;
  /** A record of the caller's written with the change where the garden can (Actor.alongside). */
  readonly alongside?: Actor["alongside"];
  /** Refuses (403) unless the caller may also do this: a patch that prepares a deletion needs admin. */
  readonly authorize?: (permission: Permission) => void;
}

/**
 * If-Match: `*`, or a list of entity tags like `"7", "8"`. If-Match compares strongly, so a weak
 * tag (`W/"7"`) never matches. Answers the versions that would match, or "*".
 */
function parseIfMatch(header: string | null): number[] | "*" | undefined {
  if (header === null || header.trim() === "") return undefined;
  const text = header.trim();
  if (text === "*") return "*";
  const versions: number[] = [];
  for (const part of text.split(",").map((p) => p.trim())) {
    const m = /^(W\/)?"(\d{1,15})"$/.exec(part);
    if (!m)
      throw invalid(`If-Match must hold entity tags of this API, like "7"; got ${text}.`, [
        { field: "header.If-Match", type: "Invalid", detail: `"${part}" is not an entity tag like "7"` },
      ]);
    if (!m[1]) versions.push(Number(m[2]));
  }
  return versions;
}

export async function updateShootFromPatch(garden: ShootWrites, req: UpdateShootRequest): Promise<Shoot> {
  const patch = req.body;
  // Confirming a deletion, or how it cleans up, is part of deleting: an admin's call. Everything
  // else a patch may do (windows, flags, versions, maintain, retry, hibernation) is an operator's.
  const annotations = Object.keys(patch.metadata?.annotations ?? {});
  if (annotations.some((key) => key !== ANNOTATION_OPERATION)) req.authorize?.("administer");
  const ifMatch = parseIfMatch(req.ifMatch);
  const precondition = {
    anyOf: Array.isArray(ifMatch) ? ifMatch : undefined,
    exactly: patch.metadata?.resourceVersion !== undefined ? Number(patch.metadata.resourceVersion) : undefined,
  };
  const key = { namespace: req.namespace, name: req.name };
  const written = await garden.patchShoot(
    { name: req.actor, requestId: req.requestId, identity: req.identity, alongside: req.alongside },
    key,
    patch,
    precondition,
    req.now,
  );
  if (!written.ok) throw refusalError(written.refusal, key, "change");
  return written.value;
}
