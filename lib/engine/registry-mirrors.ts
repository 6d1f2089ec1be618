// containerd registry mirrors as Gardener configures them: the registry-mirror extension
// (gardener-extension-registry-cache) reads a MirrorConfig from the shoot's
// spec.extensions[type=registry-mirror].providerConfig, its admission webhook validates it
// (pkg/apis/mirror/validation), and gardener-node-agent writes one hosts.toml per upstream into
// containerd's hosts directory (/etc/containerd/certs.d/<upstream>/hosts.toml). Pure: the reading,
// the validation with field paths, and the preview of the files.
//
// Where the issue's words and the extension differ, the extension is followed: the capabilities a
// mirror host may have are "pull" and "resolve" only ("push" is refused as the webhook refuses it:
// a mirror is only ever trusted to fetch), and no capabilities means ["pull"] (its defaulting).
import type { Shoot, ShootExtension } from "../gardener/types.ts";
import { canonicalJson } from "./canonical-json.ts";
import type { FieldError } from "./field-error.ts";

export const REGISTRY_MIRROR_EXTENSION = "registry-mirror";
export const MIRROR_API_VERSION = "mirror.extensions.gardener.cloud/v1alpha1";
export const MIRROR_KIND = "MirrorConfig";
/** The capabilities the extension accepts, in containerd's order. */
export const MIRROR_CAPABILITIES = ["pull", "resolve"] as const;
export type MirrorCapability = (typeof MIRROR_CAPABILITIES)[number];
/** The extension's default when a host names no capabilities. */
export const DEFAULT_CAPABILITIES: readonly MirrorCapability[] = ["pull"];
/** Where gardener-node-agent points containerd's CRI plugin (config_path). */
export const CERTS_DIRECTORY = "/etc/containerd/certs.d";
/** The field a change of the mirrors is named by (the audit, problems, the form). */
export const MIRROR_CONFIG_FIELD = `spec.extensions[type=${REGISTRY_MIRROR_EXTENSION}].providerConfig`;
export const MIRROR_DISABLED_FIELD = `spec.extensions[type=${REGISTRY_MIRROR_EXTENSION}].disabled`;

export interface MirrorHost {
  host: string;
  capabilities?: string[];
  caBundleSecretReferenceName?: string;
  overridePath?: boolean;
}

export interface MirrorConfiguration {
  upstream: string;
  hosts: MirrorHost[];
}

export interface MirrorConfig {
  apiVersion: typeof MIRROR_API_VERSION;
  kind: typeof MIRROR_KIND;
  mirrors: MirrorConfiguration[];
}

/** The shoot's registry-mirror extension, if it has one. */
export function registryMirrorExtension(shoot: Shoot): ShootExtension | undefined {
  return shoot.spec.extensions?.find((e) => e.type === REGISTRY_MIRROR_EXTENSION);
}

// ---- The deprecated pattern (containerd's config.toml registry.mirrors / registry.configs) ----

const DEPRECATED_TOML = /registry\.(mirrors|configs)|io\.containerd\.grpc\.v1\.cri|^\s*endpoint\s*=/m;
const DEPRECATED_KEYS = ["plugins", "registry", "configs", "endpoint", "version"];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The upstream → endpoints a deprecated configuration names, to say how to write it instead. */
function deprecatedEndpoints(config: unknown): Map<string, string[]> {
  const found = new Map<string, string[]>();
  if (typeof config === "string") {
    // [plugins."io.containerd.grpc.v1.cri".registry.mirrors."docker.io"] then endpoint = ["..."]
    const section = /registry\.mirrors\."([^"]+)"\]\s*\n\s*endpoint\s*=\s*\[([^\]]*)\]/g;
    for (const m of config.matchAll(section))
      found.set(
        m[1],
        [...m[2].matchAll(/"([^"]*)"/g)].map((e) => e[1]),
      );
    return found;
  }
  // The same as JSON/YAML: {plugins: {"io.containerd.grpc.v1.cri": {registry: {mirrors: {...}}}}},
  // {registry: {mirrors: {...}}} or {mirrors: {"docker.io": {endpoint: [...]}}}.
  const walk = (value: unknown) => {
    if (!isObject(value)) return;
    const mirrors = value.mirrors;
    if (isObject(mirrors)) {
      for (const [upstream, m] of Object.entries(mirrors)) {
        const endpoint = isObject(m) ? m.endpoint : undefined;
        if (Array.isArray(endpoint))
          found.set(
            upstream,
            endpoint.filter((e): e is string => typeof e === "string"),
          );
      }
    }
    for (const v of Object.values(value)) walk(v);
  };
  walk(config);
  return found;
}

/** Whether a providerConfig is written in the deprecated registry.mirrors pattern. */
export function isDeprecatedPattern(config: unknown): boolean {
  if (typeof config === "string") return DEPRECATED_TOML.test(config);
  if (!isObject(config)) return false;
  if (DEPRECATED_KEYS.some((k) => k in config)) return true;
  if (isObject(config.mirrors)) return true;
  return Array.isArray(config.mirrors) && config.mirrors.some((m) => isObject(m) && "endpoint" in m);
}

/** Why a deprecated configuration is refused, and how to write it in the hosts directory pattern. */
function deprecatedPatternProblem(config: unknown, field: string): FieldError {
  const endpoints = deprecatedEndpoints(config);
  const suggestion =
    endpoints.size > 0
      ? `, here: mirrors: ${JSON.stringify(
          [...endpoints].map(([upstream, hosts]) => ({ upstream, hosts: hosts.map((host) => ({ host })) })),
        )}`
      : ', e.g. mirrors: [{"upstream": "docker.io", "hosts": [{"host": "https://mirror.example.com", "capabilities": ["pull"]}]}]';
  return {
    type: "Invalid",
    field,
    detail:
      "the registry.mirrors/registry.configs pattern of containerd's config.toml is deprecated in containerd, and " +
      `Gardener configures containerd with the hosts directory pattern instead (config_path = "${CERTS_DIRECTORY}"; ` +
      "containerd does not support both at once). Write a MirrorConfig " +
      `(apiVersion ${MIRROR_API_VERSION}, kind ${MIRROR_KIND}) with one entry per upstream registry and its mirror ` +
      `hosts as URLs${suggestion}`,
  };
}

// ---- Validation (the extension's ValidateMirrorConfig, after its strict decoding) ----

const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const PORT = /^([1-9][0-9]{0,3}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5])$/;

/** `<host>[:<port>]`: a DNS subdomain (RFC 1123), optionally with a port. Empty when valid. */
export function hostPortProblems(hostPort: string): string[] {
  const problems: string[] = [];
  let host = hostPort;
  const colon = hostPort.lastIndexOf(":");
  if (colon !== -1 && /^\d+$/.test(hostPort.slice(colon + 1))) {
    const port = hostPort.slice(colon + 1);
    host = hostPort.slice(0, colon);
    if (!PORT.test(port)) problems.push(`port '${port}' is not valid, valid port must be in the range [1, 65535]`);
  }
  if (host.length > 253) problems.push("must be no more than 253 characters");
  if (!DNS1123_SUBDOMAIN.test(host))
    problems.push(
      "must be a lowercase RFC 1123 subdomain: lower case letters, digits, '-' or '.', starting and ending with a " +
        "letter or digit (e.g. 'example.com'), optionally with ':<port>'; no scheme",
    );
  return problems;
}

/** A mirror host's URL: http(s), host[:port], a path without . or .. segments, no user, query or fragment. */
export function hostUrlProblems(url: string): string[] {
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?#]*)([^?#]*)(\?[^#]*)?(#.*)?$/.exec(url);
  const scheme = m?.[1].toLowerCase();
  if (!m || (scheme !== "http" && scheme !== "https")) return ["url must start with 'http://' or 'https://' scheme"];
  const [, , authority, path, query, fragment] = m;
  const problems: string[] = [];
  const at = authority.lastIndexOf("@");
  problems.push(...hostPortProblems(at === -1 ? authority : authority.slice(at + 1)));
  const segments = path.split("/");
  if (segments.includes("..")) problems.push("url path must not contain '..'");
  if (segments.includes(".")) problems.push("url path must not contain '.'");
  if (at !== -1) problems.push("url must not contain user info");
  if (query !== undefined && query !== "?") problems.push("url must not contain query parameters");
  if (fragment !== undefined && fragment !== "#") problems.push("url must not contain a fragment");
  return problems;
}

const unknownField = (field: string, key: string): FieldError => ({
  type: "Invalid",
  field,
  detail: `unknown field "${key}"`,
});

function checkKeys(value: Record<string, unknown>, known: readonly string[], field: string): FieldError[] {
  return Object.keys(value)
    .filter((k) => !known.includes(k))
    .map((k) => unknownField(`${field}.${k}`, k));
}

/**
 * The problems of a registry-mirror providerConfig, each at its field under `field`; empty when
 * the extension accepts it. `secretNames` are the names of the shoot's spec.resources that
 * reference Secrets (a CA bundle must name one of them).
 */
export function validateMirrorConfig(
  config: unknown,
  field: string = MIRROR_CONFIG_FIELD,
  secretNames: readonly string[] = [],
): FieldError[] {
  if (config === undefined || config === null)
    return [{ type: "Required", field, detail: "providerConfig is required for the registry-mirror extension" }];
  if (isDeprecatedPattern(config)) return [deprecatedPatternProblem(config, field)];
  if (!isObject(config))
    return [{ type: "Invalid", field, detail: `must be a ${MIRROR_KIND} object, not ${typeof config}` }];
  const problems: FieldError[] = checkKeys(config, ["apiVersion", "kind", "mirrors"], field);
  if (config.apiVersion !== MIRROR_API_VERSION)
    problems.push({
      type: "Invalid",
      field: `${field}.apiVersion`,
      value: config.apiVersion,
      detail: `must be "${MIRROR_API_VERSION}"`,
    });
  if (config.kind !== MIRROR_KIND)
    problems.push({ type: "Invalid", field: `${field}.kind`, value: config.kind, detail: `must be "${MIRROR_KIND}"` });
  const mirrors = config.mirrors;
  if (mirrors !== undefined && mirrors !== null && !Array.isArray(mirrors)) {
    problems.push({ type: "Invalid", field: `${field}.mirrors`, detail: "must be a list" });
    return problems;
  }
  if (!mirrors || mirrors.length === 0)
    problems.push({ type: "Required", field: `${field}.mirrors`, detail: "at least one mirror must be provided" });
  const upstreams = new Set<string>();
  (mirrors ?? []).forEach((mirror: unknown, i) => {
    const at = `${field}.mirrors[${i}]`;
    if (!isObject(mirror)) {
      problems.push({ type: "Invalid", field: at, detail: "must be an object with upstream and hosts" });
      return;
    }
    problems.push(...checkKeys(mirror, ["upstream", "hosts"], at));
    const upstream = typeof mirror.upstream === "string" ? mirror.upstream : "";
    if (typeof mirror.upstream !== "string" || upstream === "")
      problems.push({ type: "Required", field: `${at}.upstream`, detail: "the upstream registry's host is required" });
    else
      for (const detail of hostPortProblems(upstream))
        problems.push({ type: "Invalid", field: `${at}.upstream`, value: upstream, detail });
    if (upstream !== "") {
      if (upstreams.has(upstream))
        problems.push({
          type: "Duplicate",
          field: `${at}.upstream`,
          value: upstream,
          detail: `"${upstream}" is configured by an earlier mirror already`,
        });
      upstreams.add(upstream);
    }
    problems.push(...validateHosts(mirror.hosts, `${at}.hosts`, secretNames));
  });
  return problems;
}

function validateHosts(hosts: unknown, field: string, secretNames: readonly string[]): FieldError[] {
  if (hosts !== undefined && hosts !== null && !Array.isArray(hosts))
    return [{ type: "Invalid", field, detail: "must be a list" }];
  if (!hosts || hosts.length === 0) return [{ type: "Required", field, detail: "at least one host must be provided" }];
  const problems: FieldError[] = [];
  const seen = new Set<string>();
  hosts.forEach((host: unknown, j) => {
    const at = `${field}[${j}]`;
    if (!isObject(host)) {
      problems.push({ type: "Invalid", field: at, detail: "must be an object with a host URL" });
      return;
    }
    problems.push(...checkKeys(host, ["host", "capabilities", "caBundleSecretReferenceName", "overridePath"], at));
    if (typeof host.host !== "string" || host.host === "") {
      problems.push({ type: "Required", field: `${at}.host`, detail: "the mirror host's URL is required" });
    } else {
      for (const detail of hostUrlProblems(host.host))
        problems.push({ type: "Invalid", field: `${at}.host`, value: host.host, detail });
      if (seen.has(host.host))
        problems.push({
          type: "Duplicate",
          field: `${at}.host`,
          value: host.host,
          detail: `"${host.host}" is listed twice for this upstream`,
        });
      seen.add(host.host);
    }
    problems.push(...validateCapabilities(host.capabilities, `${at}.capabilities`));
    const ca = host.caBundleSecretReferenceName;
    if (ca !== undefined && ca !== null && (typeof ca !== "string" || !secretNames.includes(ca)))
      problems.push({
        type: "Invalid",
        field: `${at}.caBundleSecretReferenceName`,
        value: ca,
        detail: `failed to find referenced resource with name ${String(ca)} and kind Secret in spec.resources`,
      });
    if (host.overridePath !== undefined && host.overridePath !== null && typeof host.overridePath !== "boolean")
      problems.push({ type: "Invalid", field: `${at}.overridePath`, detail: "must be true or false" });
  });
  return problems;
}

function validateCapabilities(capabilities: unknown, field: string): FieldError[] {
  if (capabilities === undefined || capabilities === null) return [];
  if (!Array.isArray(capabilities)) return [{ type: "Invalid", field, detail: "must be a list" }];
  const problems: FieldError[] = [];
  const seen = new Set<unknown>();
  capabilities.forEach((c: unknown, k) => {
    if (!(MIRROR_CAPABILITIES as readonly unknown[]).includes(c))
      problems.push({
        type: "NotSupported",
        field,
        value: c,
        detail: `Unsupported value: ${JSON.stringify(c)}: supported values: ${MIRROR_CAPABILITIES.map((x) => `"${x}"`).join(", ")}${
          c === "push" ? " (a mirror is trusted to fetch only; containerd pushes to the upstream)" : ""
        }`,
      });
    if (seen.has(c))
      problems.push({ type: "Duplicate", field: `${field}[${k}]`, value: c, detail: `${JSON.stringify(c)} twice` });
    seen.add(c);
  });
  return problems;
}

/** The names of the shoot's spec.resources that reference Secrets (what a CA bundle may name). */
export function secretResourceNames(shoot: Shoot): string[] {
  const resources = shoot.spec.resources;
  if (!Array.isArray(resources)) return [];
  return resources.flatMap((r: unknown) =>
    isObject(r) && typeof r.name === "string" && isObject(r.resourceRef) && r.resourceRef.kind === "Secret"
      ? [r.name]
      : [],
  );
}

/**
 * The problems of a change of the shoot's registry mirrors: none when the extension did not
 * change (Almanac does not re-judge what the garden once admitted), else the validation of the
 * new providerConfig, and the extension's rule that every worker pool runs containerd.
 */
export function registryMirrorChangeProblems(before: Shoot, after: Shoot): FieldError[] {
  const was = registryMirrorExtension(before);
  const now = registryMirrorExtension(after);
  if (!now || canonicalJson(was) === canonicalJson(now)) return [];
  const problems = validateMirrorConfig(now.providerConfig, MIRROR_CONFIG_FIELD, secretResourceNames(after));
  (after.spec.provider?.workers ?? []).forEach((w, i) => {
    const cri = w.cri?.name;
    if (cri !== undefined && cri !== "containerd")
      problems.push({
        type: "Forbidden",
        field: `spec.provider.workers[${i}].cri.name`,
        value: cri,
        detail: "container runtime needs to be containerd when the registry-mirror extension is enabled",
      });
  });
  return problems;
}

// ---- The files containerd reads (gardener-node-agent's hosts.toml) ----

/** The upstream's own server, which containerd falls back to after the mirrors. */
export function upstreamServer(upstream: string): string {
  return upstream === "docker.io" ? "https://registry-1.docker.io" : `https://${upstream}`;
}

/** Where the extension writes a host's CA bundle (":" and "/" are not welcome in file names). */
export function caBundlePath(upstream: string, host: string): string {
  const file = host.replace(/^https?:\/\//, "").replace(/[:/]/g, "-");
  return `${CERTS_DIRECTORY}/${upstream.replace(/:/g, "-")}/${file}-ca-bundle.pem`;
}

export interface HostsToml {
  readonly upstream: string;
  readonly path: string;
  readonly content: string;
}

const tomlList = (values: readonly string[]) => `[${values.map((v) => JSON.stringify(v)).join(", ")}]`;

/**
 * One hosts.toml per upstream, as gardener-node-agent writes them: the upstream's server, then
 * each mirror host in order (containerd tries them in order, then the server), with its
 * capabilities (["pull"] when none), its CA bundle and override_path when set.
 */
export function hostsTomlFiles(config: Pick<MirrorConfig, "mirrors">): HostsToml[] {
  return config.mirrors.map((mirror) => {
    const lines = ["# managed by gardener-node-agent", `server = ${JSON.stringify(upstreamServer(mirror.upstream))}`];
    for (const host of mirror.hosts) {
      const capabilities = host.capabilities && host.capabilities.length > 0 ? host.capabilities : DEFAULT_CAPABILITIES;
      lines.push("", `[host.${JSON.stringify(host.host)}]`, `  capabilities = ${tomlList(capabilities)}`);
      if (host.caBundleSecretReferenceName)
        lines.push(`  ca = ${tomlList([caBundlePath(mirror.upstream, host.host)])}`);
      if (host.overridePath) lines.push("  override_path = true");
    }
    return {
      upstream: mirror.upstream,
      path: `${CERTS_DIRECTORY}/${mirror.upstream}/hosts.toml`,
      content: `${lines.join("\n")}\n`,
    };
  });
}

/** The mirrors of the shoot's extension when its providerConfig reads as a MirrorConfig; else none. */
export function shootMirrors(shoot: Shoot): MirrorConfiguration[] {
  const config = registryMirrorExtension(shoot)?.providerConfig;
  if (!isObject(config) || !Array.isArray(config.mirrors)) return [];
  return config.mirrors.flatMap((m: unknown) =>
    isObject(m) && typeof m.upstream === "string" && Array.isArray(m.hosts)
      ? [
          {
            upstream: m.upstream,
            hosts: m.hosts.filter((h: unknown): h is MirrorHost => isObject(h) && typeof h.host === "string"),
          },
        ]
      : [],
  );
}
