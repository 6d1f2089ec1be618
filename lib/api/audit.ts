// GET /api/v1/audit: the audit log, newest first, paged by event id.

import { z } from "zod";
import type { FieldChange } from "../engine/shoot-patch.ts";
import { component } from "./components.ts";
import { describes } from "./schema-agreement.ts";

export type { FieldChange };

export interface AuditEvent {
  readonly id: string;
  readonly at: string;
  readonly actor: string;
  readonly action: string;
  readonly target: { readonly kind: string; readonly namespace?: string; readonly name?: string };
  readonly changes: readonly FieldChange[];
  readonly requestId?: string;
  /** The bulk action this change was part of (POST /api/v1/bulk-actions), if any. */
  readonly bulkActionId?: string;
  /** The update run this change or event was part of (POST /api/v1/update-runs), if any. */
  readonly updateRunId?: string;
}

export interface AuditAnswer {
  readonly items: readonly AuditEvent[];
  /** The id to pass as `cursor` for older events; null on the last page. */
  readonly nextCursor: string | null;
}

export const fieldChangeSchema = describes<FieldChange>()(
  component(
    "FieldChange",
    z.object({
      field: z.string(),
      before: z.unknown().meta({ description: "null when the field had no value" }),
      after: z.unknown(),
    }),
  ),
);

export const auditEventFields = {
  id: z.string(),
  at: z.string(),
  actor: z.string(),
  action: z.string(),
  target: z.object({ kind: z.string(), namespace: z.string().optional(), name: z.string().optional() }),
  changes: z.array(fieldChangeSchema),
  requestId: z.string().optional(),
  bulkActionId: z
    .string()
    .optional()
    .meta({ description: "The bulk action this change was part of (POST /api/v1/bulk-actions), if any." }),
  updateRunId: z.string().optional().meta({
    description: "The update run this change or event was part of (POST /api/v1/update-runs), if any.",
  }),
};

export const auditEventSchema = describes<AuditEvent>()(component("AuditEvent", z.object(auditEventFields)));

export const auditAnswerSchema = describes<AuditAnswer>()(
  component(
    "AuditPage",
    z.object({
      items: z.array(auditEventSchema),
      nextCursor: z
        .string()
        .nullable()
        .meta({ description: "Pass as cursor for older events; null on the last page." }),
    }),
  ),
);
