// Every setting of sign-in and access control, checked once before Almanac starts, so a mistake
// stops the start with a message naming the variable instead of failing a request later.
import { adminToken } from "./admin-token.ts";
import { groupRoles } from "./group-roles.ts";
import { oidcConfig } from "./oidc-config.ts";
import { sessionMaxMs } from "./session-lifetime.ts";
import { trustedProxy } from "./trusted-proxy.ts";

/** Throws an error naming the first malformed setting. */
export function checkAuthConfig(): void {
  adminToken(); // refuses a value too short to be a secret
  groupRoles();
  oidcConfig();
  trustedProxy(); // addresses and header names of the trusted proxy
  sessionMaxMs(); // ALMANAC_SESSION_MAX_HOURS
}
