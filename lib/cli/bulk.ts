// `almanac bulk`: a bulk action through a running Almanac's HTTP API (POST|GET /api/v1/bulk-actions),
// printing its JSON answers as the other commands print theirs. With `almanac runs`, the commands
// that talk to a server: everything else the command line does is the engine on files.
import { askAlmanac } from "./almanac-http.ts";
import { CliError } from "./cli-error.ts";
import type { CommandResult } from "./commands.ts";

export interface BulkFlags {
  readonly server?: string;
  readonly token?: string;
  readonly action?: string;
  readonly filter: readonly string[];
  readonly shoot: readonly string[];
  readonly param: readonly string[];
  readonly start: boolean;
  readonly id?: string;
  readonly cancel: boolean;
  readonly list: boolean;
}

function pairs(flag: string, values: readonly string[], typed: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const text of values) {
    const at = text.indexOf("=");
    if (at <= 0) throw new CliError(`bulk: --${flag} must be KEY=VALUE; got "${text}"`);
    const value = text.slice(at + 1);
    out[text.slice(0, at)] = typed && (value === "true" || value === "false") ? value === "true" : value;
  }
  return out;
}

function shoots(values: readonly string[]) {
  return values.map((text) => {
    const [namespace, name, ...rest] = text.split("/");
    if (!namespace || !name || rest.length > 0)
      throw new CliError(`bulk: --shoot must be NAMESPACE/NAME; got "${text}"`);
    return { namespace, name };
  });
}

/** What to ask: the method, the path and the body. */
function request(flags: BulkFlags): { method: string; path: string; body?: unknown } {
  const base = "/api/v1/bulk-actions";
  const modes = [flags.action !== undefined, flags.id !== undefined, flags.list].filter(Boolean).length;
  if (modes !== 1)
    throw new CliError("bulk: give one of --action (preview or --start), --id (show or --cancel), --list");
  if (flags.cancel && flags.id === undefined) throw new CliError("bulk: --cancel needs --id");
  if (flags.list) return { method: "GET", path: base };
  if (flags.id !== undefined) {
    const id = encodeURIComponent(flags.id);
    return flags.cancel ? { method: "POST", path: `${base}/${id}/cancel` } : { method: "GET", path: `${base}/${id}` };
  }
  if (flags.filter.length > 0 === flags.shoot.length > 0)
    throw new CliError("bulk: name the shoots with --filter or with --shoot (one of them)");
  return {
    method: "POST",
    path: base,
    body: {
      action: flags.action,
      ...(flags.filter.length > 0 ? { filter: pairs("filter", flags.filter, false) } : { shoots: shoots(flags.shoot) }),
      ...(flags.param.length > 0 ? { params: pairs("param", flags.param, true) } : {}),
      ...(flags.start ? {} : { dryRun: true }),
    },
  };
}

export async function bulkCommand(flags: BulkFlags, env: NodeJS.ProcessEnv = process.env): Promise<CommandResult> {
  return askAlmanac("bulk", request(flags), flags, env);
}
