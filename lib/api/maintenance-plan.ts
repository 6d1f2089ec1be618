// GET .../maintenance-plan: what the shoot's next maintenance will change, and when. Each change
// is the engine's record of it, the same one history keeps once the run happened.
import { z } from "zod";
import type { RecordedChange } from "../engine/maintenance-record.ts";
import type { VersionRollout } from "../engine/version-rollout.ts";
import type { LastMaintenance } from "../gardener/types.ts";
import { component } from "./components.ts";
import { describes } from "./schema-agreement.ts";
import { versionRolloutSchema } from "./shoot-list.ts";

/** A change the run would make; `successful` false when the engine finds no version for it. */
export type PlannedChange = RecordedChange;

export interface MaintenancePlan {
  readonly namespace: string;
  readonly name: string;
  /** The moment maintenance runs, inside the effective window. */
  readonly at: string;
  readonly window: { readonly begin: string; readonly end: string };
  readonly willChangeSpec: boolean;
  readonly rolloutPending: boolean;
  /**
   * Versions the spec asks that the cluster does not run yet (what it runs comes from its last
   * successful rollout); with `when: "window"` this window rolls them out, before `changes`, which
   * start from the asked versions. null when it runs what it asks, or nothing is known.
   */
  readonly rollout: VersionRollout | null;
  readonly changes: readonly PlannedChange[];
  readonly operations: readonly string[];
  readonly errors: readonly string[];
  /** What status.lastMaintenance would say, when the run writes it. */
  readonly description?: LastMaintenance["description"];
  readonly state?: LastMaintenance["state"];
  readonly failureReason?: LastMaintenance["failureReason"];
  readonly summary: string;
}

export const recordedChangeFields = {
  target: z.string().meta({ description: '"controlPlane", a worker pool\'s name, or "credentials"' }),
  kind: z.enum(["kubernetes", "machineImage", "credentials"]),
  from: z.string().optional(),
  to: z.string().optional(),
  reason: z.string(),
  successful: z.boolean(),
  description: z.string(),
};

export const plannedChangeSchema = describes<PlannedChange>()(
  component("PlannedChange", z.object(recordedChangeFields)),
);

export const maintenancePlanSchema = describes<MaintenancePlan>()(
  component(
    "MaintenancePlan",
    z.object({
      namespace: z.string(),
      name: z.string(),
      at: z.string().meta({ description: "The moment maintenance runs, inside the effective window." }),
      window: z.object({ begin: z.string(), end: z.string() }),
      willChangeSpec: z.boolean(),
      rolloutPending: z.boolean(),
      rollout: versionRolloutSchema.nullable().meta({
        description: "Versions the spec asks that the cluster does not run yet; null when it runs what it asks.",
      }),
      changes: z.array(plannedChangeSchema),
      operations: z.array(z.string()),
      errors: z.array(z.string()),
      description: z.string().optional(),
      state: z.string().optional(),
      failureReason: z.string().optional(),
      summary: z.string(),
    }),
  ),
);
