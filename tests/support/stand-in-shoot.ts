// A stand-in for a shoot's own kube-apiserver, for the live garden's viewer-kubeconfig path: a
// node:http server that the stand-in garden (stand-in-garden.ts, serveShoot) issues viewer
// kubeconfigs for. What it does, as kube-apiserver does for a viewer kubeconfig's user:
//
// - authenticates only the bearer tokens it issued (issueViewerKubeconfig), until they expire;
//   an unknown or expired one is 401 with Kubernetes' Status;
// - authorizes as Gardener's viewer ClusterRoles do: get/list/watch on everything but Secrets
//   (403 Forbidden in RBAC's words otherwise), for gardener.cloud:system:viewers and
//   gardener.cloud:project:viewers;
// - serves, with kube-apiserver's list shapes (kind XList, apiVersion, metadata.resourceVersion,
//   items without kind), /api/v1/nodes, /api/v1/pods and /api/v1/namespaces/{ns}/pods,
//   /apis/apps/v1/daemonsets and /apis/apps/v1/namespaces/{ns}/daemonsets,
//   /apis/storage.k8s.io/v1/csinodes, with equality-based labelSelector (k=v, k!=v, k, !k).
//
// Tests put the objects (as the shoot's controllers would) and read `requests`. Not modelled: TLS
// and the client certificate Gardener really issues (a bearer token instead), watches, paging,
// field selectors, set-based selectors (k in (...)), the encryptionConfig resources also hidden
// from viewers.
import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { stringify as toYaml } from "yaml";
import type { ViewerKubeconfigIssuer } from "./stand-in-garden.ts";

type Json = any;

export type ShootKind = "Node" | "Pod" | "DaemonSet" | "CSINode";

export interface ShootRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  /** The token's user, or undefined when it did not authenticate. */
  user?: string;
  groups?: string[];
}

export interface StandInShoot extends ViewerKubeconfigIssuer {
  /** http://127.0.0.1:PORT */
  readonly url: string;
  /** Every request (authenticated or not), in order. */
  readonly requests: ShootRequest[];
  /** The tokens issued so far (to look for them where they must never be). */
  readonly issuedTokens: string[];
  /** Create or replace an object (a new resourceVersion). */
  put(kind: ShootKind, object: Json): void;
  /** Every issued token expires now (as its certificate's NotAfter passing would). */
  expireAll(): void;
  close(): Promise<void>;
}

const PATHS: Record<ShootKind, { group: string; plural: string; namespaced: boolean }> = {
  Node: { group: "", plural: "nodes", namespaced: false },
  Pod: { group: "", plural: "pods", namespaced: true },
  DaemonSet: { group: "apps", plural: "daemonsets", namespaced: true },
  CSINode: { group: "storage.k8s.io", plural: "csinodes", namespaced: false },
};

const apiVersionOf = (kind: ShootKind) => (PATHS[kind].group ? `${PATHS[kind].group}/v1` : "v1");

function status(code: number, reason: string, message: string, details?: Json): Json {
  return {
    kind: "Status",
    apiVersion: "v1",
    metadata: {},
    status: "Failure",
    message,
    reason,
    ...(details ? { details } : {}),
    code,
  };
}

function send(response: http.ServerResponse, code: number, body: Json): void {
  const text = JSON.stringify(body);
  response.writeHead(code, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text) });
  response.end(text);
}

/** kube-apiserver's equality-based selector: k=v, k==v, k!=v, k, !k, comma-separated. */
function matches(selector: string | null, labels: Record<string, string>): boolean {
  if (!selector) return true;
  return selector.split(",").every((raw) => {
    const term = raw.trim();
    const notEqual = /^([^!=]+)!=(.*)$/.exec(term);
    if (notEqual) return labels[notEqual[1].trim()] !== notEqual[2].trim();
    const equal = /^([^!=]+)==?(.*)$/.exec(term);
    if (equal) return labels[equal[1].trim()] === equal[2].trim();
    if (term.startsWith("!")) return !(term.slice(1).trim() in labels);
    return term in labels;
  });
}

const VIEWER_GROUPS = ["gardener.cloud:system:viewers", "gardener.cloud:project:viewers"];

class Shoot implements StandInShoot {
  url = "";
  readonly requests: ShootRequest[] = [];
  readonly issuedTokens: string[] = [];
  private readonly server: http.Server;
  private readonly tokens = new Map<string, { user: string; groups: string[]; expiresAt: number }>();
  private readonly objects = new Map<ShootKind, Map<string, Json>>(
    (Object.keys(PATHS) as ShootKind[]).map((k) => [k, new Map()]),
  );
  private revision = 1000;

  constructor() {
    this.server = http.createServer((request, response) => this.handle(request, response));
  }

  async listen(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", () => resolve()));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  issueViewerKubeconfig(user: string, groups: string[], expirationSeconds: number) {
    const token = `viewer-${randomUUID()}`;
    const expiresAt = Date.now() + expirationSeconds * 1000;
    this.tokens.set(token, { user, groups: [...groups, "system:authenticated"], expiresAt });
    this.issuedTokens.push(token);
    // Shaped as Gardener's (secrets.ControlPlane): one cluster per advertised address, the first current.
    const name = "shoot--stand-in-external";
    const kubeconfig = toYaml({
      apiVersion: "v1",
      kind: "Config",
      "current-context": name,
      // Plain HTTP, so verification is skipped (Gardener's carry the cluster's CA and https://):
      // Almanac takes this only where the tests' wiring passes `insecureForTests`.
      clusters: [{ name, cluster: { server: this.url, "insecure-skip-tls-verify": true } }],
      contexts: [{ name, context: { cluster: name, user: `${name}-token` } }],
      users: [{ name: `${name}-token`, user: { token } }],
      preferences: {},
    });
    return { kubeconfig, expirationTimestamp: new Date(expiresAt).toISOString().replace(/\.\d{3}Z$/, "Z") };
  }

  put(kind: ShootKind, object: Json): void {
    const stored = structuredClone(object);
    delete stored.kind;
    delete stored.apiVersion;
    stored.metadata = {
      uid: randomUUID(),
      creationTimestamp: new Date().toISOString().replace(/\.\d{3}Z$/, "Z"),
      ...stored.metadata,
      resourceVersion: String(++this.revision),
    };
    const key = `${stored.metadata.namespace ?? ""}/${stored.metadata.name}`;
    this.objects.get(kind)!.set(key, stored);
  }

  expireAll(): void {
    for (const entry of this.tokens.values()) entry.expiresAt = 0;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  private handle(request: http.IncomingMessage, response: http.ServerResponse): void {
    const url = new URL(request.url ?? "/", "http://stand-in");
    const method = request.method ?? "GET";
    const record: ShootRequest = { method, path: url.pathname, query: Object.fromEntries(url.searchParams) };
    this.requests.push(record);
    const bearer = /^Bearer\s+(.+)$/i.exec(request.headers.authorization ?? "")?.[1]?.trim();
    const who = bearer ? this.tokens.get(bearer) : undefined;
    if (!who || who.expiresAt <= Date.now()) {
      send(response, 401, status(401, "Unauthorized", "Unauthorized"));
      return;
    }
    record.user = who.user;
    record.groups = who.groups;
    const target = this.target(url.pathname);
    if (!target) {
      send(response, 404, status(404, "NotFound", "the server could not find the requested resource", {}));
      return;
    }
    const verb =
      method === "GET" ? (url.searchParams.get("watch") === "true" ? "watch" : "list") : method.toLowerCase();
    const viewer = who.groups.some((g) => VIEWER_GROUPS.includes(g));
    if (!viewer || target.plural === "secrets" || !["list", "get", "watch"].includes(verb)) {
      const group = target.group;
      const scope = target.namespace ? `in the namespace "${target.namespace}"` : "at the cluster scope";
      send(
        response,
        403,
        status(
          403,
          "Forbidden",
          `${group ? `${target.plural}.${group}` : target.plural} is forbidden: User "${who.user}" cannot ${verb} resource "${target.plural}" in API group "${group}" ${scope}`,
          { ...(group ? { group } : {}), kind: target.plural },
        ),
      );
      return;
    }
    if (!target.kind) {
      send(response, 200, {
        kind: "List",
        apiVersion: "v1",
        metadata: { resourceVersion: String(this.revision) },
        items: [],
      });
      return;
    }
    const selector = url.searchParams.get("labelSelector");
    const items = [...this.objects.get(target.kind)!.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([, o]) => o)
      .filter((o) => target.namespace === undefined || o.metadata.namespace === target.namespace)
      .filter((o) => matches(selector, o.metadata.labels ?? {}))
      .map((o) => structuredClone(o));
    send(response, 200, {
      kind: `${target.kind}List`,
      apiVersion: apiVersionOf(target.kind),
      metadata: { resourceVersion: String(this.revision) },
      items,
    });
  }

  /** /api/v1/[namespaces/{ns}/]{plural} or /apis/{group}/v1/[namespaces/{ns}/]{plural}. */
  private target(
    pathname: string,
  ): { kind?: ShootKind; group: string; plural: string; namespace?: string } | undefined {
    const segments = pathname.split("/").filter((s) => s !== "");
    let group: string;
    let rest: string[];
    if (segments[0] === "api" && segments[1] === "v1") [group, rest] = ["", segments.slice(2)];
    else if (segments[0] === "apis" && segments[2] === "v1") [group, rest] = [segments[1], segments.slice(3)];
    else return undefined;
    let namespace: string | undefined;
    if (rest[0] === "namespaces" && rest.length === 3) [namespace, rest] = [rest[1], rest.slice(2)];
    if (rest.length !== 1) return undefined;
    const plural = rest[0];
    const kind = (Object.keys(PATHS) as ShootKind[]).find(
      (k) => PATHS[k].plural === plural && PATHS[k].group === group && (namespace === undefined || PATHS[k].namespaced),
    );
    // Other resources (secrets, configmaps, ...) exist too, empty here, so that RBAC answers for them.
    return { ...(kind ? { kind } : {}), group, plural, ...(namespace !== undefined ? { namespace } : {}) };
  }
}

export async function startStandInShoot(): Promise<StandInShoot> {
  const shoot = new Shoot();
  await shoot.listen();
  return shoot;
}
