// POST /api/v1/setup (201): the first admin was made from the setup link's token.
import { z } from "zod";
import { component } from "./components.ts";

export const setupAnswerSchema = component("SetupDone", z.object({ email: z.string() }));
export type SetupAnswer = z.output<typeof setupAnswerSchema>;
