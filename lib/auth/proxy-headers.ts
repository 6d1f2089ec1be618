// What reaches the app of a trusted proxy's word. Route handlers see a request's headers but not
// its TCP peer, so the Node server in front of Next (scripts/web-worker.mjs) decides: it removes
// every client-sent copy of the internal headers, and sets them only when the feature is on, the
// peer is a listed proxy address and the proxy named a user. The configured user and group
// headers are removed in every case, so nothing downstream can read an unchecked one. `identify`
// then believes the internal headers only in a process whose requests all passed through here.
import type { IncomingHttpHeaders } from "node:http";
import { inRanges } from "../config/cidr-ranges.ts";
import { type TrustedProxyConfig, trustedProxy, trustedProxyEnabled } from "./trusted-proxy.ts";

/** Who the trusted proxy says is asking (set by the guard below, never by a client). */
export const PROXY_USER_HEADER = "x-almanac-proxy-user";
/** Their groups, comma-separated. */
export const PROXY_GROUPS_HEADER = "x-almanac-proxy-groups";

export interface ProxyIdentity {
  /** The user header's value as the proxy sent it (trimmed): an email, or a login name. */
  readonly user: string;
  readonly groups: readonly string[];
}

interface NodeRequest {
  headers: IncomingHttpHeaders;
  socket: { remoteAddress?: string };
}

/**
 * A longer value, a control character or a comma (two user headers, which Node joins with ", ") is
 * no single person's name: such a request is not signed in by the proxy.
 */
const isUserName = (value: string): boolean =>
  value.length > 0 && value.length <= 256 && [...value].every((c) => c >= " " && c !== "\x7f" && c !== ",");

const listOf = (value: string | string[] | undefined): string[] =>
  [value ?? []]
    .flat()
    .flatMap((v) => v.split(","))
    .map((g) => g.trim())
    .filter((g) => g !== "");

const isTrustedPeer = (config: TrustedProxyConfig, address: string | undefined): boolean =>
  inRanges(config.addresses, address);

/** Rewrites `request.headers` in place: the internal headers are set only on a trusted proxy's word. */
export function guardProxyHeaders(request: NodeRequest, config: TrustedProxyConfig): void {
  const { headers } = request;
  const user = headers[config.userHeader];
  const groups = headers[config.groupsHeader];
  for (const name of [PROXY_USER_HEADER, PROXY_GROUPS_HEADER, config.userHeader, config.groupsHeader]) {
    delete headers[name];
  }
  if (typeof user !== "string" || !isTrustedPeer(config, request.socket.remoteAddress)) return;
  const name = user.trim();
  if (!isUserName(name)) return;
  headers[PROXY_USER_HEADER] = name;
  headers[PROXY_GROUPS_HEADER] = [...new Set(listOf(groups))].join(",");
}

// Set once the web server guards every request of this process. Next bundles its own copy of this
// module, so the mark lives on globalThis, under a name only this module uses.
const GUARDED = Symbol.for("almanac.proxy-headers-guarded");
const marks = globalThis as { [GUARDED]?: boolean };

/**
 * The guard with the configured settings (read once), for the web server to call on every request.
 * Calling this marks the process: behind `next start` or `next dev`, where nothing guards the
 * headers, the internal headers are never believed.
 */
export function proxyHeaderGuard(config: TrustedProxyConfig = trustedProxy()): (request: NodeRequest) => void {
  marks[GUARDED] = true;
  return (request) => guardProxyHeaders(request, config);
}

/**
 * The proxy's person of a request, or undefined. Asks again whether the feature is on and whether
 * this process guards its requests, so a missing setting fails closed rather than open.
 */
export function proxyIdentity(headers: Headers): ProxyIdentity | undefined {
  if (!trustedProxyEnabled() || marks[GUARDED] !== true) return undefined;
  const user = headers.get(PROXY_USER_HEADER)?.trim();
  if (!user) return undefined;
  return { user, groups: listOf(headers.get(PROXY_GROUPS_HEADER) ?? undefined) };
}
