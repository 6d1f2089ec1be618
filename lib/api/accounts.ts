// /api/v1/accounts: the people who may sign in, with their roles, and what an admin sends to make
// one or to change their roles. The request schemas are the contract: the server validates with
// them, and the pages read their limits.
import { passwordSchema } from "./password-policy.ts";
import { z } from "zod";
import { component } from "./components.ts";
import { describes } from "./schema-agreement.ts";

export const API_ROLES = ["viewer", "operator", "admin"] as const;
export type ApiRole = (typeof API_ROLES)[number];
/** The scope of a role on the whole landscape; any other scope is a project's name. */
export const LANDSCAPE_SCOPE = "*";

export interface RoleBindingJson {
  readonly role: ApiRole;
  /** "*" for the whole landscape, else a project's name. */
  readonly scope: string;
}

export interface AccountJson {
  readonly id: string;
  readonly name: string;
  readonly email: string;
  /** ISO 8601. */
  readonly created: string;
  /** The roles granted to the person here (what PUT .../roles replaces). */
  readonly bindings: readonly RoleBindingJson[];
  /** Their company groups at their last OIDC sign-in (empty for built-in accounts). */
  readonly groups: readonly string[];
  /** The roles their groups bring through ALMANAC_GROUP_ROLES, beside `bindings`. */
  readonly groupBindings: readonly RoleBindingJson[];
}

export interface AccountListAnswer {
  readonly items: readonly AccountJson[];
}

export { PASSWORD_MIN_LENGTH } from "./password-policy.ts";

export const roleSchema = z.enum(API_ROLES, { error: 'one of "viewer", "operator", "admin"' });
export const scopeSchema = z
  .string()
  .trim()
  .min(1, 'enter "*" for the whole landscape, or a project\'s name')
  .max(63, "a project's name has at most 63 characters");

export const roleBindingSchema = z.strictObject({ role: roleSchema, scope: scopeSchema });

/** POST /api/v1/accounts: a built-in account (email and password) with one role. */
export const createAccountSchema = z.strictObject({
  name: z.string().trim().min(1, "enter a name").max(100, "at most 100 characters"),
  email: z.email("enter an email address").max(254, "at most 254 characters"),
  password: passwordSchema,
  role: roleSchema,
  scope: scopeSchema,
});
export type CreateAccountRequest = z.infer<typeof createAccountSchema>;

/** PUT /api/v1/accounts/{id}/roles: the account's roles, all of them (none is allowed). */
export const accountRolesSchema = z.strictObject({
  bindings: z
    .array(roleBindingSchema)
    .max(100, "at most 100 roles")
    .refine((list) => new Set(list.map((b) => b.scope)).size === list.length, {
      error: "one role per scope: the same scope appears twice",
    }),
});
export type AccountRolesRequest = z.infer<typeof accountRolesSchema>;

export const roleBindingJsonSchema = describes<RoleBindingJson>()(
  component("RoleBinding", z.object({ role: z.enum(API_ROLES), scope: z.string() })),
);

export const accountJsonSchema = describes<AccountJson>()(
  component(
    "Account",
    z.object({
      id: z.string(),
      name: z.string(),
      email: z.string(),
      created: z.string().meta({ description: "ISO 8601" }),
      bindings: z.array(roleBindingJsonSchema),
      groups: z.array(z.string()),
      groupBindings: z.array(roleBindingJsonSchema),
    }),
  ),
);

export const accountListAnswerSchema = describes<AccountListAnswer>()(
  component("AccountList", z.object({ items: z.array(accountJsonSchema) })),
);
