// The registry mirrors panel's form: rows of upstreams and their mirror hosts, read from the
// shoot's registry-mirror extension and turned back into its MirrorConfig, with the engine's
// validation placed at each input (the same rules the server applies, so Save can say why it is
// off before anything is sent) and the PATCH that replaces the extension's configuration (or
// removes the extension when no mirror is left).
import { canonicalJson } from "../engine/canonical-json.ts";
import type { FieldError } from "../engine/field-error.ts";
import {
  MIRROR_API_VERSION,
  MIRROR_CAPABILITIES,
  MIRROR_CONFIG_FIELD,
  MIRROR_KIND,
  type MirrorConfig,
  type MirrorHost,
  REGISTRY_MIRROR_EXTENSION,
  registryMirrorExtension,
  shootMirrors,
  validateMirrorConfig,
} from "../engine/registry-mirrors.ts";
import type { Shoot } from "../gardener/types.ts";

export interface HostRow {
  /** A stable key for React across edits. */
  readonly key: string;
  readonly host: string;
  readonly capabilities: readonly string[];
  /** What the form does not edit (a CA bundle, override_path): kept as it was. */
  readonly rest: Omit<MirrorHost, "host" | "capabilities">;
}

export interface MirrorRow {
  readonly key: string;
  readonly upstream: string;
  readonly hosts: readonly HostRow[];
}

let counter = 0;
export const rowKey = () => `row-${++counter}`;

export const emptyHost = (): HostRow => ({ key: rowKey(), host: "", capabilities: ["pull"], rest: {} });
export const emptyMirror = (): MirrorRow => ({ key: rowKey(), upstream: "", hosts: [emptyHost()] });

/** The shoot's mirrors as form rows. */
export function formFromShoot(shoot: Shoot): MirrorRow[] {
  return shootMirrors(shoot).map((m) => ({
    key: rowKey(),
    upstream: m.upstream,
    hosts: m.hosts.map(({ host, capabilities, ...rest }) => ({
      key: rowKey(),
      host,
      capabilities: Array.isArray(capabilities) ? capabilities : [],
      rest,
    })),
  }));
}

/** The MirrorConfig the rows stand for; capabilities in containerd's order, none left out (the default, pull). */
export function configOf(rows: readonly MirrorRow[]): MirrorConfig {
  return {
    apiVersion: MIRROR_API_VERSION,
    kind: MIRROR_KIND,
    mirrors: rows.map((m) => ({
      upstream: m.upstream.trim(),
      hosts: m.hosts.map((h) => {
        const known = MIRROR_CAPABILITIES.filter((c) => h.capabilities.includes(c));
        const other = h.capabilities.filter((c) => !(MIRROR_CAPABILITIES as readonly string[]).includes(c));
        const capabilities = [...known, ...other];
        return { host: h.host.trim(), ...(capabilities.length > 0 ? { capabilities } : {}), ...h.rest };
      }),
    })),
  };
}

/** What the extension's providerConfig becomes: the config, or null (the extension removed) without mirrors. */
export const providerConfigOf = (rows: readonly MirrorRow[]) => (rows.length === 0 ? null : configOf(rows));

/** The part of the shoot the panel edits, to compare the form with (and re-check after a 409). */
export const mirrorsPart = (shoot: Shoot): unknown => {
  const rows = formFromShoot(shoot);
  const extension = registryMirrorExtension(shoot);
  // An extension the form cannot read stays distinct from "no mirrors".
  if (extension && rows.length === 0) return extension.providerConfig ?? null;
  return providerConfigOf(rows);
};

export const sameMirrors = (a: unknown, b: unknown) => canonicalJson(a) === canonicalJson(b);

/** The merge patch that saves the rows, guarded by `resourceVersion`. */
export function mirrorsPatch(rows: readonly MirrorRow[], resourceVersion: string | undefined) {
  return {
    ...(resourceVersion ? { metadata: { resourceVersion } } : {}),
    spec: { extensions: [{ type: REGISTRY_MIRROR_EXTENSION, providerConfig: providerConfigOf(rows) }] },
  };
}

/** The field path each input stands for, keyed by the input's id within the form. */
export function fieldPaths(rows: readonly MirrorRow[]): Record<string, string> {
  const paths: Record<string, string> = {};
  rows.forEach((m, i) => {
    const at = `${MIRROR_CONFIG_FIELD}.mirrors[${i}]`;
    paths[`${m.key}.upstream`] = `${at}.upstream`;
    paths[`${m.key}.hosts`] = `${at}.hosts`;
    m.hosts.forEach((h, j) => {
      paths[`${h.key}.host`] = `${at}.hosts[${j}].host`;
      paths[`${h.key}.capabilities`] = `${at}.hosts[${j}].capabilities`;
      paths[`${h.key}.rest`] = `${at}.hosts[${j}]`;
    });
  });
  return paths;
}

/** The engine's problems of the rows (none without mirrors: that removes the extension). */
export function formProblems(rows: readonly MirrorRow[]): FieldError[] {
  return rows.length === 0 ? [] : validateMirrorConfig(configOf(rows));
}

/** A problem's field in words, for the line that says why Save is off. */
export function describeField(field: string, rows: readonly MirrorRow[]): string {
  const m = /\.mirrors\[(\d+)\](?:\.hosts(?:\[(\d+)\])?)?(?:\.(\w+))?/.exec(field);
  if (!m) return "The configuration";
  const mirror = rows[Number(m[1])];
  const upstream = mirror?.upstream.trim() || `mirror ${Number(m[1]) + 1}`;
  if (m[2] !== undefined) return `${upstream}, host ${Number(m[2]) + 1}`;
  return m[3] === "upstream" ? `Upstream ${Number(m[1]) + 1}` : upstream;
}
