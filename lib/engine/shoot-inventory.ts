// What runs inside a shoot, as far as the constraints and the deletion cleanup need to know:
// its admission webhooks, its CA certificates, whether its API server runs, and the resources a
// deletion cleans up. The simulated garden keeps one per shoot; the demo landscape makes them.
import type { ClusterResource } from "./deletion-cleanup.ts";
import type { NodeRoll } from "./node-roll.ts";
import type { CriticalComponentFault } from "./simulated-nodes.ts";
import type { CACertificate } from "./shoot-constraints.ts";
import type { WebhookConfiguration } from "./webhook-constraints.ts";

export interface ShootInventory {
  /** As the shoot's API server lists them (with its defaults: failurePolicy, timeoutSeconds). */
  readonly webhookConfigurations: WebhookConfiguration[];
  /** notAfter as an RFC 3339 time, as stored. */
  readonly caCertificates: { name: string; notAfter: string }[];
  readonly resources: ClusterResource[];
  /**
   * Whether the shoot's kube-apiserver runs in its seed (Gardener: Operation.IsAPIServerRunning);
   * absent means it does. False while a creation has not deployed it yet.
   */
  readonly apiServerRunning?: boolean;
  /**
   * The worker nodes, once a roll touched them; absent, they follow from the spec and the running
   * versions (simulated-nodes.ts), so a seed stores no nodes.
   */
  readonly nodeRoll?: NodeRoll;
  /** A node-critical component that never becomes ready on the shoot's new nodes (a few demo shoots). */
  readonly criticalComponentFault?: CriticalComponentFault;
}

export function caCertificatesOf(inventory: ShootInventory): CACertificate[] {
  return inventory.caCertificates.map((c) => ({ name: c.name, notAfter: Date.parse(c.notAfter) }));
}
