// POST .../maintain (202): whether a run was queued, and what it will change as computed when it
// was asked for (the run itself decides on the shoot as it is then).
import { z } from "zod";
import { component } from "./components.ts";
import { type PlannedChange, plannedChangeSchema } from "./maintenance-plan.ts";
import { describes } from "./schema-agreement.ts";

export interface MaintainNowAnswer {
  readonly namespace: string;
  readonly name: string;
  /** False when a run was already pending: nothing more was queued. */
  readonly queued: boolean;
  readonly message: string;
  /** The shoot's resourceVersion after the request: older reads predate it. */
  readonly resourceVersion: string;
  readonly plan: { readonly changes: readonly PlannedChange[]; readonly summary: string };
}

export const maintainNowAnswerSchema = describes<MaintainNowAnswer>()(
  component(
    "MaintainNow",
    z.object({
      namespace: z.string(),
      name: z.string(),
      queued: z.boolean().meta({ description: "False when a run was already pending: nothing more was queued." }),
      message: z.string(),
      resourceVersion: z
        .string()
        .meta({ description: "The shoot's resourceVersion after the request: older reads predate it." }),
      plan: z.object({ changes: z.array(plannedChangeSchema), summary: z.string() }),
    }),
  ),
);
