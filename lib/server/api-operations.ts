// Every operation of /api/v1, described for the OpenAPI document (openapi-document.ts): its path,
// who may call it, and the very zod schemas the route validates its query and body with and
// types its answers by. The words are here; the shapes come from the schemas.
// tests/api/openapi.test.ts checks that this list and the route files under app/api/v1 agree.
import type { z } from "zod";
import {
  accountJsonSchema,
  accountListAnswerSchema,
  accountRolesSchema,
  createAccountSchema,
} from "../api/accounts.ts";
import { auditAnswerSchema, auditEventSchema } from "../api/audit.ts";
import { shootDeletionAnswerSchema, startedDeletionAnswerSchema } from "../api/deletion.ts";
import { cloudProfileUsageSchema } from "../api/cloud-profile-usage.ts";
import { forecastAnswerSchema, forecastItemSchema } from "../api/forecast.ts";
import {
  cloudProfileListSchema,
  cloudProfileSchema,
  namespacedCloudProfileListSchema,
  namespacedCloudProfileSchema,
  projectListSchema,
  seedListSchema,
  shootSchema,
} from "../api/garden-objects.ts";
import { shootHistoryAnswerSchema } from "../api/history.ts";
import { failedJobsAnswerSchema, retriedJobAnswerSchema } from "../api/jobs.ts";
import { maintainNowAnswerSchema } from "../api/maintain-now.ts";
import { maintenancePlanSchema } from "../api/maintenance-plan.ts";
import { meAnswerSchema } from "../api/me.ts";
import {
  fleetMigrationsAnswerSchema,
  shootMigrationAnswerSchema,
  startMigrationAnswerSchema,
} from "../api/migration.ts";
import { setupAnswerSchema } from "../api/setup.ts";
import { fleetSummarySchema, shootListAnswerSchema, shootRowSchema } from "../api/shoot-list.ts";
import { shootPatchSchema } from "../api/shoot-patch.ts";
import { SHOOT_SORTS } from "../api/shoot-sorts.ts";
import {
  apiTokenJsonSchema,
  createdTokenAnswerSchema,
  createTokenSchema,
  tokenListAnswerSchema,
} from "../api/tokens.ts";
import { SHOOT_STATUS_LABELS } from "../engine/status-label.ts";
import { exportAuditParams } from "./export-audit.ts";
import { exportForecastParams } from "./export-forecast.ts";
import { exportShootsParams } from "./export-shoots.ts";
import { setupBody } from "./first-admin.ts";
import { forecastParams } from "./fleet-forecast.ts";
import { summaryParams } from "./fleet-summary.ts";
import { auditParams } from "./list-audit.ts";
import { migrationsParams } from "./list-migrations.ts";
import { eventsParams } from "./change-stream.ts";
import { listShootsParams } from "./list-shoots.ts";
import { planParams } from "./maintenance-plan.ts";
import { historyParams } from "./shoot-history.ts";
import { migrateBody } from "./start-migration.ts";
import { namespacedCloudProfileParams } from "./namespaced-cloud-profiles.ts";

export const API_TAGS = [
  { name: "Shoots", description: "The fleet's clusters: lists, one shoot, its changes and its maintenance." },
  { name: "Forecast", description: "What maintenance will force in the coming days." },
  { name: "Migrations", description: "Moving a shoot's control plane to another seed." },
  { name: "Calendars", description: "Maintenance windows and forced updates as iCalendar feeds." },
  { name: "Audit", description: "Who changed what, newest first." },
  { name: "Landscape", description: "Cloud profiles, seeds and projects, as the garden has them." },
  { name: "Events", description: "Server-sent events naming what changed." },
  { name: "Access", description: "Who calls, the accounts that may sign in and the API tokens." },
  { name: "Jobs", description: "Background jobs that failed for good." },
  { name: "Setup", description: "The first admin, from the setup link." },
  { name: "Document", description: "This description of the API." },
] as const;
export type ApiTag = (typeof API_TAGS)[number]["name"];

/**
 * Who may call: nobody needs to be known (public), anyone signed in, or a role. A role holds on
 * the shoot's project (the path's namespace), on any project (the answer then holds only what the
 * caller's projects may read), or on the whole landscape.
 */
export type ApiAccess =
  | { readonly role: "public" | "signed-in" }
  | { readonly role: "viewer" | "operator" | "admin"; readonly on: "project" | "any-project" | "landscape" };

export interface ApiAnswer {
  readonly status: number;
  readonly description: string;
  /** A JSON body of this schema. */
  readonly json?: z.ZodType;
  /** Other media types, each with an optional JSON schema of its body (JSON) or a description of its text. */
  readonly media?: Readonly<
    Record<string, { readonly arrayOf?: z.ZodType; readonly text?: string; readonly object?: string }>
  >;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface ApiOperation {
  readonly method: "get" | "post" | "put" | "patch" | "delete";
  /** The path as OpenAPI writes it, with `{param}` for each dynamic segment. */
  readonly path: string;
  readonly operationId: string;
  readonly tag: ApiTag;
  readonly summary: string;
  readonly description?: string;
  readonly access: ApiAccess;
  readonly query?: z.ZodObject;
  /** Words for query parameters whose schema cannot say it (a list of values, a format). */
  readonly queryWords?: Readonly<Record<string, string>>;
  readonly body?: { readonly schema: z.ZodType; readonly mediaTypes: readonly string[] };
  readonly requestHeaders?: readonly ("If-Match" | "If-None-Match")[];
  readonly answers: readonly ApiAnswer[];
  /** The problem answers (application/problem+json) it may give besides 401 and 403. */
  readonly problems: readonly number[];
}

const SHOOT = "/api/v1/namespaces/{namespace}/shoots/{name}";
const onProject = { role: "viewer", on: "project" } as const;
const onAnyProject = { role: "viewer", on: "any-project" } as const;
const admin = { role: "admin", on: "landscape" } as const;
const etagHeader = { ETag: "The shoot's resourceVersion, quoted: send it back as If-Match to change what you read." };
const download = { "Content-Disposition": "attachment, with a file name naming the list and the moment." };

const fleetFilterWords = {
  status: `Comma-separated status labels: ${SHOOT_STATUS_LABELS.join(", ")}.`,
  sort: `One of ${SHOOT_SORTS.join(", ")}; a leading "-" sorts descending. Default: name.`,
  q: "Text to find in the shoot's name, namespace, project, versions, seed or region.",
  expiringWithinDays: "Only shoots with a version expiring within this many days.",
  cursor: "The nextCursor of the previous page.",
};
const auditFilterWords = {
  since: "ISO 8601 date or date-time: events at or after it.",
  until: "ISO 8601 date or date-time: events before it.",
  cursor: "The nextCursor of the previous page.",
};
const exportMedia = (row: z.ZodType) => ({
  "text/csv": { text: "RFC 4180 with a header line and CRLF line ends (format=csv)." },
  "application/json": { arrayOf: row },
});

export const API_OPERATIONS: readonly ApiOperation[] = [
  {
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
  },
  {
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
  },
  {
    method: "get",
    path: "/api/v1/shoots/export",
    operationId: "exportShoots",
    tag: "Shoots",
    summary: "Download every shoot the list's filters select",
    access: onAnyProject,
    query: exportShootsParams,
    queryWords: fleetFilterWords,
    answers: [
      { status: 200, description: "Every matching row.", media: exportMedia(shootRowSchema), headers: download },
    ],
    problems: [400],
  },
  {
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
  },
  {
    method: "patch",
    path: SHOOT,
    operationId: "patchShoot",
    tag: "Shoots",
    summary: "Change a shoot's maintenance, versions, hibernation or annotations",
    description:
      "A JSON merge patch (RFC 7386) of the fields Almanac lets people change. With If-Match, the change is made only " +
      "if the shoot is still at that resourceVersion (409 otherwise). The deletion annotations need the admin role.",
    access: { role: "operator", on: "project" },
    requestHeaders: ["If-Match"],
    body: { schema: shootPatchSchema, mediaTypes: ["application/merge-patch+json", "application/json"] },
    answers: [{ status: 200, description: "The shoot as changed.", json: shootSchema, headers: etagHeader }],
    problems: [400, 404, 409, 413, 415, 422, 502, 503],
  },
  {
    method: "delete",
    path: SHOOT,
    operationId: "deleteShoot",
    tag: "Shoots",
    summary: "Delete a shoot",
    description: "As Gardener: only with the annotation confirmation.gardener.cloud/deletion=true set first.",
    access: { role: "admin", on: "project" },
    answers: [{ status: 202, description: "The deletion started.", json: startedDeletionAnswerSchema }],
    problems: [404, 409, 422, 502, 503],
  },
  {
    method: "get",
    path: `${SHOOT}/deletion`,
    operationId: "getShootDeletion",
    tag: "Shoots",
    summary: "Follow a shoot's deletion, also after the shoot is gone",
    access: onProject,
    answers: [{ status: 200, description: "The latest deletion and its steps.", json: shootDeletionAnswerSchema }],
    problems: [404, 503],
  },
  {
    method: "get",
    path: `${SHOOT}/history`,
    operationId: "getShootHistory",
    tag: "Shoots",
    summary: "A shoot's maintenance runs and audit events, newest first",
    access: onProject,
    query: historyParams,
    answers: [{ status: 200, description: "The history.", json: shootHistoryAnswerSchema }],
    problems: [400, 404, 503],
  },
  {
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
  },
  {
    method: "post",
    path: `${SHOOT}/maintain`,
    operationId: "maintainShootNow",
    tag: "Shoots",
    summary: "Run the shoot's maintenance now",
    access: { role: "operator", on: "project" },
    answers: [{ status: 202, description: "The run was queued (or one already was).", json: maintainNowAnswerSchema }],
    problems: [404, 409, 422, 502, 503],
  },
  {
    method: "get",
    path: `${SHOOT}/migration`,
    operationId: "getShootMigration",
    tag: "Migrations",
    summary: "A shoot's latest control-plane migration, and every seed as a destination",
    access: onProject,
    answers: [{ status: 200, description: "The migration and the destinations.", json: shootMigrationAnswerSchema }],
    problems: [404, 503],
  },
  {
    method: "post",
    path: `${SHOOT}/migrate`,
    operationId: "migrateShoot",
    tag: "Migrations",
    summary: "Move the shoot's control plane to another seed",
    access: { role: "admin", on: "project" },
    body: { schema: migrateBody, mediaTypes: ["application/json"] },
    answers: [{ status: 202, description: "The migration started.", json: startMigrationAnswerSchema }],
    problems: [400, 404, 409, 413, 415, 422, 502, 503],
  },
  {
    method: "get",
    path: "/api/v1/migrations",
    operationId: "listMigrations",
    tag: "Migrations",
    summary: "The fleet's control-plane migrations",
    access: onAnyProject,
    query: migrationsParams,
    queryWords: { active: '"true": only migrations under way.' },
    answers: [{ status: 200, description: "The migrations, newest first.", json: fleetMigrationsAnswerSchema }],
    problems: [400],
  },
  {
    method: "get",
    path: `${SHOOT}/calendar.ics`,
    operationId: "getShootCalendar",
    tag: "Calendars",
    summary: "The shoot's maintenance windows and forced updates of the next 30 days",
    access: onProject,
    answers: [
      {
        status: 200,
        description: "An iCalendar file (RFC 5545).",
        media: { "text/calendar": { text: "RFC 5545, one event per window." } },
        headers: download,
      },
    ],
    problems: [404, 503],
  },
  {
    method: "get",
    path: "/api/v1/namespaces/{namespace}/calendar.ics",
    operationId: "getNamespaceCalendar",
    tag: "Calendars",
    summary: "The maintenance windows and forced updates of the next 30 days of every shoot in a namespace",
    access: onProject,
    answers: [
      {
        status: 200,
        description: "An iCalendar file (RFC 5545).",
        media: { "text/calendar": { text: "RFC 5545, one event per window." } },
        headers: download,
      },
    ],
    problems: [404, 503],
  },
  {
    method: "get",
    path: "/api/v1/forecast",
    operationId: "getForecast",
    tag: "Forecast",
    summary: "Every update maintenance will force in the coming days",
    access: onAnyProject,
    query: forecastParams,
    answers: [{ status: 200, description: "The forecast.", json: forecastAnswerSchema }],
    problems: [400],
  },
  {
    method: "get",
    path: "/api/v1/forecast/export",
    operationId: "exportForecast",
    tag: "Forecast",
    summary: "Download the forecast's updates with the page's filters",
    access: onAnyProject,
    query: exportForecastParams,
    answers: [
      {
        status: 200,
        description: "Every matching update.",
        media: exportMedia(forecastItemSchema),
        headers: download,
      },
    ],
    problems: [400],
  },
  {
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
  },
  {
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
  },
  {
    method: "get",
    path: "/api/v1/cloudprofiles",
    operationId: "listCloudProfiles",
    tag: "Landscape",
    summary: "The cloud profiles",
    access: onAnyProject,
    answers: [{ status: 200, description: "Every cloud profile.", json: cloudProfileListSchema }],
    problems: [],
  },
  {
    method: "get",
    path: "/api/v1/cloudprofiles/{name}",
    operationId: "getCloudProfile",
    tag: "Landscape",
    summary: "A cloud profile",
    access: onAnyProject,
    answers: [{ status: 200, description: "The cloud profile.", json: cloudProfileSchema }],
    problems: [404],
  },
  {
    method: "get",
    path: "/api/v1/cloudprofiles/{name}/usage",
    operationId: "getCloudProfileUsage",
    tag: "Landscape",
    summary: "What the shoots the caller may read run of a cloud profile, counted per version",
    access: onAnyProject,
    answers: [{ status: 200, description: "The counts.", json: cloudProfileUsageSchema }],
    problems: [404],
  },
  {
    method: "get",
    path: "/api/v1/namespacedcloudprofiles",
    operationId: "listNamespacedCloudProfiles",
    tag: "Landscape",
    summary: "The namespaced cloud profiles in the caller's projects",
    description:
      "Projects' extensions of the cloud profiles. A shoot naming one (spec.cloudProfile.kind " +
      "NamespacedCloudProfile) is read against its status.cloudProfileSpec.",
    access: onAnyProject,
    query: namespacedCloudProfileParams,
    answers: [{ status: 200, description: "Every namespaced cloud profile.", json: namespacedCloudProfileListSchema }],
    problems: [400],
  },
  {
    method: "get",
    path: "/api/v1/namespaces/{namespace}/namespacedcloudprofiles/{name}",
    operationId: "getNamespacedCloudProfile",
    tag: "Landscape",
    summary: "A namespaced cloud profile",
    access: onProject,
    answers: [{ status: 200, description: "The namespaced cloud profile.", json: namespacedCloudProfileSchema }],
    problems: [404],
  },
  {
    method: "get",
    path: "/api/v1/seeds",
    operationId: "listSeeds",
    tag: "Landscape",
    summary: "The seeds",
    access: onAnyProject,
    answers: [{ status: 200, description: "Every seed.", json: seedListSchema }],
    problems: [],
  },
  {
    method: "get",
    path: "/api/v1/projects",
    operationId: "listProjects",
    tag: "Landscape",
    summary: "The projects and their namespaces",
    access: onAnyProject,
    answers: [{ status: 200, description: "Every project.", json: projectListSchema }],
    problems: [],
  },
  {
    method: "get",
    path: "/api/v1/events",
    operationId: "followEvents",
    tag: "Events",
    summary: "Follow what changes, as server-sent events",
    query: eventsParams,
    queryWords: {
      since: "Epoch milliseconds: first send what changed since then (what a page read before connecting).",
    },
    description:
      "Events: `ready` once connected, `listening` when the database's notifications are followed, and `change` " +
      'with `{"changes": [...]}` naming what changed (only what the caller may read); comments keep the connection open.',
    access: onAnyProject,
    answers: [
      {
        status: 200,
        description: "An endless event stream.",
        media: { "text/event-stream": { text: "Server-sent events (WHATWG HTML)." } },
      },
    ],
    problems: [400, 503],
  },
  {
    method: "get",
    path: "/api/v1/me",
    operationId: "whoAmI",
    tag: "Access",
    summary: "Who calls, and which roles they hold where",
    access: { role: "signed-in" },
    answers: [{ status: 200, description: "The caller.", json: meAnswerSchema }],
    problems: [],
  },
  {
    method: "get",
    path: "/api/v1/accounts",
    operationId: "listAccounts",
    tag: "Access",
    summary: "The people who may sign in, with their roles",
    access: admin,
    answers: [{ status: 200, description: "Every account.", json: accountListAnswerSchema }],
    problems: [],
  },
  {
    method: "post",
    path: "/api/v1/accounts",
    operationId: "createAccount",
    tag: "Access",
    summary: "Make a built-in account with one role",
    access: admin,
    body: { schema: createAccountSchema, mediaTypes: ["application/json"] },
    answers: [{ status: 201, description: "The account.", json: accountJsonSchema }],
    problems: [400, 409, 413, 415, 422],
  },
  {
    method: "delete",
    path: "/api/v1/accounts/{id}",
    operationId: "removeAccount",
    tag: "Access",
    summary: "Remove an account",
    description: "The last landscape-wide admin cannot be removed.",
    access: admin,
    answers: [{ status: 200, description: "The account as it was.", json: accountJsonSchema }],
    problems: [404, 409],
  },
  {
    method: "put",
    path: "/api/v1/accounts/{id}/roles",
    operationId: "setAccountRoles",
    tag: "Access",
    summary: "Replace an account's roles",
    description: "The last landscape-wide admin keeps that role.",
    access: admin,
    body: { schema: accountRolesSchema, mediaTypes: ["application/json"] },
    answers: [{ status: 200, description: "The account with its new roles.", json: accountJsonSchema }],
    problems: [400, 404, 409, 413, 415, 422],
  },
  {
    method: "get",
    path: "/api/v1/tokens",
    operationId: "listTokens",
    tag: "Access",
    summary: "The API tokens (without their values)",
    access: admin,
    answers: [{ status: 200, description: "Every token.", json: tokenListAnswerSchema }],
    problems: [],
  },
  {
    method: "post",
    path: "/api/v1/tokens",
    operationId: "createToken",
    tag: "Access",
    summary: "Make an API token",
    description: "The answer is the only place the token's value appears; Almanac keeps only its hash.",
    access: admin,
    body: { schema: createTokenSchema, mediaTypes: ["application/json"] },
    answers: [
      {
        status: 201,
        description: "The token, with its value.",
        json: createdTokenAnswerSchema,
        headers: { "Cache-Control": "no-store" },
      },
    ],
    problems: [400, 409, 413, 415, 422],
  },
  {
    method: "delete",
    path: "/api/v1/tokens/{id}",
    operationId: "revokeToken",
    tag: "Access",
    summary: "Revoke an API token, at once",
    access: admin,
    answers: [{ status: 200, description: "The token as revoked.", json: apiTokenJsonSchema }],
    problems: [404],
  },
  {
    method: "get",
    path: "/api/v1/jobs",
    operationId: "listFailedJobs",
    tag: "Jobs",
    summary: "Background jobs whose retries ran out",
    access: admin,
    answers: [{ status: 200, description: "The newest failed jobs.", json: failedJobsAnswerSchema }],
    problems: [],
  },
  {
    method: "post",
    path: "/api/v1/jobs/{id}/retry",
    operationId: "retryFailedJob",
    tag: "Jobs",
    summary: "Run a failed job again",
    access: admin,
    answers: [{ status: 202, description: "The job runs again.", json: retriedJobAnswerSchema }],
    problems: [400, 404, 409],
  },
  {
    method: "post",
    path: "/api/v1/setup",
    operationId: "createFirstAdmin",
    tag: "Setup",
    summary: "Make the first admin with the setup link's token",
    description: "Public: nobody can sign in yet, and the one-time token is the credential.",
    access: { role: "public" },
    body: { schema: setupBody, mediaTypes: ["application/json"] },
    answers: [{ status: 201, description: "The admin was made; sign in with the email.", json: setupAnswerSchema }],
    problems: [400, 403, 413, 415],
  },
  {
    method: "get",
    path: "/api/v1/openapi.json",
    operationId: "getOpenApiDocument",
    tag: "Document",
    summary: "This OpenAPI 3.1 document",
    access: { role: "signed-in" },
    answers: [
      { status: 200, description: "The document.", media: { "application/json": { object: "OpenAPI 3.1." } } },
      { status: 304, description: "Unchanged since the ETag given in If-None-Match." },
    ],
    requestHeaders: ["If-None-Match"],
    problems: [],
  },
];
