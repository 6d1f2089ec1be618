// What the pages read from /api/v1: the contract of lib/api, under the names the pages import.
// Gardener objects keep Gardener's own types.
export type { CloudProfile, Shoot } from "../gardener/types.ts";
export type {
  AccountJson,
  AccountListAnswer,
  AccountRolesRequest,
  ApiRole,
  CreateAccountRequest,
  RoleBindingJson,
} from "../api/accounts.ts";
export type { AuditAnswer, AuditEvent } from "../api/audit.ts";
export type { MeAnswer } from "../api/me.ts";
export type { ApiTokenJson, CreatedTokenAnswer, CreateTokenRequest, TokenListAnswer } from "../api/tokens.ts";
export type { FailedJob, FailedJobsAnswer, RetriedJobAnswer } from "../api/jobs.ts";
export type { CloudProfileUsageAnswer } from "../api/cloud-profile-usage.ts";
export type { ForecastAnswer, ForecastItem, ForecastMarker, ForecastRisk, ForecastSummary } from "../api/forecast.ts";
export type { MaintenanceRunEntry, ShootHistoryAnswer } from "../api/history.ts";
export type { MaintainNowAnswer } from "../api/maintain-now.ts";
export type { MaintenancePlan, PlannedChange } from "../api/maintenance-plan.ts";
export type { NodeWait, PoolRoll, ShootNode, ShootNodesAnswer } from "../api/nodes.ts";
export type {
  FleetMigration,
  MigrateRequest,
  MigrationStep,
  MigrationView,
  ShootMigrationAnswer,
  StartMigrationAnswer,
} from "../api/migration.ts";
export type { FleetSummary, ShootListAnswer, ShootRow, VersionState } from "../api/shoot-list.ts";
