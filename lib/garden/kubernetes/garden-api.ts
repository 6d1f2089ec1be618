// The garden's Shoot API as the person who asks, through @kubernetes/client-node: Almanac's
// kubeconfig as it is for the admin token ("almanac"), impersonation of the person's user and
// groups, or the person's own bearer token on the garden's cluster. Each call answers the shoot
// as the garden stored it, or throws client-node's ApiException (garden-refusal.ts reads it).
import {
  CustomObjectsApi,
  type ConfigurationOptions,
  KubeConfig,
  Observable,
  type ObservableMiddleware,
  PatchStrategy,
  type RequestContext,
  type V1DeleteOptions,
} from "@kubernetes/client-node";
import type { Shoot } from "../../gardener/types.ts";
import type { ShootKey } from "../shoot-writes.ts";
import { GardenKubeConfig } from "./garden-kubeconfig.ts";
import { impersonate } from "./impersonation.ts";

const GROUP = "core.gardener.cloud";
const VERSION = "v1beta1";
const PLURAL = "shoots";
const WRITE_TIMEOUT_MS = 30_000;

/** A patch as the garden takes it: the content type says which kind. */
export type GardenPatch =
  | { readonly type: typeof PatchStrategy.MergePatch; readonly body: object }
  | { readonly type: typeof PatchStrategy.JsonPatch; readonly body: readonly JsonPatchOperation[] };

export type JsonPatchOperation =
  | { readonly op: "add" | "replace" | "test"; readonly path: string; readonly value: unknown }
  | { readonly op: "remove"; readonly path: string };

export interface GardenShoots {
  /** GET the shoot. */
  get(key: ShootKey): Promise<Shoot>;
  /** PATCH the shoot. */
  patch(key: ShootKey, patch: GardenPatch): Promise<Shoot>;
  /** PATCH the shoots/binding subresource (a merge patch): how Gardener moves a control plane. */
  bind(key: ShootKey, body: object): Promise<Shoot>;
  /** DELETE the shoot: Gardener marks it (deletionTimestamp) and answers it; undefined when it is gone at once. */
  remove(key: ShootKey, options: V1DeleteOptions): Promise<Shoot | undefined>;
  /**
   * POST the shoots/viewerkubeconfig subresource: a short-lived read-only kubeconfig for the shoot
   * (authentication.gardener.cloud/v1alpha1 ViewerKubeconfigRequest; status.kubeconfig is base64).
   */
  viewerKubeconfig(key: ShootKey, expirationSeconds: number): Promise<ViewerKubeconfigRequest>;
}

/** Gardener's answer to shoots/viewerkubeconfig (pkg/apis/authentication/v1alpha1). */
export interface ViewerKubeconfigRequest {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly spec?: { readonly expirationSeconds?: number };
  readonly status?: { readonly kubeconfig?: string; readonly expirationTimestamp?: string };
}

/** A middleware that only changes the request before it goes (the API's calls take client-node's Observable kind). */
const before = (change: (context: RequestContext) => void): ObservableMiddleware => ({
  pre: (context) => {
    change(context);
    return new Observable(Promise.resolve(context));
  },
  post: (response) => new Observable(Promise.resolve(response)),
});

/** Who the garden sees: Almanac itself, a person Almanac impersonates, or a person's own bearer token. */
export type GardenCaller =
  | { readonly kind: "almanac" }
  | { readonly kind: "impersonated"; readonly user: string; readonly groups: readonly string[] }
  | { readonly kind: "bearer"; readonly token: string };

const apis = new WeakMap<KubeConfig, CustomObjectsApi>();

/**
 * The garden's cluster (server, CA, TLS settings) with only `token` as the user: none of
 * Almanac's own credentials (a client certificate would win over the token).
 */
function withToken(kubeConfig: KubeConfig, token: string): KubeConfig {
  // The garden's own kubeconfig keeps the person's calls on its connection pool.
  if (kubeConfig instanceof GardenKubeConfig) return kubeConfig.withBearer(token);
  const cluster = kubeConfig.getCurrentCluster();
  if (!cluster) throw new Error("The garden's kubeconfig has no current cluster.");
  const own = new KubeConfig();
  own.loadFromOptions({
    clusters: [cluster],
    users: [{ name: "caller", token }],
    contexts: [{ name: "caller", cluster: cluster.name, user: "caller" }],
    currentContext: "caller",
  });
  return own;
}

export function gardenShoots(kubeConfig: KubeConfig, caller: GardenCaller): GardenShoots {
  const config = caller.kind === "bearer" ? withToken(kubeConfig, caller.token) : kubeConfig;
  let api = apis.get(config);
  if (!api) apis.set(config, (api = config.makeApiClient(CustomObjectsApi)));
  const custom = api;
  // The middleware runs after KubeConfig applied its credentials and TLS dispatcher.
  const asCaller = caller.kind === "impersonated" ? [before((c) => impersonate(c, caller))] : [];
  // A write that the garden does not answer in time is answered as "the garden did not answer".
  const inTime = before((c) => c.setSignal(AbortSignal.timeout(WRITE_TIMEOUT_MS)));
  const options = (...extra: ObservableMiddleware[]): ConfigurationOptions => ({
    middleware: [inTime, ...asCaller, ...extra],
    middlewareMergeStrategy: "append",
  });
  const target = (key: ShootKey) => ({
    group: GROUP,
    version: VERSION,
    namespace: key.namespace,
    plural: PLURAL,
    name: key.name,
  });
  return {
    async get(key) {
      return (await custom.getNamespacedCustomObject(target(key), options())) as Shoot;
    },
    async patch(key, patch) {
      return (await custom.patchNamespacedCustomObject(
        { ...target(key), body: patch.body },
        options(before((c) => c.setHeaderParam("Content-Type", patch.type))),
      )) as Shoot;
    },
    async bind(key, body) {
      // client-node has no call for a custom resource's subresource other than status and scale:
      // the shoot's PATCH, sent to .../shoots/{name}/binding.
      const toBinding = before((c) => {
        const url = new URL(c.getUrl());
        url.pathname = `${url.pathname}/binding`;
        c.setUrl(url.toString());
        c.setHeaderParam("Content-Type", PatchStrategy.MergePatch);
      });
      return (await custom.patchNamespacedCustomObject({ ...target(key), body }, options(toBinding))) as Shoot;
    },
    async viewerKubeconfig(key, expirationSeconds) {
      // As bind: client-node calls a custom resource's subresource only for status and scale, so
      // the collection's POST is sent to .../shoots/{name}/viewerkubeconfig.
      const toSubresource = before((c) => {
        const url = new URL(c.getUrl());
        url.pathname = `${url.pathname}/${encodeURIComponent(key.name)}/viewerkubeconfig`;
        c.setUrl(url.toString());
      });
      const body = {
        apiVersion: "authentication.gardener.cloud/v1alpha1",
        kind: "ViewerKubeconfigRequest",
        spec: { expirationSeconds },
      };
      const { name: _name, ...collection } = target(key);
      return (await custom.createNamespacedCustomObject(
        { ...collection, body },
        options(toSubresource),
      )) as ViewerKubeconfigRequest;
    },
    async remove(key, deleteOptions) {
      const answer = (await custom.deleteNamespacedCustomObject({ ...target(key), body: deleteOptions }, options())) as
        Shoot | { kind?: string };
      return answer?.kind === "Shoot" ? (answer as Shoot) : undefined;
    },
  };
}
