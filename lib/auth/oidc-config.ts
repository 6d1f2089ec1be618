// Sign-in with the company's identity (OpenID Connect), configured by environment:
//   ALMANAC_OIDC_ISSUER         the issuer URL (its /.well-known/openid-configuration is read)
//   ALMANAC_OIDC_CLIENT_ID      the client Almanac is registered as
//   ALMANAC_OIDC_CLIENT_SECRET  that client's secret
//   ALMANAC_OIDC_GROUPS_CLAIM   the claim that lists a person's groups (default "groups")
//   ALMANAC_OIDC_SCOPES         the scopes asked for (default "openid email profile")
//   ALMANAC_OIDC_NAME           what the sign-in button calls the provider (default "company sign-in")
// The issuer sends people back to ALMANAC_PUBLIC_URL/api/auth/callback/oidc, so a public URL
// is required: the redirect URI registered with the issuer must not depend on how a request came.
// lib/config reads and checks them (https, or http only to this machine; all three given together).
import { type Config, config } from "../config/load-config.ts";

export const OIDC_PROVIDER_ID = "oidc";

export interface OidcConfig {
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly groupsClaim: string;
  readonly scopes: readonly string[];
  readonly displayName: string;
}

/** The OIDC settings, or undefined when ALMANAC_OIDC_ISSUER is unset (lib/config checks them together). */
export function oidcConfig({ signIn }: Pick<Config, "signIn"> = config()): OidcConfig | undefined {
  const { oidcIssuer, oidcClientId, oidcClientSecret } = signIn;
  if (oidcIssuer === undefined || oidcClientId === undefined || oidcClientSecret === undefined) return undefined;
  return {
    issuer: oidcIssuer.replace(/\/+$/, ""),
    clientId: oidcClientId,
    clientSecret: oidcClientSecret,
    groupsClaim: signIn.oidcGroupsClaim,
    scopes: signIn.oidcScopes,
    displayName: signIn.oidcName,
  };
}

/**
 * The groups in a claim's value: issuers send a list, some a single string or a comma-separated
 * one. Anything else (a number, an object) brings no groups.
 */
export function groupsOfClaim(value: unknown): string[] {
  const names = Array.isArray(value) ? value : typeof value === "string" ? value.split(",") : [];
  return [...new Set(names.filter((n): n is string => typeof n === "string").map((n) => n.trim()))].filter(
    (n) => n !== "" && n.length <= 256,
  );
}
