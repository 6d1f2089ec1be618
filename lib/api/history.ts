// GET .../history: a shoot's maintenance runs and audit events, newest first.
import type { MaintenanceRecord, RecordedChange } from "../engine/maintenance-record.ts";
import { z } from "zod";
import { type AuditEvent, auditEventFields } from "./audit.ts";
import { component } from "./components.ts";
import { recordedChangeFields } from "./maintenance-plan.ts";
import { describes } from "./schema-agreement.ts";

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

const maintenanceRunFields = {
  id: z.string(),
  namespace: z.string(),
  name: z.string(),
  trigger: z.enum(["window", "maintain-now"]),
  state: z.enum(["Succeeded", "Failed"]),
  scheduledFor: z.string().optional(),
  startedAt: z.string().optional(),
  finishedAt: z.string().optional(),
  changes: z.array(
    z.object({
      ...recordedChangeFields,
      successful: recordedChangeFields.successful.optional(),
      description: recordedChangeFields.description.optional(),
    }),
  ),
  description: z.string().optional(),
  failureReason: z.string().optional(),
  createdAt: z.string(),
};

export const maintenanceRunEntrySchema = describes<MaintenanceRunEntry>()(
  component(
    "MaintenanceRunEntry",
    z.object({ ...maintenanceRunFields, type: z.literal("maintenance"), at: z.string() }),
  ),
);

export const auditEntrySchema = describes<AuditEntry>()(
  component("AuditEntry", z.object({ ...auditEventFields, type: z.literal("audit") })),
);

export const shootHistoryAnswerSchema = describes<ShootHistoryAnswer>()(
  component(
    "ShootHistory",
    z.object({ items: z.array(z.discriminatedUnion("type", [maintenanceRunEntrySchema, auditEntrySchema])) }),
  ),
);
