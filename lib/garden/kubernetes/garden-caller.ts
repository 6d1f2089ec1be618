// Who a request acts as in the garden, by ALMANAC_GARDEN_IDENTITY (garden-config.ts):
// - the admin token acts as Almanac's own identity (the kubeconfig's user), in every mode;
// - "oidc": a person with their own OIDC ID token from company sign-in (refused once it has
//   expired); someone without one (a password account, an API token, a person the trusted proxy
//   vouches for who never used company sign-in) has no identity in the garden, and is refused,
//   saying what they can do instead;
// - "read-only": every person is refused (the admin token still writes);
// - "impersonation": the person's user and groups, impersonated by Almanac's identity, never a
//   `system:` user or group (those are Kubernetes' own: system:masters is every right there is).
import { type GardenIdentity, isBuiltInGardenUser, isTokenGardenUser } from "../../auth/garden-identity.ts";
import { personsIdToken } from "../../auth/oidc-id-token.ts";
import type { Queryable } from "../../db/client.ts";
import type { GardenIdentityMode } from "../garden-config.ts";
import type { ShootRefusal } from "../shoot-writes.ts";
import type { GardenCaller } from "./garden-api.ts";
import { systemNames } from "./impersonation.ts";

type Person = Extract<GardenIdentity, { kind: "person" }>;

const noIdentity = (message: string): { readonly refusal: ShootRefusal } => ({
  refusal: { code: "NoGardenIdentity", message },
});

/**
 * What the garden is asked for as the person: a change, or a viewer kubeconfig to read the shoot's
 * nodes (the same identity either way; only the words differ).
 */
export type GardenPurpose = "change" | "read-nodes";

/** What someone without a garden identity of their own can do, in words. */
function withoutOwnToken(person: Person, purpose: GardenPurpose): string {
  const what = isTokenGardenUser(person.user)
    ? "an API token"
    : isBuiltInGardenUser(person.user)
      ? "a password account"
      : "a sign-in other than the company's";
  if (purpose === "read-nodes")
    return (
      `this garden acts for a person only with their own company sign-in, and ${what} has none in the garden. ` +
      "To read the nodes from inside the shoot, sign in with the company sign-in."
    );
  return (
    `this garden takes changes only with each person's own company sign-in, and ${what} has none in the garden. ` +
    `It can read what the garden lets ${person.user} read; to change shoots, sign in with the company sign-in, ` +
    "or ask an administrator (the admin token changes shoots as Almanac's own identity)."
  );
}

export async function gardenCaller(
  db: Queryable,
  mode: GardenIdentityMode,
  identity: GardenIdentity,
  now: number,
  purpose: GardenPurpose = "change",
): Promise<{ readonly caller: GardenCaller } | { readonly refusal: ShootRefusal }> {
  if (identity.kind === "almanac") return { caller: { kind: "almanac" } };
  if (mode === "read-only" && purpose === "read-nodes")
    return noIdentity(
      "in this garden Almanac acts only as its own identity (ALMANAC_GARDEN_IDENTITY=read-only), which may not " +
        "request viewer kubeconfigs, so it cannot read the nodes inside the shoot for you.",
    );
  if (mode === "read-only")
    return noIdentity(
      "people do not change shoots in this garden through Almanac (ALMANAC_GARDEN_IDENTITY=read-only); " +
        "an administrator can, with the admin token, which acts as Almanac's own identity.",
    );
  if (mode === "impersonation") {
    const system = systemNames(identity);
    if (system.length > 0)
      return noIdentity(
        `Almanac never impersonates Kubernetes' own users and groups (${system.join(", ")}); ask an administrator.`,
      );
    return { caller: { kind: "impersonated", user: identity.user, groups: identity.groups } };
  }
  if (identity.userId === undefined) return noIdentity(withoutOwnToken(identity, purpose));
  const found = await personsIdToken(db, identity.userId, now);
  if (found.kind === "none") return noIdentity(withoutOwnToken(identity, purpose));
  if (found.kind === "expired")
    return {
      refusal: {
        code: "SignInAgain",
        message:
          purpose === "read-nodes"
            ? "Your company sign-in has expired, and the garden acts for you only with it."
            : "Your company sign-in has expired, and the garden takes changes only with it.",
      },
    };
  return { caller: { kind: "bearer", token: found.token } };
}
