// What a user may change on a shoot through PATCH (a JSON merge patch, RFC 7386): the maintenance
// window, the auto-update flags, confineSpecUpdateRollout, and the Kubernetes and machine-image
// versions. Anything else is an unknown field (400). Worker pools are matched by name, as
// Kubernetes' strategic merge does for lists with a merge key, so a patch names only the pools
// it changes; `null` removes an optional field.
import { type ShootPatch, shootPatchSchema } from "../api/shoot-patch.ts";
import type { FieldChange } from "../api/audit.ts";
import type { Shoot, Worker } from "../gardener/types.ts";
import {
  ANNOTATION_CLEANUP_EXTENDED_APIS_GRACE, ANNOTATION_CLEANUP_KUBERNETES_RESOURCES_GRACE, ANNOTATION_CLEANUP_WEBHOOKS_GRACE,
  ANNOTATION_CONFIRM_DELETION, ANNOTATION_SKIP_CLEANUP,
} from "../engine/deletion-cleanup.ts";
import { ANNOTATION_OPERATION } from "../engine/operation-annotations.ts";
import { unprocessable } from "../http/api-error.ts";

// The schema is the API's (lib/api); the use case still finds it here.
export { type ShootPatch, shootPatchSchema };

const USER_ANNOTATIONS = [
  ANNOTATION_CONFIRM_DELETION,
  ANNOTATION_SKIP_CLEANUP,
  ANNOTATION_CLEANUP_WEBHOOKS_GRACE,
  ANNOTATION_CLEANUP_EXTENDED_APIS_GRACE,
  ANNOTATION_CLEANUP_KUBERNETES_RESOURCES_GRACE,
];

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
    [`metadata.annotations[${ANNOTATION_OPERATION}]`, shoot.metadata.annotations?.[ANNOTATION_OPERATION]],
    ...USER_ANNOTATIONS.map((key) => [`metadata.annotations[${key}]`, shoot.metadata.annotations?.[key]] as [string, unknown]),
  ]);
  for (const w of shoot.spec.provider?.workers ?? []) {
    fields.set(`spec.provider.workers[name=${w.name}].machine.image.version`, w.machine.image?.version);
    fields.set(`spec.provider.workers[name=${w.name}].kubernetes.version`, w.kubernetes?.version);
  }
  return fields;
}

export function changedFields(before: Shoot, after: Shoot): FieldChange[] {
  const a = editableFields(before);
  const b = editableFields(after);
  const changes: FieldChange[] = [];
  for (const [field, value] of b) {
    if (a.get(field) !== value) changes.push({ field, before: a.get(field), after: value });
  }
  return changes;
}

const cannotRemove = (field: string, why: string) =>
  unprocessable(`${field} cannot be removed: ${why}.`, [{ field, type: "Forbidden", detail: `cannot be removed (null); ${why}` }]);

/** Applies the patch to a copy of `shoot`; unknown worker pools are a 422. */
export function applyShootPatch(shoot: Shoot, patch: ShootPatch): Shoot {
  const next: Shoot = structuredClone(shoot);
  const operation = patch.metadata?.annotations?.[ANNOTATION_OPERATION];
  if (operation) next.metadata.annotations = { ...next.metadata.annotations, [ANNOTATION_OPERATION]: operation };
  for (const [key, value] of Object.entries(patch.metadata?.annotations ?? {})) {
    if (key !== ANNOTATION_OPERATION && value !== undefined) next.metadata.annotations = { ...next.metadata.annotations, [key]: value };
  }
  const spec = patch.spec;
  if (!spec) return next;
  if (spec.kubernetes) next.spec.kubernetes.version = spec.kubernetes.version;
  if (spec.hibernation) next.spec.hibernation = { ...next.spec.hibernation, enabled: spec.hibernation.enabled };
  if (spec.maintenance === null) throw cannotRemove("spec.maintenance", "set its fields instead");
  if (spec.maintenance?.timeWindow === null) throw cannotRemove("spec.maintenance.timeWindow", "every shoot has a maintenance window; set begin and end");
  if (spec.maintenance?.autoUpdate === null) throw cannotRemove("spec.maintenance.autoUpdate", "set kubernetesVersion and machineImageVersion instead");
  if (spec.maintenance?.autoUpdate?.kubernetesVersion === null) throw cannotRemove("spec.maintenance.autoUpdate.kubernetesVersion", "set it to true or false");
  if (spec.maintenance) {
    const maintenance = (next.spec.maintenance ??= {});
    const { timeWindow, autoUpdate, confineSpecUpdateRollout } = spec.maintenance;
    if (timeWindow) {
      const current = maintenance.timeWindow;
      const begin = timeWindow.begin ?? current?.begin;
      const end = timeWindow.end ?? current?.end;
      if (begin === undefined || end === undefined) {
        throw unprocessable("A maintenance window needs both begin and end.", [{
          field: `spec.maintenance.timeWindow.${begin === undefined ? "begin" : "end"}`, type: "Required",
          detail: "the shoot has no window yet, so set begin and end together",
        }]);
      }
      maintenance.timeWindow = { begin, end };
    }
    if (autoUpdate) {
      // Only the flags given are written: an absent one keeps Gardener's default.
      const flags = (maintenance.autoUpdate ??= {});
      if (autoUpdate.kubernetesVersion !== undefined && autoUpdate.kubernetesVersion !== null) flags.kubernetesVersion = autoUpdate.kubernetesVersion;
      if (autoUpdate.machineImageVersion === null) delete flags.machineImageVersion;
      else if (autoUpdate.machineImageVersion !== undefined) flags.machineImageVersion = autoUpdate.machineImageVersion;
    }
    if (confineSpecUpdateRollout === null) delete maintenance.confineSpecUpdateRollout;
    else if (confineSpecUpdateRollout !== undefined) maintenance.confineSpecUpdateRollout = confineSpecUpdateRollout;
  }
  const workers: Worker[] = next.spec.provider?.workers ?? [];
  spec.provider?.workers.forEach((change, i) => {
    const pool = workers.find((w) => w.name === change.name);
    if (!pool) {
      throw unprocessable(`The shoot has no worker pool "${change.name}".`, [{
        field: `spec.provider.workers[${i}].name`, type: "NotFound",
        detail: `no worker pool named "${change.name}"; pools: ${workers.map((w) => w.name).join(", ") || "none"}`,
      }]);
    }
    if (change.machine) {
      if (!pool.machine.image) {
        throw unprocessable(`Worker pool "${change.name}" has no machine image to update.`, [{
          field: `spec.provider.workers[${i}].machine.image.version`, type: "Forbidden", detail: "the pool names no machine image",
        }]);
      }
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
  });
  return next;
}
