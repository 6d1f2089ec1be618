// Who a request acts as in a live garden, so the garden's own RBAC decides what they may do.
// The admin token acts as Almanac itself (the kubeconfig's identity). A person the company
// vouches for (company sign-in, or the trusted proxy) acts as their email with their company
// groups, except Kubernetes' own "system:" groups, which no identity provider may hand out. A
// built-in password account acts as "almanac:user:<email>": only Almanac vouches for it, and an
// Almanac admin must not become any garden user by making an account with their email. An API
// token acts as "almanac:token:<name>". The garden's RBAC can bind those names like anyone
// else's. The simulated garden records the name and ignores the rest.
import type { Principal } from "./principal.ts";

export type GardenIdentity =
  /** Almanac's own identity in the garden: the kubeconfig's user, or the in-cluster service account. */
  | { readonly kind: "almanac" }
  | {
      readonly kind: "person";
      /** The user name the garden sees (Impersonate-User). */
      readonly user: string;
      /** Their groups (Impersonate-Group). */
      readonly groups: readonly string[];
      /** Almanac's user id, to find their OIDC token when the garden trusts the same issuer. */
      readonly userId?: string;
    };

/** The garden user an API token acts as. */
export const tokenGardenUser = (name: string) => `almanac:token:${name}`;

/** The garden user a built-in (password) account acts as. */
export const builtInGardenUser = (email: string) => `almanac:user:${email}`;

export const isTokenGardenUser = (user: string) => user.startsWith("almanac:token:");
export const isBuiltInGardenUser = (user: string) => user.startsWith("almanac:user:");

const companyGroups = (groups: readonly string[]) => groups.filter((g) => !g.startsWith("system:"));

export function gardenIdentityOf(principal: Principal): GardenIdentity {
  if (principal.kind === "admin-token") return { kind: "almanac" };
  if (principal.kind === "token") return { kind: "person", user: tokenGardenUser(principal.name), groups: [] };
  if (!principal.company) return { kind: "person", user: builtInGardenUser(principal.email), groups: [] };
  return { kind: "person", user: principal.email, groups: companyGroups(principal.groups), userId: principal.id };
}
