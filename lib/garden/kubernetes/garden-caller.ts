// Who a request acts as in the garden: the admin token as Almanac's own identity; a person by
// impersonation, or (ALMANAC_GARDEN_IDENTITY=oidc) with their own OIDC ID token from company
// sign-in, refused when it has expired. Someone who never signed in that way (a password account,
// an API token) is impersonated in either mode: the garden's RBAC decides whether Almanac may.
import type { GardenIdentity } from "../../auth/garden-identity.ts";
import { personsIdToken } from "../../auth/oidc-id-token.ts";
import type { Queryable } from "../../db/client.ts";
import type { GardenIdentityMode } from "../garden-config.ts";
import type { ShootRefusal } from "../shoot-writes.ts";
import type { GardenCaller } from "./garden-api.ts";

export async function gardenCaller(
  db: Queryable,
  mode: GardenIdentityMode,
  identity: GardenIdentity,
  now: number,
): Promise<{ readonly caller: GardenCaller } | { readonly refusal: ShootRefusal }> {
  if (identity.kind === "almanac") return { caller: { kind: "almanac" } };
  const impersonated = { caller: { kind: "impersonated", user: identity.user, groups: identity.groups } } as const;
  if (mode !== "oidc" || identity.userId === undefined) return impersonated;
  const found = await personsIdToken(db, identity.userId, now);
  if (found.kind === "none") return impersonated;
  if (found.kind === "expired")
    return {
      refusal: {
        code: "SignInAgain",
        message: "Your company sign-in has expired, and the garden takes changes only with it.",
      },
    };
  return { caller: { kind: "bearer", token: found.token } };
}
