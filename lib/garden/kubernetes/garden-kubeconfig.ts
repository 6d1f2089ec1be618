// The garden's kubeconfig as every call to it uses it (lists, watches, writes, access reviews):
// client-node's KubeConfig with two things it lacks.
// - A user's `tokenFile` (the generic token kubeconfig Gardener's own components use, rotated on
//   disk by the token-requestor): client-node 2.0.1 reads only `token` and a non-standard
//   `token-file`, once. Here the file is read on each request when it changed (token-file.ts); as
//   in client-go, the file wins over a `token` beside it. The pod's service-account token is read
//   the same way (ALMANAC_GARDEN=in-cluster).
// - One connection pool: client-node makes a new undici Agent (so a new TCP/TLS connection) for
//   every request. Here the requests share one keep-alive Agent per set of TLS settings (server,
//   CA, client certificate), built from client-node's own dispatcher options. A person's own token
//   (withBearer) shares the pool too, on an Agent without Almanac's client certificate.
// It also remembers whether the garden last refused Almanac's own credentials (HTTP 401), for
// readiness (garden-sign-in.ts): a rotated-away or revoked token then says so, naming the file.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import type { AgentOptions } from "node:https";
import path from "node:path";
import {
  bufferFromFileOrString,
  type Cluster,
  type ConfigOptions,
  KubeConfig,
  type RequestContext,
} from "@kubernetes/client-node";
import { Agent, type Dispatcher, getGlobalDispatcher, ProxyAgent } from "undici";
import { parse } from "yaml";
import { logger } from "../../observability/logger.ts";
import { TokenFile } from "./token-file.ts";

const SERVICE_ACCOUNT_TOKEN = "/var/run/secrets/kubernetes.io/serviceaccount/token";

/** Keep-alive Agents by TLS settings, shared by a kubeconfig and the bearer views made from it. */
class ConnectionPool {
  private readonly agents = new Map<string, Dispatcher | undefined>();

  /** The Agent for `config`'s cluster and user; undefined where client-node's own is needed (SOCKS). */
  dispatcherFor(config: KubeConfig): Dispatcher | undefined {
    const cluster = config.getCurrentCluster();
    const user = config.getCurrentUser();
    const tls: AgentOptions = {};
    if (cluster?.skipTLSVerify) tls.rejectUnauthorized = false;
    if (cluster?.tlsServerName) tls.servername = cluster.tlsServerName;
    const ca = cluster ? bufferFromFileOrString(cluster.caFile, cluster.caData) : null;
    const cert = user ? bufferFromFileOrString(user.certFile, user.certData) : null;
    const key = user ? bufferFromFileOrString(user.keyFile, user.keyData) : null;
    if (ca) tls.ca = ca;
    if (cert) tls.cert = cert;
    if (key) tls.key = key;
    // Files are read each time (as client-node does), so a rotated CA or certificate gets a new Agent.
    const id = createHash("sha256")
      .update(JSON.stringify([cluster?.server, cluster?.proxyUrl, tls.rejectUnauthorized, tls.servername]))
      .update(ca ?? "")
      .update("\0")
      .update(cert ?? "")
      .update("\0")
      .update(key ?? "")
      .digest("hex");
    if (this.agents.has(id)) return this.agents.get(id);
    const options = config.createDispatcherOptions(cluster, tls);
    const agent =
      options.type === "agent"
        ? new Agent({ connect: options.connect })
        : options.type === "proxy"
          ? new ProxyAgent({ uri: options.uri, requestTls: options.requestTls, connect: options.connect })
          : options.type === "none"
            ? getGlobalDispatcher()
            : undefined;
    // Settings that changed (rotation) leave old Agents behind: close the oldest once their
    // requests end, keeping a few.
    if (this.agents.size >= 8) {
      const [oldest, old] = this.agents.entries().next().value as [string, Dispatcher | undefined];
      this.agents.delete(oldest);
      if (old && old !== getGlobalDispatcher()) old.close().catch(() => {});
    }
    this.agents.set(id, agent);
    return agent;
  }
}

/** An interceptor that reports each response's status code (undici 8's handler: onResponseStart). */
function observingStatus(report: (status: number) => void): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (options, handler) =>
    dispatch(
      options,
      new Proxy(handler, {
        get(target, property) {
          const value = Reflect.get(target, property, target) as unknown;
          if (typeof value !== "function") return value;
          if (property === "onResponseStart")
            return (...args: unknown[]) => {
              report(args[1] as number);
              return (value as (...a: unknown[]) => unknown).apply(target, args);
            };
          return (value as (...a: unknown[]) => unknown).bind(target);
        },
      }),
    );
}

export class GardenKubeConfig extends KubeConfig {
  private pool = new ConnectionPool();
  /** Each user's token file, by user name (absolute paths). */
  private tokenFiles = new Map<string, TokenFile>();
  /** Whether these are Almanac's own credentials (a bearer view's are a person's). */
  private own = true;
  /** The credential the garden last answered 401 to (the token, or "" for a kubeconfig's other kinds). */
  private refused: string | undefined;

  override loadFromFile(file: string, opts?: Partial<ConfigOptions>): void {
    super.loadFromFile(file, opts);
    this.tokenFiles = new Map();
    const raw = parse(readFileSync(file, "utf8")) as { users?: { name?: unknown; user?: { tokenFile?: unknown } }[] };
    for (const entry of raw?.users ?? []) {
      const tokenFile = entry?.user?.tokenFile;
      if (typeof entry?.name === "string" && typeof tokenFile === "string" && tokenFile !== "")
        this.tokenFiles.set(entry.name, new TokenFile(path.resolve(path.dirname(file), tokenFile)));
    }
  }

  override loadFromCluster(pathPrefix = ""): void {
    super.loadFromCluster(pathPrefix);
    // client-node's in-cluster user reads the token through an auth provider that fails with a
    // bare ENOENT; the same TokenFile as a kubeconfig's instead.
    this.users = this.users.map((user) => ({ name: user.name }));
    const user = this.getCurrentUser();
    if (user) this.tokenFiles = new Map([[user.name, new TokenFile(`${pathPrefix}${SERVICE_ACCOUNT_TOKEN}`)]]);
  }

  /** The current user's token file, if it has one. */
  tokenFile(): TokenFile | undefined {
    const user = this.getCurrentUser();
    return user ? this.tokenFiles.get(user.name) : undefined;
  }

  /**
   * Whether the garden refused Almanac's credentials as they are now (HTTP 401 to the current
   * token; a rotated file is given its chance).
   */
  credentialsRefused(): boolean {
    if (this.refused === undefined) return false;
    const file = this.tokenFile();
    if (!file) return true;
    try {
      return file.token() === this.refused;
    } catch {
      return false;
    }
  }

  /** Almanac's credentials in words (no secret): the token file, or the kubeconfig's user. */
  credentialsWords(): string {
    const file = this.tokenFile();
    return file
      ? `the token in ${file.path}`
      : `the credentials of the kubeconfig's user ${this.getCurrentUser()?.name ?? ""}`;
  }

  /** The same garden with `token` as the only credential (a person's own), on the same pool. */
  withBearer(token: string): GardenKubeConfig {
    const cluster: Cluster | null = this.getCurrentCluster();
    if (!cluster) throw new Error("The garden's kubeconfig has no current cluster.");
    const view = new GardenKubeConfig();
    view.loadFromOptions({
      clusters: [cluster],
      users: [{ name: "caller", token }],
      contexts: [{ name: "caller", cluster: cluster.name, user: "caller" }],
      currentContext: "caller",
    });
    view.pool = this.pool;
    view.own = false;
    return view;
  }

  override async applySecurityAuthentication(context: RequestContext): Promise<void> {
    await super.applySecurityAuthentication(context);
    const file = this.tokenFile();
    let credential = "";
    if (file) {
      credential = file.token();
      context.setHeaderParam("Authorization", `Bearer ${credential}`);
    }
    const shared = this.pool.dispatcherFor(this);
    let dispatcher = shared ?? (context.getDispatcher() as Dispatcher | undefined) ?? getGlobalDispatcher();
    if (this.own)
      dispatcher = dispatcher.compose(
        observingStatus((status) => {
          if (status === 401 && this.refused !== credential) {
            this.refused = credential;
            // Once per refused credential, in every process (the mirror's too), naming the file.
            logger().warn(`The garden refuses ${this.credentialsWords()} (HTTP 401 Unauthorized).`);
          } else if (status !== 401 && status < 500 && this.refused !== undefined) {
            this.refused = undefined;
            logger().info(`The garden accepts ${this.credentialsWords()} again.`);
          }
        }),
      );
    context.setDispatcher(dispatcher);
  }
}
