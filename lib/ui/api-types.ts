// What the pages read from /api/v1, as TypeScript. Gardener objects keep Gardener's own types.
import type { StatusLabel } from "./status";
export type { CloudProfile, Shoot } from "../gardener/types";

export interface VersionState {
  readonly version: string;
  readonly classification: string;
  readonly expiresAt?: string;
}

export interface ShootRow {
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
  readonly resourceVersion: string;
  readonly project: string | null;
  readonly cloudProfile: string;
  readonly seed: string | null;
  readonly region: string;
  readonly purpose?: string;
  readonly createdAt: string;
  readonly statusLabel: StatusLabel;
  readonly hibernated: boolean;
  readonly conditions: readonly { type: string; status: string; reason?: string; message?: string }[];
  readonly lastOperation?: { type: string; state: string; progress: number; description: string; lastUpdateTime: string };
  readonly lastErrorCodes: readonly string[];
  readonly kubernetes: VersionState;
  readonly workers: readonly { name: string; machineType: string; image: { name: string } & VersionState; minimum: number; maximum: number }[];
  readonly rolloutPending: boolean;
  readonly earliestExpiry: { at: string; version: string } | null;
  readonly maintenance: {
    timeWindow?: { begin: string; end: string };
    autoUpdate?: { kubernetesVersion?: boolean; machineImageVersion?: boolean };
    confineSpecUpdateRollout?: boolean;
  };
  readonly nextMaintenance: { at: string } | null;
}

export interface ShootListAnswer {
  readonly items: readonly ShootRow[];
  readonly total: number;
  readonly nextCursor: string | null;
}

export interface FleetSummary {
  readonly total: number;
  readonly byStatus: Record<StatusLabel, number>;
  readonly expiringWithinDays: Record<string, number>;
}

export interface PlannedChange {
  readonly target: string;
  readonly worker?: string;
  readonly kind: string;
  readonly from: string;
  readonly to: string;
  readonly reason: string;
  /** False when the engine cannot make this change (no suitable version). */
  readonly successful?: boolean;
  readonly description?: string;
}

export interface MaintenancePlan {
  readonly namespace: string;
  readonly name: string;
  readonly at: string;
  readonly window: { begin: string; end: string };
  readonly willChangeSpec: boolean;
  readonly rolloutPending: boolean;
  readonly changes: readonly PlannedChange[];
  readonly operations: readonly string[];
  readonly errors: readonly string[];
  readonly summary: string;
}

export interface ForecastItem {
  readonly namespace: string;
  readonly name: string;
  readonly cloudProfile: string;
  /** The moment maintenance runs, inside the effective window (always set). */
  readonly at: string;
  readonly window: { begin: string; end: string };
  readonly target: "controlPlane" | "worker";
  readonly worker?: string;
  readonly kind: "kubernetes" | "machineImage";
  readonly from: string;
  /** Absent when no version qualifies: the cluster will be stuck. */
  readonly to?: string | null;
  readonly reason: string;
  readonly stuck: boolean;
  /** For a stuck cluster, the maintenance controller's failure text. */
  readonly error?: string;
  readonly message: string;
}

export interface ForecastAnswer {
  readonly days: number;
  readonly from: string;
  readonly to: string;
  readonly items: readonly ForecastItem[];
  /** Shoots that could not be forecast (missing cloud profile, unparsable version). */
  readonly problems?: readonly { namespace: string; name: string; problem: string }[];
}

export interface AuditAnswer {
  readonly items: readonly AuditEvent[];
  readonly nextCursor: string | null;
}

export interface AuditEvent {
  readonly id: string;
  readonly at: string;
  readonly actor: string;
  readonly action: string;
  readonly requestId?: string;
  readonly target: { kind: string; namespace?: string; name?: string };
  readonly changes: readonly { field: string; before: unknown; after: unknown }[];
  readonly reason?: string;
}

export interface MigrationStep {
  readonly name: string;
  readonly startedAt?: string;
  readonly endedAt?: string;
  readonly outcome: string | null;
  readonly message: string | null;
  readonly attempts: number;
}

export interface MigrationView {
  readonly id: string;
  readonly actor: string;
  readonly source: string;
  readonly destination: string;
  readonly state: "Processing" | "Error" | "Failed" | "Succeeded";
  readonly startedAt?: string;
  readonly finishedAt?: string;
  readonly retryAt?: string;
  readonly lastOperation: { type: string; state: string; progress: number; description: string };
  readonly steps: readonly MigrationStep[];
}

/** One row of GET /api/v1/migrations: the migration and the shoot it moves. */
export interface FleetMigration extends MigrationView {
  readonly namespace: string;
  readonly name: string;
}

export interface ShootMigrationAnswer {
  readonly namespace: string;
  readonly name: string;
  readonly seed: string | null;
  readonly destinations: readonly { name: string; region: string; provider: string; ready: boolean; current: boolean; reasons: readonly string[] }[];
  readonly migration: MigrationView | null;
}

/** A maintenance run in GET .../history (type "maintenance"). */
export interface MaintenanceRunEntry {
  readonly type: "maintenance";
  readonly id: string;
  readonly at: string;
  readonly trigger: "window" | "maintain-now" | string;
  readonly state: "Succeeded" | "Failed" | string;
  readonly startedAt?: string;
  readonly finishedAt?: string;
  readonly changes: readonly { target: string; kind: string; from?: string; to?: string; reason: string; description?: string }[];
  readonly description?: string;
  readonly failureReason?: string;
}

/** GET .../history: maintenance runs and audit events, newest first. */
export interface ShootHistoryAnswer {
  readonly items: readonly (MaintenanceRunEntry | ({ readonly type: "audit" } & AuditEvent))[];
}
