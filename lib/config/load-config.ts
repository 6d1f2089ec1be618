// The configuration of this process: every setting of lib/config/settings.ts read from the
// environment at once by one zod schema, checked alone and against each other, into one typed
// object. `npm start`, `npm run worker` and each web process read it before anything else
// (exitOnBadConfig), so a wrong value stops them with a message naming the variable, its value
// (a secret's only as "set") and what is expected, instead of failing a request later.
import { z } from "zod";
import { redactSecrets } from "../engine/redact-secrets.ts";
import type { Setting } from "./setting.ts";
import { isHttpsOrLoopback } from "./setting-types.ts";
import { SETTINGS } from "./settings.ts";

type Groups = typeof SETTINGS;
type ValueOf<S> = S extends Setting<infer T> ? T : never;

/** The typed configuration: one slice per group of settings. */
export type Config = {
  readonly [G in keyof Groups]: { readonly [K in keyof Groups[G]]: ValueOf<Groups[G][K]> };
};

type Env = Readonly<Record<string, string | undefined>>;

/** Every setting, in the table's order. */
export const ALL_SETTINGS: readonly Setting<unknown>[] = Object.values(SETTINGS).flatMap(
  (group) => Object.values(group) as Setting<unknown>[],
);

const byName = new Map(ALL_SETTINGS.map((s) => [s.env, s]));

/** A rule between settings, broken: the variable it names and why. */
interface Broken {
  readonly env: string;
  readonly why: string;
}

const set = (value: unknown) => value !== undefined;

/** The rules that tie settings together (each alone is checked by its own schema). */
function brokenRules(values: Record<string, unknown>): Broken[] {
  const broken: Broken[] = [];
  const v = (setting: Setting<unknown>) => values[setting.env];
  const { signIn, garden, server } = SETTINGS;
  if (set(v(signIn.oidcIssuer))) {
    for (const required of [signIn.oidcClientId, signIn.oidcClientSecret, server.publicUrl])
      if (!set(v(required))) broken.push({ env: required.env, why: `it must be set when ${signIn.oidcIssuer.env} is` });
    // The issuer sends people back to the public URL: codes must not travel in the clear.
    const publicUrl = v(server.publicUrl) as string | undefined;
    if (publicUrl !== undefined && !isHttpsOrLoopback(new URL(publicUrl)))
      broken.push({
        env: server.publicUrl.env,
        why: "with company sign-in it must be an https:// URL (http:// only for localhost)",
      });
    if (!(v(signIn.oidcScopes) as readonly string[]).includes("openid"))
      broken.push({ env: signIn.oidcScopes.env, why: 'it must include "openid"' });
  }
  if (set(v(garden.kubeconfig)) && set(v(garden.mode)))
    broken.push({ env: garden.mode.env, why: `set either ${garden.kubeconfig.env} or ${garden.mode.env}, not both` });
  if (set(v(garden.context)) && !set(v(garden.kubeconfig)))
    broken.push({ env: garden.context.env, why: `it needs ${garden.kubeconfig.env}` });
  if (v(garden.identity) === "oidc" && !set(v(signIn.oidcIssuer)))
    broken.push({
      env: garden.identity.env,
      why: `oidc sends each person's ID token from company sign-in, but ${signIn.oidcIssuer.env} is not set`,
    });
  if (v(signIn.trustedProxyUserHeader) === v(signIn.trustedProxyGroupsHeader))
    broken.push({
      env: signIn.trustedProxyGroupsHeader.env,
      why: `it names the same header as ${signIn.trustedProxyUserHeader.env}`,
    });
  broken.push(...brokenMailRules(v));
  return broken;
}

/** E-mail: one way to name the server, a sender whenever there is one, a password with its user. */
function brokenMailRules(v: (setting: Setting<unknown>) => unknown): Broken[] {
  const broken: Broken[] = [];
  const { smtpUrl, smtpHost, smtpPort, smtpUser, smtpPassword, smtpSecure, from } = SETTINGS.mail;
  if (set(v(smtpUrl)) && set(v(smtpHost)))
    broken.push({ env: smtpHost.env, why: `set either ${smtpUrl.env} or ${smtpHost.env}, not both` });
  const server = set(v(smtpUrl)) ? smtpUrl : set(v(smtpHost)) ? smtpHost : undefined;
  if (server && !set(v(from))) broken.push({ env: from.env, why: `it must be set when ${server.env} is` });
  for (const part of [smtpPort, smtpUser, smtpPassword, smtpSecure])
    if (set(v(part)) && !set(v(smtpHost))) broken.push({ env: part.env, why: `it needs ${smtpHost.env}` });
  if (set(v(smtpUser)) && !set(v(smtpPassword)))
    broken.push({ env: smtpPassword.env, why: `it must be set when ${smtpUser.env} is` });
  if (set(v(smtpPassword)) && !set(v(smtpUser)))
    broken.push({ env: smtpUser.env, why: `it must be set when ${smtpPassword.env} is` });
  return broken;
}

const schema = z.object(Object.fromEntries(ALL_SETTINGS.map((s) => [s.env, s.schema]))).superRefine((values, ctx) => {
  for (const { env, why } of brokenRules(values))
    ctx.addIssue({ code: "custom", path: [env], message: why, params: { rule: true } });
});

/**
 * How a message shows a variable's value: a secret only as set, any other with passwords hidden.
 * A URL with user information that does not parse is not shown at all: where its password ends
 * cannot be told (a "/" or "#" in it), so no pattern could be sure to hide all of it.
 */
function shown(setting: Setting<unknown>, raw: string | undefined): string {
  if (raw === undefined || raw.trim() === "") return "not set";
  if (setting.secret) return `set (${raw.length} characters, not shown)`;
  if (raw.includes("@") && /^[a-z][a-z0-9+.-]*:\/\//i.test(raw) && !URL.canParse(raw))
    return `set (${raw.length} characters, not shown: a URL that does not parse may hold a password)`;
  return `"${redactSecrets(raw)}"`;
}

/** The sentence for one problem: the variable, its value, and what is wrong or expected. */
function problem(setting: Setting<unknown>, raw: string | undefined, issue: z.core.$ZodIssue): string {
  const value = shown(setting, raw);
  const params = (issue as { params?: { rule?: boolean; detail?: string } }).params;
  if (params?.rule) return `${setting.env} is ${value}: ${issue.message}.`;
  const detail = params?.detail ? ` (${params.detail})` : "";
  return `${setting.env} is ${value}${detail}, expected ${setting.expected}.`;
}

/** Settings that are wrong: one sentence each in `problems`. */
export class ConfigError extends Error {
  readonly problems: readonly string[];
  constructor(problems: readonly string[]) {
    super(problems.join("\n"));
    this.problems = problems;
  }
}

/** The configuration in `env` (tests pass their own); throws a ConfigError naming every wrong setting. */
export function loadConfig(env: Env): Config {
  const input = Object.fromEntries(ALL_SETTINGS.map((s) => [s.env, env[s.env]]));
  const result = schema.safeParse(input);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => {
      const name = String(issue.path[0]);
      return problem(byName.get(name)!, env[name], issue);
    });
    throw new ConfigError([...new Set(problems)]);
  }
  const values = result.data as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(SETTINGS).map(([group, settings]) => [
      group,
      Object.fromEntries(Object.entries(settings).map(([key, s]) => [key, values[(s as Setting<unknown>).env]])),
    ]),
  ) as Config;
}

/** One setting's value for `text` (undefined: unset); throws a ConfigError as loadConfig does. */
export function parseSetting<T>(setting: Setting<T>, text: string | undefined): T {
  const result = setting.schema.safeParse(text);
  if (!result.success) throw new ConfigError([problem(setting, text, result.error.issues[0])]);
  return result.data;
}

// One per process: Next bundles its own copy of this module beside the one scripts/web-worker.mjs
// imports, and both must see the same object.
const HOLDER = Symbol.for("almanac.config");
const holder = globalThis as { [HOLDER]?: Config };

/** This process's configuration, read from process.env the first time; throws a ConfigError. */
export function config(): Config {
  holder[HOLDER] ??= loadConfig(process.env);
  return holder[HOLDER];
}

/**
 * Makes `chosen` this process's configuration (a test that exercises a module with settings of its
 * own: `useConfig(loadConfig({ ALMANAC_GROUP_ROLES: "..." }))`); undefined reads process.env again.
 */
export function useConfig(chosen: Config | undefined): void {
  holder[HOLDER] = chosen;
}

/** Reads the configuration, or stops the process with exit code 2 and a line per wrong setting. */
export function exitOnBadConfig(): Config {
  try {
    return config();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    for (const line of error.problems) console.error(`Almanac cannot start: ${line}`);
    process.exit(2);
  }
}
