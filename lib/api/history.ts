// GET .../history: a shoot's maintenance runs and audit events, newest first.
import type { MaintenanceRecord, RecordedChange } from "../engine/maintenance-record.ts";
import type { AuditEvent } from "./audit.ts";

/**
 * A change a run recorded: the engine's record of it. Runs of the demo landscape's made-up past
 * carry neither the success flag nor the description.
 */
export type MaintenanceRunChange = Omit<RecordedChange, "successful" | "description"> &
  Partial<Pick<RecordedChange, "successful" | "description">>;

export interface MaintenanceRun {
  readonly id: string;
  readonly namespace: string;
  readonly name: string;
  /** The maintenance window, or a user's "maintain now". */
  readonly trigger: "window" | "maintain-now";
  readonly state: MaintenanceRecord["state"];
  readonly scheduledFor?: string;
  readonly startedAt?: string;
  readonly finishedAt?: string;
  readonly changes: readonly MaintenanceRunChange[];
  readonly description?: string;
  readonly failureReason?: string;
  readonly createdAt: string;
}

export interface MaintenanceRunEntry extends MaintenanceRun {
  readonly type: "maintenance";
  /** When it ran (or was due, or was recorded). */
  readonly at: string;
}

export interface AuditEntry extends AuditEvent {
  readonly type: "audit";
}

export interface ShootHistoryAnswer {
  readonly items: readonly (MaintenanceRunEntry | AuditEntry)[];
}
