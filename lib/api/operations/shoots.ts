// The fleet's shoots: the list, its tiles and its download, one shoot, its changes, its deletion,
// its history and its maintenance.
import { z } from "zod";
import { type LabelRequirement, parseLabelSelector } from "../../engine/label-selector-string.ts";
import { SHOOT_PURPOSES } from "../../engine/shoot-purpose.ts";
import { SHOOT_STATUS_LABELS } from "../../engine/status-label.ts";
import { CLASSIFICATIONS } from "../../gardener/types.ts";
import { shootCleanupAnswerSchema } from "../cleanup.ts";
import { shootDeletionAnswerSchema, startedDeletionAnswerSchema } from "../deletion.ts";
import { EXPORT_FORMATS } from "../export.ts";
import { shootSchema } from "../garden-objects.ts";
import { shootHistoryAnswerSchema } from "../history.ts";
import { maintainNowAnswerSchema } from "../maintain-now.ts";
import { maintenancePlanSchema } from "../maintenance-plan.ts";
import { shootNodesAnswerSchema } from "../nodes.ts";
import { operation } from "../operation.ts";
import { fleetSummarySchema, shootListAnswerSchema, shootRowSchema } from "../shoot-list.ts";
import { shootPatchSchema } from "../shoot-patch.ts";
import { SHOOT_SORTS, type ShootSort } from "../shoot-sorts.ts";
import { download, etagHeader, exportMedia, fleetFilterWords, onAnyProject, onProject, SHOOT } from "./common.ts";

const MAX_LIMIT = 500;
const name = z.string().min(1).max(253);

/** GET /api/v1/shoots's query: the list's filters, its sort and its page. */
export const listShootsParams = z.strictObject({
  namespace: name.optional(),
  project: name.optional(),
  status: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined) return undefined;
      const labels = v
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean);
      const bad = labels.filter((l) => !(SHOOT_STATUS_LABELS as readonly string[]).includes(l));
      if (bad.length > 0)
        ctx.addIssue({
          code: "custom",
          message: `unknown status ${bad.map((b) => `"${b}"`).join(", ")}; use ${SHOOT_STATUS_LABELS.join(", ")} (comma-separated)`,
        });
      return labels;
    }),
  purpose: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined) return undefined;
      const purposes = v
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean);
      const bad = purposes.filter((p) => !(SHOOT_PURPOSES as readonly string[]).includes(p));
      if (bad.length > 0)
        ctx.addIssue({
          code: "custom",
          message: `unknown purpose ${bad.map((b) => `"${b}"`).join(", ")}; use ${SHOOT_PURPOSES.join(", ")} (comma-separated)`,
        });
      return [...new Set(purposes)];
    }),
  labels: z
    .string()
    .optional()
    .transform((v, ctx): readonly LabelRequirement[] | undefined => {
      if (v === undefined) return undefined;
      const parsed = parseLabelSelector(v);
      if (!parsed.ok) {
        ctx.addIssue({ code: "custom", message: `not a label selector: ${parsed.error}` });
        return undefined;
      }
      return parsed.requirements;
    }),
  q: z.string().max(200).optional(),
  expiringWithinDays: z.coerce.number().int().min(0).max(3650).optional(),
  classification: z.enum(CLASSIFICATIONS).optional(),
  cloudProfile: name.optional(),
  seed: name.optional(),
  sort: z
    .string()
    .optional()
    .transform((v, ctx) => {
      const text = v ?? "name";
      const field = text.replace(/^-/, "");
      if (!(SHOOT_SORTS as readonly string[]).includes(field)) {
        ctx.addIssue({
          code: "custom",
          message: `cannot sort by "${field}"; use one of ${SHOOT_SORTS.join(", ")}, with "-" in front for descending`,
        });
      }
      return { field: field as ShootSort, descending: text.startsWith("-") };
    }),
  limit: z.coerce.number().int().min(1).max(MAX_LIMIT).default(50),
  cursor: z.string().max(2000).optional(),
});
export type ListShootsParams = z.infer<typeof listShootsParams>;

/** The tiles count what the list's filters select, whatever its sort and page. */
export const summaryParams = listShootsParams.omit({ sort: true, limit: true, cursor: true });

/** The download takes the list's filters and sort, and a format; no page. */
export const exportShootsParams = listShootsParams
  .omit({ limit: true, cursor: true })
  .extend({ format: z.enum(EXPORT_FORMATS).default("csv") });

export const nodesParams = z.strictObject({ through: z.enum(["viewer-kubeconfig"]).optional() });

export const historyParams = z.strictObject({ limit: z.coerce.number().int().min(1).max(500).default(100) });

export const planParams = z.strictObject({
  at: z
    .string()
    .refine(
      (s) => /^\d{4}-\d{2}-\d{2}T/.test(s) && !Number.isNaN(Date.parse(s)),
      "must be an ISO 8601 date-time like 2026-12-03T22:00:00Z",
    )
    .transform((s) => Date.parse(s))
    .optional(),
});

export const listShoots = operation({
  method: "get",
  path: "/api/v1/shoots",
  operationId: "listShoots",
  tag: "Shoots",
  summary: "List the fleet's shoots, filtered, sorted and paged",
  access: onAnyProject,
  query: listShootsParams,
  queryWords: fleetFilterWords,
  answers: [{ status: 200, description: "A page of shoots.", json: shootListAnswerSchema }],
  problems: [400],
});

export const summarizeShoots = operation({
  method: "get",
  path: "/api/v1/shoots/summary",
  operationId: "summarizeShoots",
  tag: "Shoots",
  summary: "Count the fleet's shoots by status and by coming expiry",
  access: onAnyProject,
  query: summaryParams,
  queryWords: fleetFilterWords,
  answers: [{ status: 200, description: "The fleet page's tiles.", json: fleetSummarySchema }],
  problems: [400],
});

export const exportShoots = operation({
  method: "get",
  path: "/api/v1/shoots/export",
  operationId: "exportShoots",
  tag: "Shoots",
  summary: "Download every shoot the list's filters select",
  access: onAnyProject,
  query: exportShootsParams,
  queryWords: fleetFilterWords,
  answers: [{ status: 200, description: "Every matching row.", media: exportMedia(shootRowSchema), headers: download }],
  problems: [400],
});

export const getShoot = operation({
  method: "get",
  path: SHOOT,
  operationId: "getShoot",
  tag: "Shoots",
  summary: "Read a shoot",
  access: onProject,
  requestHeaders: ["If-None-Match"],
  answers: [
    { status: 200, description: "The shoot as the garden has it.", json: shootSchema, headers: etagHeader },
    { status: 304, description: "Unchanged since the ETag given in If-None-Match.", headers: etagHeader },
  ],
  problems: [404, 503],
});

export const patchShoot = operation({
  method: "patch",
  path: SHOOT,
  operationId: "patchShoot",
  tag: "Shoots",
  summary: "Change a shoot's maintenance, versions, hibernation or annotations",
  description:
    "A JSON merge patch (RFC 7386) of the fields Almanac lets people change. With If-Match, the change is made only " +
    "if the shoot is still at that resourceVersion (409 otherwise). The deletion annotations need the admin role.",
  access: { need: "operate", project: "namespace" },
  requestHeaders: ["If-Match"],
  body: {
    schema: shootPatchSchema,
    mediaTypes: ["application/merge-patch+json", "application/json"],
    invalid: "The patch names fields that cannot be changed, or has values of the wrong type.",
    notAnObject: "A JSON merge patch must be a JSON object.",
  },
  answers: [{ status: 200, description: "The shoot as changed.", json: shootSchema, headers: etagHeader }],
  problems: [400, 404, 409, 413, 415, 422, 502, 503],
});

export const deleteShoot = operation({
  method: "delete",
  path: SHOOT,
  operationId: "deleteShoot",
  tag: "Shoots",
  summary: "Delete a shoot",
  description: "As Gardener: only with the annotation confirmation.gardener.cloud/deletion=true set first.",
  access: { need: "administer", project: "namespace" },
  answers: [{ status: 202, description: "The deletion started.", json: startedDeletionAnswerSchema }],
  problems: [404, 409, 422, 502, 503],
});

export const getShootDeletion = operation({
  method: "get",
  path: `${SHOOT}/deletion`,
  operationId: "getShootDeletion",
  tag: "Shoots",
  summary: "Follow a shoot's deletion, also after the shoot is gone",
  access: onProject,
  answers: [{ status: 200, description: "The latest deletion and its steps.", json: shootDeletionAnswerSchema }],
  problems: [404, 503],
});

export const getShootCleanup = operation({
  method: "get",
  path: `${SHOOT}/cleanup`,
  operationId: "getShootCleanup",
  tag: "Shoots",
  summary: "What a deletion would leave (resources labelled no-cleanup) and its cleanup grace periods",
  access: onProject,
  answers: [
    { status: 200, description: "The resources it leaves and the grace periods.", json: shootCleanupAnswerSchema },
  ],
  problems: [404, 503],
});

export const getShootHistory = operation({
  method: "get",
  path: `${SHOOT}/history`,
  operationId: "getShootHistory",
  tag: "Shoots",
  summary: "A shoot's maintenance runs and audit events, newest first",
  access: onProject,
  query: historyParams,
  answers: [{ status: 200, description: "The history.", json: shootHistoryAnswerSchema }],
  problems: [400, 404, 503],
});

export const getMaintenancePlan = operation({
  method: "get",
  path: `${SHOOT}/maintenance-plan`,
  operationId: "getMaintenancePlan",
  tag: "Shoots",
  summary: "What the shoot's next maintenance will change, and when",
  access: onProject,
  query: planParams,
  queryWords: { at: "ISO 8601 date-time to plan from; default now." },
  answers: [{ status: 200, description: "The plan.", json: maintenancePlanSchema }],
  problems: [400, 404, 422, 503],
});

export const maintainShootNow = operation({
  method: "post",
  path: `${SHOOT}/maintain`,
  operationId: "maintainShootNow",
  tag: "Shoots",
  summary: "Run the shoot's maintenance now",
  access: { need: "operate", project: "namespace" },
  answers: [{ status: 202, description: "The run was queued (or one already was).", json: maintainNowAnswerSchema }],
  problems: [404, 409, 422, 502, 503],
});

export const getShootNodes = operation({
  method: "get",
  path: `${SHOOT}/nodes`,
  operationId: "getShootNodes",
  tag: "Shoots",
  summary: "A shoot's worker nodes and how each pool's roll stands",
  access: onProject,
  query: nodesParams,
  queryWords: {
    through:
      "viewer-kubeconfig: on a live garden, read the nodes from inside the shoot with a short-lived viewer kubeconfig requested as you (never stored). Without it a live garden answers only what the garden reports.",
  },
  answers: [{ status: 200, description: "The nodes, old and new during a roll.", json: shootNodesAnswerSchema }],
  problems: [400, 403, 404, 422, 502, 503],
});
