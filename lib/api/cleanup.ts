// GET .../shoots/{name}/cleanup: what a deletion of the shoot would leave and how long it would
// wait, shown next to the deletion action: the resources labelled shoot.gardener.cloud/no-cleanup
// (Gardener leaves them; their owner deletes them) and the cleanup's grace periods in effect
// (lib/engine/deletion-cleanup.ts).
import { z } from "zod";
import { component } from "./components.ts";

export const shootCleanupAnswerSchema = component(
  "ShootCleanup",
  z.object({
    namespace: z.string(),
    name: z.string(),
    inventoryKnown: z.boolean().meta({
      description:
        "Whether Almanac knows what runs inside the shoot (the simulated garden does; a live garden's shoots are not looked into), so whether noCleanup is complete.",
    }),
    skipCleanup: z.boolean().meta({ description: "The shoot carries shoot.gardener.cloud/skip-cleanup." }),
    gracePeriods: z.array(
      z.object({
        step: z.string(),
        kinds: z.array(z.string()),
        annotation: z.string(),
        value: z.string().nullable().meta({ description: "The annotation's value on the shoot; null when unset." }),
        defaultFinalizeAfterSeconds: z.number(),
        gracePeriodSeconds: z.number().nullable(),
        finalizeAfterSeconds: z
          .number()
          .nullable()
          .meta({ description: "When remaining objects have their finalizers removed; null when not readable." }),
        skipped: z.boolean(),
        error: z.string().nullable(),
      }),
    ),
    noCleanup: z.array(
      z.object({
        kind: z.string(),
        namespace: z.string().nullable(),
        name: z.string(),
        finalizers: z.array(z.string()),
        outcome: z.enum(["spared", "deleted-anyway", "not-cleaned"]).meta({
          description:
            "spared: the cleanup leaves it; deleted-anyway: the cleanup ignores the label for its kind (APIServices); not-cleaned: a kind the cleanup never deletes.",
        }),
      }),
    ),
  }),
);
export type ShootCleanupAnswer = z.output<typeof shootCleanupAnswerSchema>;
