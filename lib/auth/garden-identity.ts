// Who a request acts as in a live garden, so the garden's own RBAC decides what they may do.
// The admin token acts as Almanac itself (the kubeconfig's identity); a person acts as their
// email with their company groups; an API token as a user named after it, which the garden's
// RBAC can bind like anyone else. The simulated garden records the name and ignores the rest.
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

export function gardenIdentityOf(principal: Principal): GardenIdentity {
  if (principal.kind === "admin-token") return { kind: "almanac" };
  if (principal.kind === "token") return { kind: "person", user: tokenGardenUser(principal.name), groups: [] };
  return { kind: "person", user: principal.email, groups: principal.groups, userId: principal.id };
}
