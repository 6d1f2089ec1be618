// DELETE /api/v1/namespaces/{ns}/shoots/{name} (202) and GET .../deletion: a shoot's deletion as
// its cleanup steps (lib/engine/deletion-cleanup.ts), each with what it deletes and keeps.
import { z } from "zod";
import { component } from "./components.ts";

const stepFields = {
  name: z.string(),
  deletes: z.array(z.string()).meta({ description: "The resources the step deletes." }),
  keeps: z.array(z.string()).meta({ description: "The resources it leaves, as Gardener does." }),
  forced: z.boolean().meta({ description: "Whether stuck resources (finalizers) had to be finalized forcibly." }),
  skipped: z.boolean(),
};

export const startedDeletionAnswerSchema = component(
  "StartedDeletion",
  z.object({
    id: z.string(),
    namespace: z.string(),
    name: z.string(),
    steps: z.array(z.object({ ...stepFields, seconds: z.number() })),
    message: z.string(),
  }),
);
export type StartedDeletionAnswer = z.output<typeof startedDeletionAnswerSchema>;

export const shootDeletionAnswerSchema = component(
  "ShootDeletion",
  z.object({
    id: z.string(),
    namespace: z.string(),
    name: z.string(),
    actor: z.string(),
    state: z.enum(["Processing", "Error", "Failed", "Succeeded"]),
    startedAt: z.string().nullable(),
    finishedAt: z.string().nullable(),
    steps: z.array(
      z.object({
        ...stepFields,
        startedAt: z.string().nullable(),
        endedAt: z.string().nullable(),
        message: z.string().nullable(),
        errors: z.array(z.string()).meta({ description: "Attempts the task's timeout cut short, as lastErrors said." }),
      }),
    ),
  }),
);
export type ShootDeletionAnswer = z.output<typeof shootDeletionAnswerSchema>;
