// The kubeconfig Gardener issues on shoots/viewerkubeconfig, made usable for one request: read-only
// access to the shoot's API server (all but Secrets) for `VIEWER_KUBECONFIG_SECONDS`, issued to the
// person the request acts as. It is a credential: held in this request's memory only, never
// stored, cached, logged or answered. Only what Gardener puts in it is taken (the current context's
// server, CA and client certificate or token): a kubeconfig may also name files to read or a
// command to run (exec, auth-provider), which Almanac never does on a garden's word. The credential
// goes only to a server it can verify: `https://` and the cluster's CA (Gardener's always carry it).
// Plain HTTP and insecure-skip-tls-verify exist for the tests' stand-in shoot API server alone, which
// their wiring allows by a parameter (`insecureForTests`), never by a setting.
import { KubeConfig } from "@kubernetes/client-node";
import { parse } from "yaml";

/** Gardener's minimum (authentication validation: "may not specify a duration less than 10 minutes"). */
export const VIEWER_KUBECONFIG_SECONDS = 600;

/** The garden's answer held no kubeconfig Almanac can use: why, without any of its secrets. */
export class UnusableViewerKubeconfig extends Error {}

export interface ViewerAccess {
  readonly kubeConfig: KubeConfig;
  /** The shoot's API server the kubeconfig points to (no secret). */
  readonly server: string;
}

type Entry = Record<string, unknown>;

const named = (list: unknown, name: unknown, field: string): Entry | undefined => {
  if (!Array.isArray(list)) return undefined;
  const entry = (list as Entry[]).find((e) => e?.name === name)?.[field];
  return entry && typeof entry === "object" ? (entry as Entry) : undefined;
};

const text = (value: unknown) => (typeof value === "string" && value !== "" ? value : undefined);

export interface ViewerAccessOptions {
  /**
   * Tests only: take a plain-HTTP server and insecure-skip-tls-verify (the stand-in shoot API
   * server). Production wiring (lib/garden/garden.ts) never passes it.
   */
  readonly insecureForTests?: boolean;
}

/** `encoded`: status.kubeconfig as the garden answers it (base64 of the kubeconfig's YAML). */
export function viewerAccess(encoded: string | undefined, options: ViewerAccessOptions = {}): ViewerAccess {
  const insecure = options.insecureForTests === true;
  if (!encoded) throw new UnusableViewerKubeconfig("the garden's answer has no status.kubeconfig");
  let config: Entry;
  try {
    config = parse(Buffer.from(encoded, "base64").toString("utf8")) as Entry;
  } catch {
    throw new UnusableViewerKubeconfig("status.kubeconfig is not a kubeconfig");
  }
  const context = named(config?.contexts, config?.["current-context"], "context");
  const cluster = named(config?.clusters, context?.cluster, "cluster");
  const user = named(config?.users, context?.user, "user");
  const server = text(cluster?.server);
  if (!server || !/^https?:\/\//i.test(server))
    throw new UnusableViewerKubeconfig("its current context names no API server");
  // Refused before its credential is even looked at: it would go in cleartext or to a server whose
  // certificate is not verified.
  if (!insecure && !/^https:\/\//i.test(server))
    throw new UnusableViewerKubeconfig(
      `its API server ${server} is not https://, so its credential would go in cleartext`,
    );
  const certData = text(user?.["client-certificate-data"]);
  const keyData = text(user?.["client-key-data"]);
  const token = text(user?.token);
  if (!(certData && keyData) && !token)
    throw new UnusableViewerKubeconfig(`its user for ${server} has no client certificate or token`);
  const caData = text(cluster?.["certificate-authority-data"]);
  const tlsServerName = text(cluster?.["tls-server-name"]);
  const skipTLSVerify = insecure && cluster?.["insecure-skip-tls-verify"] === true;
  if (!insecure && !caData)
    throw new UnusableViewerKubeconfig(
      `its cluster ${server} has no certificate-authority-data, so the server could not be verified`,
    );
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromOptions({
    clusters: [
      {
        name: "shoot",
        server,
        skipTLSVerify,
        ...(caData ? { caData } : {}),
        ...(tlsServerName ? { tlsServerName } : {}),
      },
    ],
    users: [{ name: "viewer", ...(certData && keyData ? { certData, keyData } : { token }) }],
    contexts: [{ name: "viewer", cluster: "shoot", user: "viewer" }],
    currentContext: "viewer",
  });
  return { kubeConfig, server };
}
