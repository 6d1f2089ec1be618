// GET /api/v1/shoots and GET /api/v1/shoots/summary: the fleet list's rows and its tiles. A row
// is stored as JSON text when the shoot is written (lib/store/shoot-listing.ts) and
// sent as stored, with the next maintenance added when read.
import { z } from "zod";
import { SHOOT_STATUS_LABELS, type ShootStatusLabel } from "../engine/status-label.ts";
import type { UpdateRiskBrief } from "../engine/update-risk.ts";
import type { VersionRollout } from "../engine/version-rollout.ts";
import { CLASSIFICATIONS, type VersionClassification } from "../gardener/types.ts";
import { component } from "./components.ts";
import { describes } from "./schema-agreement.ts";

/** A version in use, with what the cloud profile says of it at the moment the row was built. */
export interface VersionState {
  readonly version: string;
  /** Absent when the cloud profile does not list the version. */
  readonly classification?: VersionClassification;
  /** Absent when the version never expires (or is not listed). */
  readonly expiresAt?: string;
}

export interface ShootRow {
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
  readonly resourceVersion: string;
  readonly project: string;
  /** The CloudProfile the shoot's profile rests on (a NamespacedCloudProfile's parent). */
  readonly cloudProfile: string;
  /**
   * Only for a shoot of a NamespacedCloudProfile (in the shoot's namespace): its name. The
   * versions' classifications and expiry are then the namespaced profile's.
   */
  readonly namespacedCloudProfile?: string;
  readonly seed: string | null;
  readonly region: string | null;
  readonly purpose: string | null;
  readonly createdAt: string | null;
  readonly statusLabel: ShootStatusLabel;
  readonly hibernated: boolean;
  /**
   * Only for a shoot with hibernation schedules: spec.hibernation.enabled, and the next moments
   * the schedules hibernate and wake it (none when they never do again, or are invalid).
   */
  readonly hibernation?: { readonly enabled: boolean; readonly hibernateAt?: string; readonly wakeAt?: string };
  readonly conditions: readonly { readonly type: string; readonly status: string; readonly reason?: string }[];
  readonly lastOperation: {
    readonly type: string;
    readonly state: string;
    readonly progress?: number;
    readonly description?: string;
    readonly lastUpdateTime?: string;
  } | null;
  readonly lastErrorCodes: readonly string[];
  readonly kubernetes: VersionState;
  readonly workers: readonly {
    readonly name: string;
    readonly machineType: string;
    /** Absent when the pool names no image (Gardener then takes the cloud profile's default). */
    readonly image?: {
      readonly name: string;
      readonly version?: string;
      readonly classification?: VersionClassification;
      readonly expiresAt?: string;
    };
    /** Only for a pool that sets its own Kubernetes version. */
    readonly kubernetes?: VersionState;
    readonly minimum?: number;
    readonly maximum?: number;
  }[];
  /** Spec changes waiting for the maintenance window (confineSpecUpdateRollout). */
  readonly rolloutPending: boolean;
  /**
   * Why the updates maintenance promises this shoot may not happen (update-risk.ts); null when
   * nothing speaks against them.
   */
  readonly updateRisk: UpdateRiskBrief | null;
  /**
   * The versions above are what the spec asks; these lanes run another version still (recorded at
   * the last successful rollout), and say when the asked one will run. null: it runs what it asks,
   * or nothing was seen roll out yet.
   */
  readonly rollout: VersionRollout | null;
  readonly earliestExpiry: { readonly at: string; readonly version: string | null } | null;
  readonly maintenance: {
    readonly timeWindow: { readonly begin: string; readonly end: string } | null;
    readonly autoUpdate: { readonly kubernetesVersion: boolean; readonly machineImageVersion: boolean };
    readonly confineSpecUpdateRollout: boolean;
  };
  /** null for a shoot that is not maintained (being deleted). */
  readonly nextMaintenance: { readonly at: string } | null;
}

/** A row as stored: everything but the next maintenance, which moves every day. */
export type ShootListing = Omit<ShootRow, "nextMaintenance">;

export interface ShootListAnswer {
  readonly items: readonly ShootRow[];
  /** Shoots the filters select, on every page; with `totalBounded`, a bound they exceed. */
  readonly total: number;
  /**
   * Only on a search (q) with more matches than it counts: more than `total` shoots match. A
   * search counts up to 5,000 matches, so that a common word's page never waits for the rest.
   */
  readonly totalBounded?: true;
  readonly nextCursor: string | null;
}

export interface FleetSummary {
  /** What the filters other than status and expiry select. */
  readonly total: number;
  /** What the status tiles count out of: `total` within the expiry filter (their sum). */
  readonly statusTotal: number;
  /** What the expiry tiles count out of: `total` within the status filter. */
  readonly expiryTotal: number;
  readonly byStatus: Record<ShootStatusLabel, number>;
  /** Keyed by the horizon in days ("7", "30"). */
  readonly expiringWithinDays: Record<string, number>;
}

const classificationSchema = z.enum([...CLASSIFICATIONS, "unavailable"]);

export const versionStateSchema = describes<VersionState>()(
  component(
    "VersionState",
    z.object({
      version: z.string(),
      classification: classificationSchema
        .optional()
        .meta({ description: "Absent when the cloud profile does not list the version." }),
      expiresAt: z
        .string()
        .optional()
        .meta({ description: "Absent when the version never expires (or is not listed)." }),
    }),
  ),
);

export const updateRiskBriefSchema = describes<UpdateRiskBrief>()(
  component(
    "UpdateRisk",
    z.object({
      causes: z.array(z.enum(["deleting", "maintenanceFailed", "operationFailed", "preconditionsFalse", "hibernated"])),
      short: z.string().meta({ description: 'A few words: "webhook denied (14×)".' }),
      summary: z.string().meta({ description: '"At risk: ...", every reason: the consequence and who must act.' }),
      lead: z.string().meta({ description: "The first reason in full, the others in a few words." }),
    }),
  ),
);

export const versionRolloutSchema = describes<VersionRollout>()(
  component(
    "VersionRollout",
    z.object({
      runningSince: z.string().meta({ description: "When the running versions were rolled out." }),
      when: z
        .enum(["window", "reconcile"])
        .meta({ description: "window: held for the next maintenance window; reconcile: the reconcile rolls it out." }),
      changes: z.array(
        z.object({
          target: z.string(),
          kind: z.enum(["kubernetes", "machineImage"]),
          subject: z.string(),
          running: z.string(),
          asked: z.string(),
        }),
      ),
    }),
  ),
);

const timeWindowSchema = z.object({ begin: z.string(), end: z.string() });

export const shootRowSchema = describes<ShootRow>()(
  component(
    "ShootRow",
    z.object({
      namespace: z.string(),
      name: z.string(),
      uid: z.string(),
      resourceVersion: z.string(),
      project: z.string(),
      cloudProfile: z.string(),
      namespacedCloudProfile: z.string().optional(),
      seed: z.string().nullable(),
      region: z.string().nullable(),
      purpose: z.string().nullable(),
      createdAt: z.string().nullable(),
      statusLabel: z.enum(SHOOT_STATUS_LABELS),
      hibernated: z.boolean(),
      hibernation: z
        .object({ enabled: z.boolean(), hibernateAt: z.string().optional(), wakeAt: z.string().optional() })
        .optional()
        .meta({
          description:
            "Only for a shoot with hibernation schedules: spec.hibernation.enabled and the schedules' next hibernate and wake moments.",
        }),
      conditions: z.array(z.object({ type: z.string(), status: z.string(), reason: z.string().optional() })),
      lastOperation: z
        .object({
          type: z.string(),
          state: z.string(),
          progress: z.number().optional(),
          description: z.string().optional(),
          lastUpdateTime: z.string().optional(),
        })
        .nullable(),
      lastErrorCodes: z.array(z.string()),
      kubernetes: versionStateSchema,
      workers: z.array(
        z.object({
          name: z.string(),
          machineType: z.string(),
          image: z
            .object({
              name: z.string(),
              version: z.string().optional(),
              classification: classificationSchema.optional(),
              expiresAt: z.string().optional(),
            })
            .optional(),
          kubernetes: versionStateSchema.optional(),
          minimum: z.number().optional(),
          maximum: z.number().optional(),
        }),
      ),
      rolloutPending: z
        .boolean()
        .meta({ description: "Spec changes waiting for the maintenance window (confineSpecUpdateRollout)." }),
      updateRisk: updateRiskBriefSchema.nullable().meta({
        description: "Why the updates maintenance promises may not happen; null when nothing speaks against them.",
      }),
      rollout: versionRolloutSchema.nullable().meta({
        description: "Lanes that still run another version than the spec asks, and when the asked one will run.",
      }),
      earliestExpiry: z.object({ at: z.string(), version: z.string().nullable() }).nullable(),
      maintenance: z.object({
        timeWindow: timeWindowSchema.nullable(),
        autoUpdate: z.object({ kubernetesVersion: z.boolean(), machineImageVersion: z.boolean() }),
        confineSpecUpdateRollout: z.boolean(),
      }),
      nextMaintenance: z
        .object({ at: z.string() })
        .nullable()
        .meta({ description: "null for a shoot that is not maintained (being deleted)." }),
    }),
  ),
);

export const shootListAnswerSchema = describes<ShootListAnswer>()(
  component(
    "ShootPage",
    z.object({
      items: z.array(shootRowSchema),
      total: z.int().meta({
        description: "Shoots the filters select, on every page; with totalBounded, a bound they exceed.",
      }),
      totalBounded: z.literal(true).optional().meta({
        description:
          "Only on a search (q) or a label selector (labels) with more matches than it counts (5,000): more than total shoots match. Absent otherwise.",
      }),
      nextCursor: z.string().nullable().meta({ description: "Pass as cursor for the next page; null on the last." }),
    }),
  ),
);

export const fleetSummarySchema = describes<FleetSummary>()(
  component(
    "FleetSummary",
    z.object({
      total: z.int().meta({ description: "What the filters other than status and expiry select." }),
      statusTotal: z.int().meta({ description: "What the status tiles count out of." }),
      expiryTotal: z.int().meta({ description: "What the expiry tiles count out of." }),
      byStatus: z.object({ healthy: z.int(), progressing: z.int(), unknown: z.int(), unhealthy: z.int() }),
      expiringWithinDays: z
        .record(z.string(), z.int())
        .meta({ description: 'Keyed by the horizon in days ("7", "30").' }),
    }),
  ),
);
