// The body of PATCH /api/v1/namespaces/{ns}/shoots/{name} (a JSON merge patch, RFC 7386): what
// the server validates, and what the pages' edits are typed as.
import { z } from "zod";
import {
  ANNOTATION_CLEANUP_EXTENDED_APIS_GRACE, ANNOTATION_CLEANUP_KUBERNETES_RESOURCES_GRACE, ANNOTATION_CLEANUP_WEBHOOKS_GRACE,
  ANNOTATION_CONFIRM_DELETION, ANNOTATION_SKIP_CLEANUP,
} from "../engine/deletion-cleanup.ts";
import { ANNOTATION_OPERATION } from "../engine/operation-annotations.ts";
import { GARDENER_API_VERSION } from "../gardener/types.ts";

const version = z.string().min(1).max(64);

export const shootPatchSchema = z.strictObject({
  apiVersion: z.literal(GARDENER_API_VERSION).optional(),
  kind: z.literal("Shoot").optional(),
  metadata: z.strictObject({
    resourceVersion: z.string().regex(/^\d{1,15}$/, "must be the decimal resourceVersion of the shoot").optional(),
    // The operations a user may ask of Gardener by annotation, as with kubectl annotate.
    annotations: z.strictObject({
      [ANNOTATION_OPERATION]: z.enum(["maintain", "reconcile", "retry"]).optional(),
      // Gardener deletes a shoot only after this confirmation.
      [ANNOTATION_CONFIRM_DELETION]: z.enum(["true"]).optional(),
      // How the deletion cleans up (shoot-advanced.md).
      [ANNOTATION_SKIP_CLEANUP]: z.enum(["true", "false"]).optional(),
      [ANNOTATION_CLEANUP_WEBHOOKS_GRACE]: z.string().regex(/^\d{1,7}$/, "must be whole seconds").optional(),
      [ANNOTATION_CLEANUP_EXTENDED_APIS_GRACE]: z.string().regex(/^\d{1,7}$/, "must be whole seconds").optional(),
      [ANNOTATION_CLEANUP_KUBERNETES_RESOURCES_GRACE]: z.string().regex(/^\d{1,7}$/, "must be whole seconds").optional(),
    }).optional(),
  }).optional(),
  spec: z.strictObject({
    kubernetes: z.strictObject({ version }).optional(),
    // null is accepted here only to answer it with a clear 422: these cannot be removed.
    maintenance: z.strictObject({
      timeWindow: z.strictObject({ begin: z.string().max(32), end: z.string().max(32) }).partial().nullable().optional(),
      autoUpdate: z.strictObject({
        kubernetesVersion: z.boolean().nullable(),
        machineImageVersion: z.boolean().nullable(),
      }).partial().nullable().optional(),
      confineSpecUpdateRollout: z.boolean().nullable().optional(),
    }).nullable().optional(),
    hibernation: z.strictObject({ enabled: z.boolean() }).optional(),
    provider: z.strictObject({
      workers: z.array(z.strictObject({
        name: z.string().min(1).max(63),
        machine: z.strictObject({ image: z.strictObject({ version }) }).optional(),
        kubernetes: z.strictObject({ version: version.nullable() }).optional(),
      })).max(100),
    }).optional(),
  }).optional(),
});

export type ShootPatch = z.infer<typeof shootPatchSchema>;
