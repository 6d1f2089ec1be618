// Whether a shoot has spec changes that confineSpecUpdateRollout holds back until its maintenance
// window. Gardener does not raise the generation for such a change (shoot-strategy.ts), so the
// generation cannot tell; the gardenlet keeps what it last rolled out in the seed's Cluster
// resource, which the garden does not show. Almanac's simulated gardenlet notes a fingerprint of
// the spec it starts reconciling in an annotation of its own instead: a spec that differs from it
// is pending. A shoot without the note (never reconciled here) shows nothing pending.
import type { Shoot, ShootSpec } from "../gardener/types.ts";
import { canonicalJson as canonical } from "./canonical-json.ts";
import { crc32 } from "./crc32.ts";

export const ANNOTATION_RECONCILED_SPEC = "almanac.gardener.cloud/reconciled-spec";

export function specFingerprint(spec: ShootSpec): string {
  const text = canonical(spec);
  return `${crc32(text).toString(16).padStart(8, "0")}-${text.length}`;
}

export function rolloutPending(shoot: Pick<Shoot, "metadata" | "spec">): boolean {
  if (shoot.spec.maintenance?.confineSpecUpdateRollout !== true) return false;
  const reconciled = shoot.metadata.annotations?.[ANNOTATION_RECONCILED_SPEC];
  return reconciled !== undefined && reconciled !== specFingerprint(shoot.spec);
}
