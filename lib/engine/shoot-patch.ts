// What a user may change on a shoot through PATCH (a JSON merge patch, RFC 7386): the maintenance
// window, the auto-update flags, confineSpecUpdateRollout, hibernation (enabled, schedules), the
// Kubernetes and machine-image versions, a worker pool's machine image (its name, with a version),
// the seed tolerations and the registry-mirror extension. Anything else is an unknown field (400).
// Worker pools are matched by name, and extensions by type, as Kubernetes' strategic merge does for
// lists with a merge key, so a patch names only the pools it changes; `null` removes an optional
// field. Pure, so that both gardens apply a patch alike: the embedded one writes the result, the
// live one checks it before sending the patch on.
import { z } from "zod";
import { GARDENER_API_VERSION, type Shoot, type Worker } from "../gardener/types.ts";
import { canonicalJson } from "./canonical-json.ts";
import type { FieldError } from "./field-error.ts";
import {
  ANNOTATION_CLEANUP_EXTENDED_APIS_GRACE,
  ANNOTATION_CLEANUP_KUBERNETES_RESOURCES_GRACE,
  ANNOTATION_CLEANUP_WEBHOOKS_GRACE,
  ANNOTATION_CONFIRM_DELETION,
  ANNOTATION_SKIP_CLEANUP,
} from "./deletion-cleanup.ts";
import { ANNOTATION_OPERATION } from "./operation-annotations.ts";
import { MIRROR_CONFIG_FIELD, MIRROR_DISABLED_FIELD, registryMirrorExtension } from "./registry-mirrors.ts";
import { applyExtensionsPatch, extensionPatchSchema } from "./shoot-extensions-patch.ts";

const version = z.string().min(1).max(64);

export const shootPatchSchema = z.strictObject({
  apiVersion: z.literal(GARDENER_API_VERSION).optional(),
  kind: z.literal("Shoot").optional(),
  metadata: z
    .strictObject({
      resourceVersion: z
        .string()
        .regex(/^\d{1,15}$/, "must be the decimal resourceVersion of the shoot")
        .optional(),
      // The operations a user may ask of Gardener by annotation, as with kubectl annotate.
      annotations: z
        .strictObject({
          [ANNOTATION_OPERATION]: z.enum(["maintain", "reconcile", "retry"]).optional(),
          // Gardener deletes a shoot only after this confirmation.
          [ANNOTATION_CONFIRM_DELETION]: z.enum(["true"]).optional(),
          // How the deletion cleans up (shoot-advanced.md).
          [ANNOTATION_SKIP_CLEANUP]: z.enum(["true", "false"]).optional(),
          [ANNOTATION_CLEANUP_WEBHOOKS_GRACE]: z
            .string()
            .regex(/^\d{1,7}$/, "must be whole seconds")
            .optional(),
          [ANNOTATION_CLEANUP_EXTENDED_APIS_GRACE]: z
            .string()
            .regex(/^\d{1,7}$/, "must be whole seconds")
            .optional(),
          [ANNOTATION_CLEANUP_KUBERNETES_RESOURCES_GRACE]: z
            .string()
            .regex(/^\d{1,7}$/, "must be whole seconds")
            .optional(),
        })
        .optional(),
    })
    .optional(),
  spec: z
    .strictObject({
      kubernetes: z.strictObject({ version }).optional(),
      // null is accepted here only to answer it with a clear 422: these cannot be removed.
      maintenance: z
        .strictObject({
          timeWindow: z
            .strictObject({ begin: z.string().max(32), end: z.string().max(32) })
            .partial()
            .nullable()
            .optional(),
          autoUpdate: z
            .strictObject({
              kubernetesVersion: z.boolean().nullable(),
              machineImageVersion: z.boolean().nullable(),
            })
            .partial()
            .nullable()
            .optional(),
          confineSpecUpdateRollout: z.boolean().nullable().optional(),
        })
        .nullable()
        .optional(),
      hibernation: z
        .strictObject({
          enabled: z.boolean().optional(),
          // The whole list, replaced as a JSON merge patch replaces a list; null removes it. The
          // crons and zones are checked by the shoot's validation (a 422 naming the field).
          schedules: z
            .array(
              z.strictObject({
                start: z.string().max(256).optional(),
                end: z.string().max(256).optional(),
                location: z.string().max(128).optional(),
              }),
            )
            .max(100)
            .nullable()
            .optional(),
        })
        .optional(),
      // The whole list, replaced as a JSON merge patch replaces a list; null removes it. Keys and
      // values are checked by the shoot's validation (a 422 naming the toleration), not here.
      tolerations: z
        .array(z.strictObject({ key: z.string().max(400), value: z.string().max(400).optional() }))
        .max(100)
        .nullable()
        .optional(),
      provider: z
        .strictObject({
          workers: z
            .array(
              z.strictObject({
                name: z.string().min(1).max(63),
                // Another image of the profile needs its version, so `name` goes with `version`.
                machine: z
                  .strictObject({ image: z.strictObject({ name: z.string().min(1).max(63).optional(), version }) })
                  .optional(),
                kubernetes: z.strictObject({ version: version.nullable() }).optional(),
              }),
            )
            .max(100),
        })
        .optional(),
      // Matched by type; only registry-mirror (shoot-extensions-patch.ts).
      extensions: z.array(extensionPatchSchema).max(10).optional(),
    })
    .optional(),
});

export type ShootPatch = z.infer<typeof shootPatchSchema>;

const USER_ANNOTATIONS = [
  ANNOTATION_CONFIRM_DELETION,
  ANNOTATION_SKIP_CLEANUP,
  ANNOTATION_CLEANUP_WEBHOOKS_GRACE,
  ANNOTATION_CLEANUP_EXTENDED_APIS_GRACE,
  ANNOTATION_CLEANUP_KUBERNETES_RESOURCES_GRACE,
];

/** One field a change touched, with its value before and after (for the audit log). */
export interface FieldChange {
  readonly field: string;
  /** null when the field had no value (JSON has no undefined). */
  readonly before: unknown;
  readonly after: unknown;
}

/** The fields a patch can touch, read from a shoot, for the audit's before/after. */
function editableFields(shoot: Shoot): Map<string, unknown> {
  const m = shoot.spec.maintenance;
  const fields = new Map<string, unknown>([
    ["spec.kubernetes.version", shoot.spec.kubernetes.version],
    ["spec.maintenance.timeWindow.begin", m?.timeWindow?.begin],
    ["spec.maintenance.timeWindow.end", m?.timeWindow?.end],
    ["spec.maintenance.autoUpdate.kubernetesVersion", m?.autoUpdate?.kubernetesVersion],
    ["spec.maintenance.autoUpdate.machineImageVersion", m?.autoUpdate?.machineImageVersion],
    ["spec.maintenance.confineSpecUpdateRollout", m?.confineSpecUpdateRollout],
    ["spec.hibernation.enabled", shoot.spec.hibernation?.enabled],
    ["spec.hibernation.schedules", shoot.spec.hibernation?.schedules],
    ["spec.tolerations", shoot.spec.tolerations],
    [`metadata.annotations[${ANNOTATION_OPERATION}]`, shoot.metadata.annotations?.[ANNOTATION_OPERATION]],
    ...USER_ANNOTATIONS.map(
      (key) => [`metadata.annotations[${key}]`, shoot.metadata.annotations?.[key]] as [string, unknown],
    ),
  ]);
  for (const w of shoot.spec.provider?.workers ?? []) {
    fields.set(`spec.provider.workers[name=${w.name}].machine.image.name`, w.machine.image?.name);
    fields.set(`spec.provider.workers[name=${w.name}].machine.image.version`, w.machine.image?.version);
    fields.set(`spec.provider.workers[name=${w.name}].kubernetes.version`, w.kubernetes?.version);
  }
  fields.set(MIRROR_CONFIG_FIELD, registryMirrorExtension(shoot)?.providerConfig);
  // Saving mirrors enables a disabled extension (shoot-extensions-patch.ts): a change of its own.
  fields.set(MIRROR_DISABLED_FIELD, registryMirrorExtension(shoot)?.disabled);
  return fields;
}

export function changedFields(before: Shoot, after: Shoot): FieldChange[] {
  const a = editableFields(before);
  const b = editableFields(after);
  const changes: FieldChange[] = [];
  for (const [field, value] of b) {
    // By JSON with sorted keys: some fields are lists (spec.tolerations) or objects (the registry
    // mirrors' providerConfig, which jsonb gives back with its keys reordered).
    const previous = a.get(field);
    if (canonicalJson(previous) !== canonicalJson(value)) changes.push({ field, before: previous, after: value });
  }
  return changes;
}

/** The patched copy, or why the patch cannot apply to this shoot (the first problem found). */
export type PatchResult =
  | { readonly shoot: Shoot; readonly problem?: undefined }
  | { readonly shoot?: undefined; readonly problem: FieldError };

const cannotRemove = (field: string, why: string): PatchResult => ({
  problem: { field, type: "Forbidden", detail: `cannot be removed (null); ${why}` },
});

/** Applies the patch to a copy of `shoot`: a field that cannot be removed, or an unknown worker pool, is a problem. */
export function applyShootPatch(shoot: Shoot, patch: ShootPatch): PatchResult {
  const next: Shoot = structuredClone(shoot);
  const operation = patch.metadata?.annotations?.[ANNOTATION_OPERATION];
  if (operation) next.metadata.annotations = { ...next.metadata.annotations, [ANNOTATION_OPERATION]: operation };
  for (const [key, value] of Object.entries(patch.metadata?.annotations ?? {})) {
    if (key !== ANNOTATION_OPERATION && value !== undefined)
      next.metadata.annotations = { ...next.metadata.annotations, [key]: value };
  }
  const spec = patch.spec;
  if (!spec) return { shoot: next };
  const extensionProblem = spec.extensions && applyExtensionsPatch(next, spec.extensions);
  if (extensionProblem) return { problem: extensionProblem };
  if (spec.kubernetes) next.spec.kubernetes.version = spec.kubernetes.version;
  if (spec.hibernation?.enabled !== undefined)
    next.spec.hibernation = { ...next.spec.hibernation, enabled: spec.hibernation.enabled };
  const schedules = spec.hibernation?.schedules;
  // An empty list is stored as none, as Gardener's API (omitempty) answers it.
  if (schedules === null || schedules?.length === 0) {
    if (next.spec.hibernation) delete next.spec.hibernation.schedules;
  } else if (schedules) {
    next.spec.hibernation = { ...next.spec.hibernation, schedules: schedules.map((s) => ({ ...s })) };
  }
  // An empty list is stored as none, as Gardener's API (omitempty) answers it.
  if (spec.tolerations === null || spec.tolerations?.length === 0) delete next.spec.tolerations;
  else if (spec.tolerations) next.spec.tolerations = spec.tolerations.map((t) => ({ ...t }));
  if (spec.maintenance === null) return cannotRemove("spec.maintenance", "set its fields instead");
  if (spec.maintenance?.timeWindow === null)
    return cannotRemove("spec.maintenance.timeWindow", "every shoot has a maintenance window; set begin and end");
  if (spec.maintenance?.autoUpdate === null)
    return cannotRemove("spec.maintenance.autoUpdate", "set kubernetesVersion and machineImageVersion instead");
  if (spec.maintenance?.autoUpdate?.kubernetesVersion === null)
    return cannotRemove("spec.maintenance.autoUpdate.kubernetesVersion", "set it to true or false");
  if (spec.maintenance) {
    const maintenance = (next.spec.maintenance ??= {});
    const { timeWindow, autoUpdate, confineSpecUpdateRollout } = spec.maintenance;
    if (timeWindow) {
      const current = maintenance.timeWindow;
      const begin = timeWindow.begin ?? current?.begin;
      const end = timeWindow.end ?? current?.end;
      if (begin === undefined || end === undefined) {
        return {
          problem: {
            field: `spec.maintenance.timeWindow.${begin === undefined ? "begin" : "end"}`,
            type: "Required",
            detail: "the shoot has no window yet, so set begin and end together",
          },
        };
      }
      maintenance.timeWindow = { begin, end };
    }
    if (autoUpdate) {
      // Only the flags given are written: an absent one keeps Gardener's default.
      const flags = (maintenance.autoUpdate ??= {});
      if (autoUpdate.kubernetesVersion !== undefined && autoUpdate.kubernetesVersion !== null)
        flags.kubernetesVersion = autoUpdate.kubernetesVersion;
      if (autoUpdate.machineImageVersion === null) delete flags.machineImageVersion;
      else if (autoUpdate.machineImageVersion !== undefined) flags.machineImageVersion = autoUpdate.machineImageVersion;
    }
    if (confineSpecUpdateRollout === null) delete maintenance.confineSpecUpdateRollout;
    else if (confineSpecUpdateRollout !== undefined) maintenance.confineSpecUpdateRollout = confineSpecUpdateRollout;
  }
  const workers: Worker[] = next.spec.provider?.workers ?? [];
  for (const [i, change] of (spec.provider?.workers ?? []).entries()) {
    const pool = workers.find((w) => w.name === change.name);
    if (!pool) {
      return {
        problem: {
          field: `spec.provider.workers[${i}].name`,
          type: "NotFound",
          detail: `no worker pool named "${change.name}"; pools: ${workers.map((w) => w.name).join(", ") || "none"}`,
        },
      };
    }
    if (change.machine) {
      if (!pool.machine.image) {
        return {
          problem: {
            field: `spec.provider.workers[${i}].machine.image.version`,
            type: "Forbidden",
            detail: "the pool names no machine image",
          },
        };
      }
      if (change.machine.image.name !== undefined) pool.machine.image.name = change.machine.image.name;
      pool.machine.image.version = change.machine.image.version;
    }
    if (change.kubernetes) {
      if (change.kubernetes.version === null) {
        if (pool.kubernetes) delete pool.kubernetes.version;
        if (pool.kubernetes && Object.keys(pool.kubernetes).length === 0) delete pool.kubernetes;
      } else {
        pool.kubernetes = { ...pool.kubernetes, version: change.kubernetes.version };
      }
    }
  }
  return { shoot: next };
}
