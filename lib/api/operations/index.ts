// Every operation of /api/v1, in the order the OpenAPI document and the API reference list them.
// tests/api/operations-served.test.ts checks that these are exactly the handlers app/api/v1 serves.
import type { Operation } from "../operation.ts";
import * as access from "./access.ts";
import * as upkeep from "./upkeep.ts";
import * as audit from "./audit.ts";
import * as bulk from "./bulk-actions.ts";
import * as calendars from "./calendars.ts";
import * as events from "./events.ts";
import * as forecast from "./forecast.ts";
import * as freezes from "./freezes.ts";
import * as landscape from "./landscape.ts";
import * as migrations from "./migrations.ts";
import * as notifications from "./notifications.ts";
import * as shoots from "./shoots.ts";
import * as runs from "./update-runs.ts";

export const API_OPERATIONS: readonly Operation[] = [
  shoots.listShoots,
  shoots.summarizeShoots,
  shoots.exportShoots,
  shoots.getShoot,
  shoots.patchShoot,
  shoots.deleteShoot,
  shoots.getShootDeletion,
  shoots.getShootHistory,
  shoots.getMaintenancePlan,
  shoots.maintainShootNow,
  shoots.getShootNodes,
  shoots.getShootCleanup,
  bulk.startBulkAction,
  bulk.listBulkActions,
  bulk.getBulkAction,
  bulk.cancelBulkAction,
  runs.startUpdateRun,
  runs.listUpdateRuns,
  runs.getUpdateRun,
  runs.approveUpdateRun,
  runs.pauseUpdateRun,
  runs.resumeUpdateRun,
  runs.cancelUpdateRun,
  migrations.getShootMigration,
  migrations.migrateShoot,
  migrations.listMigrations,
  calendars.getShootCalendar,
  calendars.getNamespaceCalendar,
  forecast.getForecast,
  forecast.exportForecast,
  freezes.listFreezes,
  freezes.createFreeze,
  freezes.deleteFreeze,
  notifications.createWebhook,
  notifications.listWebhooks,
  notifications.getWebhook,
  notifications.updateWebhook,
  notifications.deleteWebhook,
  notifications.testWebhook,
  notifications.listWebhookDeliveries,
  notifications.createEmailSubscription,
  notifications.listEmailSubscriptions,
  notifications.getEmailSubscription,
  notifications.updateEmailSubscription,
  notifications.deleteEmailSubscription,
  notifications.testEmailSubscription,
  notifications.listEmailSubscriptionDeliveries,
  audit.listAudit,
  audit.exportAudit,
  landscape.listCloudProfiles,
  landscape.getCloudProfile,
  landscape.getCloudProfileUsage,
  landscape.listNamespacedCloudProfiles,
  landscape.getNamespacedCloudProfile,
  landscape.listSeeds,
  landscape.listProjects,
  events.followEvents,
  access.whoAmI,
  access.listAccounts,
  access.createAccount,
  access.removeAccount,
  access.setAccountRoles,
  access.listTokens,
  access.createToken,
  access.revokeToken,
  upkeep.listFailedJobs,
  upkeep.retryFailedJob,
  upkeep.createFirstAdmin,
  upkeep.getOpenApiDocument,
];
