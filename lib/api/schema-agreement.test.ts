// The checks work at compile time: each @ts-expect-error below must meet an error, or tsc (part of
// npm test) fails. The runtime assertions only keep vitest counting the file.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { admits, describes } from "./schema-agreement.ts";

interface Answer {
  readonly name: string;
  readonly count?: number;
  readonly items: readonly { readonly at: string | null }[];
}

interface GardenObject {
  metadata: { name: string; uid?: string; [key: string]: unknown };
  [key: string]: unknown;
}

describe("describes", () => {
  it("takes a schema with exactly the type's members", () => {
    const schema = describes<Answer>()(
      z.object({
        name: z.string(),
        count: z.number().optional(),
        items: z.array(z.object({ at: z.string().nullable() })),
      }),
    );
    expect(schema.parse({ name: "a", items: [{ at: null }] })).toEqual({ name: "a", items: [{ at: null }] });
  });

  it("refuses a schema with a member more, a member less, or one of another type or optionality", () => {
    const items = z.array(z.object({ at: z.string().nullable() }));
    // @ts-expect-error a member the type does not have
    describes<Answer>()(z.object({ name: z.string(), count: z.number().optional(), items, extra: z.string() }));
    // @ts-expect-error a member missing
    describes<Answer>()(z.object({ name: z.string(), items }));
    // @ts-expect-error required where the type has it optional
    describes<Answer>()(z.object({ name: z.string(), count: z.number(), items }));
    const notNullable = z.array(z.object({ at: z.string() }));
    // @ts-expect-error not nullable where the type is
    describes<Answer>()(z.object({ name: z.string(), count: z.number().optional(), items: notNullable }));
    expect(true).toBe(true);
  });
});

describe("admits", () => {
  it("takes a schema that holds for every value of the type, saying less", () => {
    const schema = admits<GardenObject>()(z.looseObject({ metadata: z.looseObject({ name: z.string() }) }));
    expect(schema.parse({ metadata: { name: "a", uid: "1" }, spec: {} })).toBeDefined();
  });

  it("refuses a schema that requires what the type leaves optional", () => {
    // @ts-expect-error uid is optional in the type
    admits<GardenObject>()(z.looseObject({ metadata: z.looseObject({ name: z.string(), uid: z.string() }) }));
    expect(true).toBe(true);
  });
});
