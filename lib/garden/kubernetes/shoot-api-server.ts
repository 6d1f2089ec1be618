// Reading inside a shoot with a viewer kubeconfig: its Nodes, the node-critical pods and DaemonSets
// of kube-system (where gardener-resource-manager's Node controller looks for them) and its
// CSINodes, read at once, each in at most READ_TIMEOUT_MS. Its refusals and silence become
// ShootApiServerFailed, naming the server; anything else is a bug and is thrown.
import {
  ApiException,
  AppsV1Api,
  type ConfigurationOptions,
  CoreV1Api,
  Observable,
  StorageV1Api,
} from "@kubernetes/client-node";
import type { ShootRefusal } from "../shoot-writes.ts";
import { statusOf, unreachable } from "./garden-refusal.ts";
import type { ShootInside } from "./shoot-node-items.ts";
import { CRITICAL_COMPONENT_LABEL, CRITICAL_COMPONENTS_NAMESPACE } from "../../engine/node-readiness.ts";
import type { ViewerAccess } from "./viewer-kubeconfig.ts";

const READ_TIMEOUT_MS = 15_000;
// The shoot's API server is not the garden: its words are passed on, but no more than this many
// characters of them (a proxy in front of it may answer a whole HTML page).
export const SHOOT_MESSAGE_MAX_CHARS = 500;

const capped = (message: string) =>
  message.length <= SHOOT_MESSAGE_MAX_CHARS ? message : `${message.slice(0, SHOOT_MESSAGE_MAX_CHARS - 1)}…`;
const CRITICAL = `${CRITICAL_COMPONENT_LABEL}=true`;

export async function readShootInside(
  access: ViewerAccess,
): Promise<{ readonly inside: ShootInside } | { readonly refusal: ShootRefusal }> {
  const { kubeConfig } = access;
  const options = (): ConfigurationOptions => ({
    middleware: [
      {
        pre: (context) => {
          context.setSignal(AbortSignal.timeout(READ_TIMEOUT_MS));
          return new Observable(Promise.resolve(context));
        },
        post: (response) => new Observable(Promise.resolve(response)),
      },
    ],
    middlewareMergeStrategy: "append",
  });
  const core = kubeConfig.makeApiClient(CoreV1Api);
  const apps = kubeConfig.makeApiClient(AppsV1Api);
  const storage = kubeConfig.makeApiClient(StorageV1Api);
  try {
    const [nodes, pods, daemonSets, csiNodes] = await Promise.all([
      core.listNode({}, options()),
      core.listNamespacedPod({ namespace: CRITICAL_COMPONENTS_NAMESPACE, labelSelector: CRITICAL }, options()),
      apps.listNamespacedDaemonSet({ namespace: CRITICAL_COMPONENTS_NAMESPACE, labelSelector: CRITICAL }, options()),
      storage.listCSINode({}, options()),
    ]);
    return {
      inside: { nodes: nodes.items, pods: pods.items, daemonSets: daemonSets.items, csiNodes: csiNodes.items },
    };
  } catch (error) {
    const refusal = shootApiServerRefusal(error, access.server);
    if (refusal) return { refusal };
    throw error;
  }
}

/** The shoot API server's refusal or silence; undefined for anything else (a bug: rethrow it). */
export function shootApiServerRefusal(error: unknown, server: string): ShootRefusal | undefined {
  if (error instanceof ApiException) {
    const status = statusOf(error.body);
    return {
      code: "ShootApiServerFailed",
      server,
      status: error.code as number,
      // client-node drops a 401's body: Kubernetes' word for it.
      message:
        status.message !== undefined
          ? capped(status.message)
          : error.code === 401
            ? "Unauthorized"
            : `HTTP ${error.code}`,
    };
  }
  const why = unreachable(error);
  return why === undefined ? undefined : { code: "ShootApiServerFailed", server, message: `(${why})` };
}
