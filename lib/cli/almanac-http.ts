// The command line's way to a running Almanac (`almanac bulk`, `almanac runs`): one request to its
// HTTP API with an API token, its JSON answer printed as the other commands print theirs; a
// refusal's problem is printed too, with exit code 1.
import { CliError } from "./cli-error.ts";
import type { CommandResult } from "./commands.ts";

export interface AlmanacRequest {
  readonly method: string;
  /** From the API's root, e.g. /api/v1/bulk-actions. */
  readonly path: string;
  readonly body?: unknown;
}

/** `command` names the command in messages; server and token default to $ALMANAC_URL and $ALMANAC_TOKEN. */
export async function askAlmanac(
  command: string,
  { method, path, body }: AlmanacRequest,
  flags: { readonly server?: string; readonly token?: string },
  env: NodeJS.ProcessEnv = process.env,
): Promise<CommandResult> {
  const server = flags.server ?? env.ALMANAC_URL;
  const token = flags.token ?? env.ALMANAC_TOKEN;
  if (!server) throw new CliError(`${command}: --server or $ALMANAC_URL must say where Almanac is`);
  if (!token) throw new CliError(`${command}: --token or $ALMANAC_TOKEN must hold an API token`);
  let url: URL;
  try {
    // Relative to the server's own path, so that Almanac behind a prefix (https://host/almanac) is reached.
    url = new URL(path.replace(/^\//, ""), server.endsWith("/") ? server : `${server}/`);
  } catch {
    throw new CliError(`${command}: --server "${server}" is not a URL`);
  }
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        accept: "application/json",
        ...(body !== undefined ? { "content-type": "application/json" } : {}),
      },
      body: body !== undefined ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(120_000),
    });
  } catch (error) {
    throw new CliError(`${command}: ${url.origin} did not answer (${(error as Error).message})`);
  }
  const text = await response.text();
  let output: unknown;
  try {
    output = JSON.parse(text);
  } catch {
    throw new CliError(`${command}: ${url.origin} answered ${response.status} without JSON`);
  }
  return {
    output,
    exitCode: response.ok ? 0 : 1,
    ...(response.ok ? {} : { warnings: [`almanac: ${method} ${path}: ${response.status}`] }),
  };
}
