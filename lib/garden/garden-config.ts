// Which garden Almanac shows, chosen by configuration at start: the simulated garden (the
// default), or a live Gardener landscape through a kubeconfig (GARDEN_KUBECONFIG, optionally
// GARDEN_CONTEXT) or the pod's service account (ALMANAC_GARDEN=in-cluster).
import { existsSync } from "node:fs";
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
export type GardenIdentityMode = "oidc" | "read-only" | "impersonation";

const MODES: readonly GardenIdentityMode[] = ["oidc", "read-only", "impersonation"];

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

type Env = Readonly<Record<string, string | undefined>>;

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

function identityMode(env: Env): GardenIdentityMode {
  const companySignIn = Boolean(env.ALMANAC_OIDC_ISSUER?.trim());
  // Never impersonation unless asked for: each person's own token where there is one.
  const mode = env.ALMANAC_GARDEN_IDENTITY?.trim() || (companySignIn ? "oidc" : "read-only");
  if (!(MODES as readonly string[]).includes(mode))
    throw new GardenConfigError(
      `ALMANAC_GARDEN_IDENTITY is "${mode}"; it may be "oidc" (each person's own OIDC ID token; the default with company sign-in), "read-only" (people change nothing in the garden; the default without it) or "impersonation" (Almanac impersonates each person; needs deploy/garden-rbac-impersonation.yaml).`,
    );
  if (mode === "oidc" && !companySignIn)
    throw new GardenConfigError(
      "ALMANAC_GARDEN_IDENTITY=oidc sends each person's ID token from company sign-in, but ALMANAC_OIDC_ISSUER is not set.",
    );
  return mode as GardenIdentityMode;
}

export function readGardenConfig(env: Env = process.env): GardenConfig {
  const kubeconfig = env.GARDEN_KUBECONFIG?.trim() || undefined;
  const context = env.GARDEN_CONTEXT?.trim() || undefined;
  const garden = env.ALMANAC_GARDEN?.trim() || undefined;
  if (garden !== undefined && garden !== "in-cluster" && garden !== "embedded")
    throw new GardenConfigError(
      `ALMANAC_GARDEN is "${garden}"; it may be "in-cluster" (the pod's service account) or "embedded" (the simulated garden), or unset.`,
    );
  const identity = identityMode(env);
  if (garden === "in-cluster") {
    if (kubeconfig !== undefined)
      throw new GardenConfigError("Set either GARDEN_KUBECONFIG or ALMANAC_GARDEN=in-cluster, not both.");
    return inCluster(identity);
  }
  if (kubeconfig !== undefined) {
    if (garden === "embedded")
      throw new GardenConfigError("Set either GARDEN_KUBECONFIG or ALMANAC_GARDEN=embedded, not both.");
    return fromKubeconfig(kubeconfig, context, identity);
  }
  if (context !== undefined) throw new GardenConfigError("GARDEN_CONTEXT is set, but GARDEN_KUBECONFIG is not.");
  return { kind: "embedded" };
}

const holder = globalThis as { almanacGardenConfig?: GardenConfig };

/** The garden of this process, read once. */
export function gardenConfig(): GardenConfig {
  holder.almanacGardenConfig ??= readGardenConfig();
  return holder.almanacGardenConfig;
}
