// /api/v1/tokens: API tokens for automation. Only a hash of each value is stored, so the value is
// in one answer only: the one that creates it.
import { z } from "zod";
import { API_ROLES, type ApiRole, roleSchema, scopeSchema } from "./accounts.ts";
import { component } from "./components.ts";
import { describes } from "./schema-agreement.ts";

export interface ApiTokenJson {
  readonly id: string;
  readonly name: string;
  readonly role: ApiRole;
  /** "*" for the whole landscape, else a project's name. */
  readonly scope: string;
  /** Who made it, as the audit log names them. */
  readonly createdBy: string;
  /** ISO 8601; null when it never expires, has not been used, is not revoked. */
  readonly created: string;
  readonly expires: string | null;
  readonly lastUsed: string | null;
  readonly revoked: string | null;
}

export interface TokenListAnswer {
  readonly items: readonly ApiTokenJson[];
}

/** The answer of POST /api/v1/tokens: the stored fields and, this once, the value. */
export interface CreatedTokenAnswer extends ApiTokenJson {
  readonly value: string;
}

export const TOKEN_NAME_PATTERN = /^[a-z0-9-]{1,63}$/;
export const TOKEN_MAX_DAYS = 365;

/** POST /api/v1/tokens. */
export const createTokenSchema = z.strictObject({
  name: z.string().regex(TOKEN_NAME_PATTERN, "1 to 63 characters: lower-case letters, digits and '-'"),
  role: roleSchema,
  scope: scopeSchema,
  expiresInDays: z
    .int(`a whole number of days from 1 to ${TOKEN_MAX_DAYS}, or null for none`)
    .min(1, "at least 1 day")
    .max(TOKEN_MAX_DAYS, `at most ${TOKEN_MAX_DAYS} days`)
    .nullable(),
});
export type CreateTokenRequest = z.infer<typeof createTokenSchema>;

const tokenFields = {
  id: z.string(),
  name: z.string(),
  role: z.enum(API_ROLES),
  scope: z.string(),
  createdBy: z.string(),
  created: z.string(),
  expires: z.string().nullable().meta({ description: "null when it never expires." }),
  lastUsed: z.string().nullable().meta({ description: "null when it has not been used." }),
  revoked: z.string().nullable().meta({ description: "null when it is not revoked." }),
};

export const apiTokenJsonSchema = describes<ApiTokenJson>()(component("ApiToken", z.object(tokenFields)));

export const tokenListAnswerSchema = describes<TokenListAnswer>()(
  component("ApiTokenList", z.object({ items: z.array(apiTokenJsonSchema) })),
);

export const createdTokenAnswerSchema = describes<CreatedTokenAnswer>()(
  component(
    "CreatedApiToken",
    z.object({ ...tokenFields, value: z.string().meta({ description: "The token, in this answer only." }) }),
  ),
);
