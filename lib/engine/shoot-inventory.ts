// What runs inside a shoot, as far as the constraints and the deletion cleanup need to know:
// its admission webhooks, its CA certificates and the resources a deletion cleans up. The
// simulated garden keeps one per shoot; the demo landscape makes them.
import type { ClusterResource } from "./deletion-cleanup.ts";
import type { CACertificate, WebhookConfiguration } from "./webhook-constraints.ts";

export interface ShootInventory {
  readonly webhookConfigurations: WebhookConfiguration[];
  /** notAfter as an RFC 3339 time, as stored. */
  readonly caCertificates: { name: string; notAfter: string }[];
  readonly resources: ClusterResource[];
}

export function caCertificatesOf(inventory: ShootInventory): CACertificate[] {
  return inventory.caCertificates.map((c) => ({ name: c.name, notAfter: Date.parse(c.notAfter) }));
}
