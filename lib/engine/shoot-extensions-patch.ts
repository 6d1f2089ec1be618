// spec.extensions in a user's PATCH: the list is matched by `type`, as Gardener's strategic merge
// key for it is (worker pools likewise by name), so a patch names only the extension it changes.
// Only the registry-mirror extension may be changed here: `providerConfig` replaces its
// configuration (adding the extension when the shoot has none, and enabling it when the shoot had
// disabled it), `providerConfig: null` removes it.
// Whether the new configuration is valid is judged with the rest of the shoot
// (registry-mirrors.ts, registryMirrorChangeProblems), so that every problem is named at once.
import { z } from "zod";
import type { Shoot } from "../gardener/types.ts";
import type { FieldError } from "./field-error.ts";
import { REGISTRY_MIRROR_EXTENSION } from "./registry-mirrors.ts";

/** How deep a providerConfig may nest: a mirror configuration needs 4 levels, so 32 is ample. */
export const MAX_PROVIDER_CONFIG_DEPTH = 32;

/**
 * How deep `value` nests (a scalar is 0), or MAX + 1 as soon as it is deeper. Walked with a stack,
 * not recursively: a 1 MB body can nest hundreds of thousands of levels, and the recursive walkers
 * behind it (canonicalJson, the audit) must never see such a value.
 */
export function jsonDepthOver(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (item === null || typeof item !== "object") continue;
    if (depth + 1 > max) return true;
    for (const child of Object.values(item)) stack.push([child, depth + 1]);
  }
  return false;
}

export const extensionPatchSchema = z.strictObject({
  type: z.string().min(1).max(63),
  // Any JSON, nested at most MAX_PROVIDER_CONFIG_DEPTH deep: the registry-mirror rules name what is
  // wrong in it field by field (422), and recognize a configuration in containerd's deprecated
  // registry.mirrors pattern.
  providerConfig: z
    .unknown()
    .refine((v) => !jsonDepthOver(v, MAX_PROVIDER_CONFIG_DEPTH), {
      message: `must not nest more than ${MAX_PROVIDER_CONFIG_DEPTH} levels deep`,
    })
    .optional(),
});

export type ExtensionPatch = z.infer<typeof extensionPatchSchema>;

/** Applies the extensions of a patch to `next` (a copy); the first problem found, if any. */
export function applyExtensionsPatch(next: Shoot, changes: readonly ExtensionPatch[]): FieldError | undefined {
  const seen = new Set<string>();
  for (const [i, change] of changes.entries()) {
    const at = `spec.extensions[${i}]`;
    if (change.type !== REGISTRY_MIRROR_EXTENSION)
      return {
        type: "NotSupported",
        field: `${at}.type`,
        value: change.type,
        detail: `only the "${REGISTRY_MIRROR_EXTENSION}" extension can be changed through Almanac`,
      };
    if (seen.has(change.type))
      return { type: "Duplicate", field: `${at}.type`, value: change.type, detail: "named twice in the patch" };
    seen.add(change.type);
    if (change.providerConfig === undefined)
      return {
        type: "Required",
        field: `${at}.providerConfig`,
        detail: "give the new configuration, or null to remove the extension",
      };
    const list = [...(next.spec.extensions ?? [])];
    const index = list.findIndex((e) => e.type === change.type);
    if (change.providerConfig === null) {
      if (index === -1) continue;
      list.splice(index, 1);
    } else if (index === -1) {
      list.push({ type: change.type, providerConfig: change.providerConfig });
    } else {
      // Saving mirrors onto an extension the shoot turned off (`disabled: true`, which switches off
      // an extension enabled for the whole garden) turns it back on: a configuration that stayed
      // disabled would not reach a single node, which is not what the person saving it means.
      const { disabled, ...kept } = list[index];
      list[index] = { ...kept, ...(disabled === false ? { disabled } : {}), providerConfig: change.providerConfig };
    }
    if (list.length > 0) next.spec.extensions = list;
    else delete next.spec.extensions;
  }
  return undefined;
}
