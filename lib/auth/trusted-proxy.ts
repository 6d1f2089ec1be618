// The trusted reverse proxy's settings: a company's authenticating proxy (oauth2-proxy, an ingress
// with auth, Apache's mod_auth_*) signs people in and names them in a request header. Believing
// such a header from anyone would let every client name itself, so the feature is off unless
// ALMANAC_TRUSTED_PROXY_ADDRESSES lists the proxy's own addresses (IPs and CIDR ranges, IPv4 and
// IPv6), and even then only a request whose TCP peer is one of them is believed.
// ALMANAC_TRUSTED_PROXY_USER_HEADER and ALMANAC_TRUSTED_PROXY_GROUPS_HEADER name the headers.
// lib/config checks them all at start (no /0, no header Almanac reads for itself, two names).
import type { CidrRange } from "../config/cidr-ranges.ts";
import { type Config, config } from "../config/load-config.ts";

export interface TrustedProxyConfig {
  /** The peers whose headers are believed; none while the feature is off. */
  readonly addresses: readonly CidrRange[];
  /** The header names in lower case, as Node's `request.headers` has them. */
  readonly userHeader: string;
  readonly groupsHeader: string;
}

/** The trusted proxy's part of `settings`. */
export const trustedProxyOf = ({ signIn }: Pick<Config, "signIn">): TrustedProxyConfig => ({
  addresses: signIn.trustedProxyAddresses,
  userHeader: signIn.trustedProxyUserHeader,
  groupsHeader: signIn.trustedProxyGroupsHeader,
});

/** This process's settings. */
export const trustedProxy = (): TrustedProxyConfig => trustedProxyOf(config());

/** Whether ALMANAC_TRUSTED_PROXY_ADDRESSES is set, i.e. the feature is on. */
export const trustedProxyEnabled = (settings: Pick<Config, "signIn"> = config()): boolean =>
  settings.signIn.trustedProxyAddresses.length > 0;
