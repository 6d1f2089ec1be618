// The body of PATCH /api/v1/namespaces/{ns}/shoots/{name} (a JSON merge patch, RFC 7386): what
// the server validates, and what the pages' edits are typed as. The rules of applying it are the
// engine's (lib/engine/shoot-patch.ts), so the schema lives there beside them.
export { type ShootPatch, shootPatchSchema } from "../engine/shoot-patch.ts";
