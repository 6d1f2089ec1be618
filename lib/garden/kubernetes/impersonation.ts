// Acting as a person in the garden by impersonation: Almanac's own credentials, and the headers
// `Impersonate-User: <user>` and one `Impersonate-Group: <group>` line per group, so that the
// garden's RBAC decides what the person may do (Kubernetes reads every Impersonate-Group line as
// one group; one line with the groups joined by commas would be a single group with commas in its
// name). client-node keeps a request's headers in a plain object, one value per name, and undici's
// fetch joins repeated values with a comma; so the lines are added one layer further down, by an
// interceptor around the undici dispatcher the request is sent with (the one KubeConfig sets for
// its TLS settings, or undici's global one). Kubernetes' own `system:` users and groups are never
// impersonated (system:masters holds every right): a request for one throws before it is sent.
import type { RequestContext } from "@kubernetes/client-node";
import { type Dispatcher, getGlobalDispatcher } from "undici";

const IMPERSONATION = /^impersonate-/i;

export interface Impersonated {
  readonly user: string;
  readonly groups: readonly string[];
}

const SYSTEM = "system:";

/** The `system:` names among `who`'s user and groups (Almanac impersonates none of them). */
export function systemNames(who: Impersonated): string[] {
  return [who.user, ...who.groups].filter((name) => name.startsWith(SYSTEM));
}

/** Almanac was asked to impersonate a `system:` user or group. */
export class SystemImpersonationError extends Error {}

/** The request's headers as name/value pairs, whatever form undici was given them in. */
function headerPairs(headers: Dispatcher.DispatchOptions["headers"]): [string, string | string[]][] {
  if (!headers) return [];
  if (Array.isArray(headers)) {
    const pairs: [string, string][] = [];
    for (let i = 0; i + 1 < headers.length; i += 2) pairs.push([headers[i], headers[i + 1]]);
    return pairs;
  }
  const entries: Iterable<[string, string | string[] | number | undefined]> =
    Symbol.iterator in headers
      ? (headers as Iterable<[string, string | string[] | undefined]>)
      : Object.entries(headers as Record<string, string | string[] | number | undefined>);
  const pairs: [string, string | string[]][] = [];
  for (const [name, value] of entries)
    if (value !== undefined) pairs.push([name, typeof value === "number" ? String(value) : value]);
  return pairs;
}

/**
 * An undici interceptor that sends every request as `who`: any impersonation headers already
 * there (a kubeconfig's `as`) are replaced, since Kubernetes impersonates one identity at a time.
 */
export function impersonating(who: Impersonated): Dispatcher.DispatcherComposeInterceptor {
  const system = systemNames(who);
  if (system.length > 0)
    throw new SystemImpersonationError(`Almanac never impersonates Kubernetes' own names (${system.join(", ")}).`);
  return (dispatch) => (options, handler) => {
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of headerPairs(options.headers)) if (!IMPERSONATION.test(name)) headers[name] = value;
    headers["impersonate-user"] = who.user;
    // An array value is one header line per element (undici's request writer).
    if (who.groups.length > 0) headers["impersonate-group"] = [...who.groups];
    return dispatch({ ...options, headers }, handler);
  };
}

/** Sends the request through the interceptor that impersonates `who`. */
export function impersonate(context: RequestContext, who: Impersonated): void {
  const base = (context.getDispatcher() as Dispatcher | undefined) ?? getGlobalDispatcher();
  context.setDispatcher(base.compose(impersonating(who)));
}
