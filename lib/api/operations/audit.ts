// The audit log, as pages and as a download.
import { z } from "zod";
import { auditAnswerSchema, auditEventSchema } from "../audit.ts";
import { EXPORT_FORMATS } from "../export.ts";
import { operation } from "../operation.ts";
import { download, exportMedia, onAnyProject } from "./common.ts";

const isoDate = z
  .string()
  .refine(
    (s) => /^\d{4}-\d{2}-\d{2}/.test(s) && !Number.isNaN(Date.parse(s)) && Number(s.slice(0, 4)) >= 1,
    "must be an ISO 8601 date or date-time from year 1 to 9999, like 2026-11-22 or 2026-11-22T10:00:00Z",
  )
  .transform((s) => new Date(s));

export const auditParams = z.strictObject({
  actor: z.string().min(1).max(256).optional(),
  action: z.string().min(1).max(100).optional(),
  kind: z.string().min(1).max(100).optional(),
  namespace: z.string().min(1).max(253).optional(),
  name: z.string().min(1).max(253).optional(),
  since: isoDate.optional(),
  until: isoDate.optional(),
  bulkAction: z.uuid().optional(),
  updateRun: z.uuid().optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
  cursor: z
    .string()
    .regex(/^\d{1,18}$/, "must be the nextCursor of a previous page")
    .optional(),
});
export type AuditParams = z.infer<typeof auditParams>;

export const exportAuditParams = auditParams
  .omit({ limit: true, cursor: true })
  .extend({ format: z.enum(EXPORT_FORMATS).default("csv") });

const auditFilterWords = {
  since: "ISO 8601 date or date-time: events at or after it.",
  until: "ISO 8601 date or date-time: events before it.",
  cursor: "The nextCursor of the previous page.",
  bulkAction: "A bulk action's id: only the events of its changes, one per shoot it changed.",
  updateRun: "An update run's id: only its events (made, approved, each stage, ...) and its changes to each shoot.",
};

export const listAudit = operation({
  method: "get",
  path: "/api/v1/audit",
  operationId: "listAudit",
  tag: "Audit",
  summary: "The audit log, newest first, filtered and paged",
  access: onAnyProject,
  query: auditParams,
  queryWords: auditFilterWords,
  answers: [{ status: 200, description: "A page of events.", json: auditAnswerSchema }],
  problems: [400],
});

export const exportAudit = operation({
  method: "get",
  path: "/api/v1/audit/export",
  operationId: "exportAudit",
  tag: "Audit",
  summary: "Download every event the log's filters select",
  access: onAnyProject,
  query: exportAuditParams,
  queryWords: auditFilterWords,
  answers: [
    { status: 200, description: "Every matching event.", media: exportMedia(auditEventSchema), headers: download },
  ],
  problems: [400],
});
