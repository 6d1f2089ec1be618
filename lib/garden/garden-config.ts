// Which garden Almanac shows, chosen by configuration at start: the simulated garden (the
// default), or a live Gardener landscape through a kubeconfig (GARDEN_KUBECONFIG, optionally
// GARDEN_CONTEXT) or the pod's service account (ALMANAC_GARDEN=in-cluster).
import { existsSync } from "node:fs";
import { type Config, config } from "../config/load-config.ts";
import type { GARDEN_IDENTITY_MODES } from "../config/settings.ts";
import { GardenKubeConfig } from "./kubernetes/garden-kubeconfig.ts";
import { TokenFileError } from "./kubernetes/token-file.ts";

/**
 * How a person's changes reach a live garden (ALMANAC_GARDEN_IDENTITY), chosen on purpose:
 * - "oidc": with their own OIDC ID token from company sign-in, for gardens that trust the same
 *   issuer (as Gardener's dashboard does); the default where company sign-in is configured.
 *   Almanac's own identity then needs only to read (deploy/garden-rbac.yaml).
 * - "read-only": people change nothing in the garden through Almanac; the default without company
 *   sign-in. Only the admin token changes shoots, as Almanac's own identity.
 * - "impersonation": Almanac impersonates each person's user and groups (opt-in: Almanac's
 *   identity must be allowed to impersonate, deploy/garden-rbac-impersonation.yaml).
 * The admin token acts as Almanac's own identity (the kubeconfig's user) in every mode.
 */
export type GardenIdentityMode = (typeof GARDEN_IDENTITY_MODES)[number];

export type GardenConfig =
  | { readonly kind: "embedded" }
  | {
      readonly kind: "live";
      readonly kubeConfig: GardenKubeConfig;
      readonly identity: GardenIdentityMode;
      /** The API server's address, for people (the navigation names it). */
      readonly server: string;
      /** The kubeconfig context, or "in-cluster". */
      readonly context: string;
      /** Where the credentials come from, for messages: "GARDEN_KUBECONFIG (<path>)" or "ALMANAC_GARDEN=in-cluster". */
      readonly source: string;
    };

/** A setting that cannot work, named with the reason; `npm start` stops with it. */
export class GardenConfigError extends Error {}

function fromKubeconfig(path: string, context: string | undefined, identity: GardenIdentityMode): GardenConfig {
  if (!existsSync(path)) throw new GardenConfigError(`GARDEN_KUBECONFIG names ${path}, which does not exist.`);
  const kubeConfig = new GardenKubeConfig();
  try {
    kubeConfig.loadFromFile(path);
  } catch (error) {
    throw new GardenConfigError(
      `GARDEN_KUBECONFIG (${path}) cannot be read as a kubeconfig: ${error instanceof Error ? error.message : error}`,
    );
  }
  if (context !== undefined) {
    if (!kubeConfig.getContextObject(context)) {
      const known = kubeConfig.getContexts().map((c) => c.name);
      throw new GardenConfigError(
        `GARDEN_CONTEXT is "${context}", which ${path} does not have (it has ${known.join(", ") || "no contexts"}).`,
      );
    }
    kubeConfig.setCurrentContext(context);
  }
  const cluster = kubeConfig.getCurrentCluster();
  if (!cluster) throw new GardenConfigError(`GARDEN_KUBECONFIG (${path}) has no current context with a cluster.`);
  return {
    kind: "live",
    kubeConfig,
    identity,
    server: cluster.server,
    context: kubeConfig.getCurrentContext(),
    source: `GARDEN_KUBECONFIG (${path})`,
  };
}

function inCluster(identity: GardenIdentityMode): GardenConfig {
  const kubeConfig = new GardenKubeConfig();
  try {
    kubeConfig.loadFromCluster();
  } catch (error) {
    throw new GardenConfigError(
      `ALMANAC_GARDEN=in-cluster, but the pod's service account cannot be read: ${error instanceof Error ? error.message : error}`,
    );
  }
  const cluster = kubeConfig.getCurrentCluster();
  if (!cluster || cluster.server.includes("undefined"))
    throw new GardenConfigError(
      "ALMANAC_GARDEN=in-cluster, but KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT are not set: Almanac is not running in a pod.",
    );
  // The kubelet mounts the pod's token before the container starts: without it the pod has no
  // service account token at all (automountServiceAccountToken: false), which waiting never mends.
  // (A kubeconfig's token file may come later: readiness names it until then.)
  try {
    kubeConfig.tokenFile()?.token();
  } catch (error) {
    if (error instanceof TokenFileError) throw new GardenConfigError(`ALMANAC_GARDEN=in-cluster: ${error.message}`);
    throw error;
  }
  return {
    kind: "live",
    kubeConfig,
    identity,
    server: cluster.server,
    context: "in-cluster",
    source: "ALMANAC_GARDEN=in-cluster",
  };
}

/**
 * The garden `settings` choose. lib/config has checked them against each other (a kubeconfig and
 * in-cluster at once, a context without a kubeconfig, oidc without company sign-in); what is
 * left is what only reading the kubeconfig or the pod's service account can tell.
 */
export function readGardenConfig({ garden, signIn }: Pick<Config, "garden" | "signIn"> = config()): GardenConfig {
  // Never impersonation unless asked for: each person's own token where there is one.
  const identity = garden.identity ?? (signIn.oidcIssuer !== undefined ? "oidc" : "read-only");
  if (garden.mode === "in-cluster") return inCluster(identity);
  if (garden.kubeconfig !== undefined) return fromKubeconfig(garden.kubeconfig, garden.context, identity);
  return { kind: "embedded" };
}

const holder = globalThis as { almanacGardenConfig?: GardenConfig };

/** The garden of this process, read once. */
export function gardenConfig(): GardenConfig {
  holder.almanacGardenConfig ??= readGardenConfig();
  return holder.almanacGardenConfig;
}
