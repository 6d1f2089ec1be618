// What a forecast item carries when Gardener will force it inside a freeze (lib/api/freezes.ts):
// the freeze that covers it. A file of its own so that the forecast's contract can name it
// without importing the freezes' (which names the forecast's items).
import { z } from "zod";
import { component } from "./components.ts";
import { describes } from "./schema-agreement.ts";

/** What a forecast item carries when it falls inside a freeze (the freeze that covers it). */
export interface FreezeMark {
  readonly id: string;
  readonly reason: string;
  readonly start: string;
  readonly end: string;
  readonly project: string | null;
}

export const freezeMarkSchema = describes<FreezeMark>()(
  component(
    "FreezeMark",
    z.object({
      id: z.string(),
      reason: z.string(),
      start: z.string(),
      end: z.string(),
      project: z.string().nullable().meta({ description: "null: the whole landscape." }),
    }),
  ),
);
