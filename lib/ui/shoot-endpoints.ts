// How a shoot's API server is reached ("Control Plane Endpoints And Ports" in Gardener's docs), for
// the endpoints panel: the addresses the gardenlet advertises (status.advertisedAddresses), the
// seed whose Istio ingress gateway carries them, and the three ways through that gateway (SNI on
// 443, the apiserver-proxy on 8443, the reversed VPN on 8132) in plain words, with this shoot's
// names filled in. Whether anything answers there (being created, hibernated) is said too.
import type { Seed, Shoot } from "../gardener/types.ts";

export interface AdvertisedAddress {
  readonly name: string;
  readonly url: string;
  /** The host name in the URL (what DNS and the TLS server name are about), or the URL itself. */
  readonly host: string;
  /** What the address is for, in words. */
  readonly meaning: string;
}

export interface EndpointRoute {
  readonly port: number;
  readonly title: string;
  /** One sentence: who uses it and how it is dispatched. */
  readonly summary: string;
  /** The way in steps, from the caller to the API server (or the VPN server). */
  readonly steps: readonly string[];
}

export interface ShootEndpoints {
  readonly addresses: readonly AdvertisedAddress[];
  /** Why there are no addresses, or why nothing answers at them now; undefined when the cluster is reachable. */
  readonly note?: { readonly kind: "none" | "hibernated" | "deleting"; readonly text: string };
  readonly seed?: { readonly name: string; readonly ingressDomain?: string };
  /** The control plane's namespace in the seed (status.technicalID). */
  readonly controlPlaneNamespace?: string;
  readonly routes: readonly EndpointRoute[];
}

const MEANINGS: Record<string, string> = {
  external: "The address in the kubeconfigs people use, under the cluster's external domain.",
  internal: "The address under the garden's internal domain, which Gardener's own components use.",
  "service-account-issuer": "The issuer of the cluster's service account tokens (what workload identity trusts).",
  "wildcard-tls-seed-bound": "An address under the seed's ingress domain, served with the seed's wildcard certificate.",
  unmanaged: "The API server's load balancer, for a cluster without managed DNS.",
};

const ORDER = ["external", "internal", "wildcard-tls-seed-bound", "unmanaged", "service-account-issuer"];

/** status.technicalID: the control plane's namespace in the seed ("shoot--<project>--<name>"). */
const technicalIdOf = (shoot: Shoot): string | undefined =>
  typeof shoot.status?.technicalID === "string" ? shoot.status.technicalID : undefined;

/** The seed's ingress domain (spec.ingress.domain), under which its gateway and wildcard addresses are. */
const ingressDomainOf = (seed: Seed | undefined): string | undefined => {
  const ingress = seed?.spec.ingress as { domain?: unknown } | undefined;
  return typeof ingress?.domain === "string" ? ingress.domain : undefined;
};

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** The advertised addresses in a stable order, known ones first, each with its meaning. */
export function advertisedAddresses(shoot: Shoot): AdvertisedAddress[] {
  const listed = shoot.status?.advertisedAddresses ?? [];
  const rank = (name: string) => (ORDER.includes(name) ? ORDER.indexOf(name) : ORDER.length);
  return [...listed]
    .sort((a, b) => rank(a.name) - rank(b.name))
    .map((a) => ({
      name: a.name,
      url: a.url,
      host: hostOf(a.url),
      meaning: MEANINGS[a.name] ?? "An address the garden reports for this cluster.",
    }));
}

/** Why no address answers now, or why there are none; undefined when the cluster should answer. */
export function reachabilityNote(shoot: Shoot, hasAddresses: boolean): ShootEndpoints["note"] {
  if (shoot.metadata.deletionTimestamp)
    return { kind: "deleting", text: "The cluster is being deleted: its API server goes away with its control plane." };
  const hibernated = shoot.status?.hibernated === true || shoot.spec.hibernation?.enabled === true;
  if (hibernated)
    return {
      kind: "hibernated",
      text: hasAddresses
        ? "The cluster is hibernated: its API server is scaled to zero, so nothing answers at these addresses and the VPN is down until it wakes up. The addresses stay the same."
        : "The cluster is hibernated and the garden reports no addresses: nothing answers until it wakes up.",
    };
  if (hasAddresses) return undefined;
  const op = shoot.status?.lastOperation;
  if (op?.type === "Create" && op.state === "Failed")
    return {
      kind: "none",
      text: "The cluster's creation failed before its API server ran, so the garden advertises no address for it.",
    };
  if (!op || op.type === "Create")
    return {
      kind: "none",
      text: "The cluster is being created: the gardenlet advertises its addresses once the API server runs.",
    };
  return { kind: "none", text: "The garden reports no addresses for this cluster." };
}

/** The three ways through the seed's ingress gateway, with this shoot's names. */
export function endpointRoutes(shoot: Shoot, addresses: readonly AdvertisedAddress[], seed?: Seed): EndpointRoute[] {
  const seedName = shoot.status?.seedName ?? shoot.spec.seedName;
  const gateway = seedName ? `the Istio ingress gateway of seed ${seedName}` : "the seed's Istio ingress gateway";
  const namespace = technicalIdOf(shoot);
  const apiServer = namespace ? `the kube-apiserver in namespace ${namespace}` : "the cluster's kube-apiserver";
  const hosts = addresses.filter((a) => a.name === "external" || a.name === "internal").map((a) => a.host);
  const names =
    hosts.length > 0 ? hosts.join(" or ") : "api.<external domain> or api.<shoot>.<project>.<internal domain>";
  const ingress = ingressDomainOf(seed);
  return [
    {
      port: 443,
      title: "From outside: TLS with SNI",
      summary:
        "kubectl and other clients connect to the ingress gateway on 443; the gateway reads the server name the client sends and forwards the connection unopened.",
      steps: [
        `DNS resolves ${names} to the load balancer of ${gateway}${ingress ? ` (the seed's ingress domain is ${ingress})` : ""}.`,
        "The client sends that name in the TLS handshake (SNI); the gateway forwards the TCP connection by it, without terminating TLS.",
        `TLS ends at ${apiServer}: traffic is encrypted end to end, and the kubeconfig's CA and credentials are checked there.`,
      ],
    },
    {
      port: 8443,
      title: "From inside the cluster: apiserver-proxy",
      summary:
        "Pods reach the API server as kubernetes.default.svc.cluster.local; the apiserver-proxy on every node carries those connections to the gateway's port 8443.",
      steps: [
        "A pod connects to kubernetes.default.svc.cluster.local, the Kubernetes service's IP address.",
        "The apiserver-proxy (a DaemonSet in the host network of each node) intercepts it and sends it to the ingress gateway with the HAProxy PROXY protocol, naming the kube-apiserver service's cluster IP in the seed as the target.",
        `${gateway[0].toUpperCase()}${gateway.slice(1)} forwards it by that target to ${apiServer}; TLS still ends only there.`,
      ],
    },
    {
      port: 8132,
      title: "The reversed VPN",
      summary:
        "The API server must reach nodes, pods and services (logs, exec, webhooks); the tunnel for that is opened from inside the cluster, so the cluster needs no open port.",
      steps: [
        "The VPN client in the cluster connects out to the ingress gateway on 8132.",
        `The gateway dispatches it by an HTTP header to the VPN server in the control plane's namespace${namespace ? ` (${namespace})` : ""}.`,
        "Once the tunnel stands, the API server reaches the cluster's nodes, services and pods through it.",
      ],
    },
  ];
}

/** Everything the endpoints panel shows for `shoot`, with its seed when known. */
export function shootEndpoints(shoot: Shoot, seed?: Seed): ShootEndpoints {
  const addresses = advertisedAddresses(shoot);
  const seedName = shoot.status?.seedName ?? shoot.spec.seedName;
  const ingress = ingressDomainOf(seed);
  const note = reachabilityNote(shoot, addresses.length > 0);
  return {
    addresses,
    ...(note ? { note } : {}),
    ...(seedName ? { seed: { name: seedName, ...(ingress ? { ingressDomain: ingress } : {}) } } : {}),
    ...(technicalIdOf(shoot) ? { controlPlaneNamespace: technicalIdOf(shoot) } : {}),
    routes: endpointRoutes(shoot, addresses, seed),
  };
}
