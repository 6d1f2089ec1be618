// Sign-in with the company's identity (OpenID Connect), configured by environment:
//   ALMANAC_OIDC_ISSUER         the issuer URL (its /.well-known/openid-configuration is read)
//   ALMANAC_OIDC_CLIENT_ID      the client Almanac is registered as
//   ALMANAC_OIDC_CLIENT_SECRET  that client's secret
//   ALMANAC_OIDC_GROUPS_CLAIM   the claim that lists a person's groups (default "groups")
//   ALMANAC_OIDC_SCOPES         the scopes asked for (default "openid email profile")
//   ALMANAC_OIDC_NAME           what the sign-in button calls the provider (default "company sign-in")
// The issuer sends people back to ALMANAC_PUBLIC_URL/api/auth/callback/oidc, so a public URL
// is required: the redirect URI registered with the issuer must not depend on how a request came.

export const OIDC_PROVIDER_ID = "oidc";

export interface OidcConfig {
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly groupsClaim: string;
  readonly scopes: readonly string[];
  readonly displayName: string;
}

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

function httpsOrLoopback(name: string, value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`${name} must be a URL, not "${value}".`);
  }
  // Plain http only to this machine (a test issuer): elsewhere the code and tokens would travel
  // in the clear.
  if (url.protocol !== "https:" && !(url.protocol === "http:" && LOOPBACK.has(url.hostname)))
    throw new Error(`${name} must be an https:// URL (http:// only for localhost), not "${value}".`);
  return url;
}

/** The OIDC settings, or undefined when ALMANAC_OIDC_ISSUER is unset; throws naming what is missing. */
export function oidcConfig(env: Readonly<Record<string, string | undefined>> = process.env): OidcConfig | undefined {
  const issuer = env.ALMANAC_OIDC_ISSUER?.trim();
  if (!issuer) return undefined;
  httpsOrLoopback("ALMANAC_OIDC_ISSUER", issuer);
  const required = (name: string) => {
    const value = env[name]?.trim();
    if (!value) throw new Error(`${name} must be set when ALMANAC_OIDC_ISSUER is.`);
    return value;
  };
  const clientId = required("ALMANAC_OIDC_CLIENT_ID");
  const clientSecret = required("ALMANAC_OIDC_CLIENT_SECRET");
  httpsOrLoopback("ALMANAC_PUBLIC_URL", required("ALMANAC_PUBLIC_URL"));
  const scopes = (env.ALMANAC_OIDC_SCOPES?.trim() || "openid email profile").split(/[\s,]+/);
  if (!scopes.includes("openid"))
    throw new Error(`ALMANAC_OIDC_SCOPES must include "openid" (it is "${scopes.join(" ")}").`);
  return {
    issuer: issuer.replace(/\/+$/, ""),
    clientId,
    clientSecret,
    groupsClaim: env.ALMANAC_OIDC_GROUPS_CLAIM?.trim() || "groups",
    scopes,
    displayName: env.ALMANAC_OIDC_NAME?.trim() || "company sign-in",
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
