// Entry point of the `almanac` command line (bin/almanac runs this file with Node 24).
import { parseArgs } from "node:util";
import { CliError } from "./cli-error.ts";
import {
  forecastCommand,
  maintainCommand,
  statusCommand,
  validateCommand,
  windowCommand,
  type CommandResult,
} from "./commands.ts";
import { COMMANDS, isCommand, parseArgsOptions, usage } from "./flags.ts";
import { bulkCommand } from "./bulk.ts";
import { isRunsSubcommand, RUNS_SUBCOMMANDS, runsCommand } from "./runs.ts";

function run(argv: string[]): CommandResult | Promise<CommandResult> {
  const [command, ...afterCommand] = argv;
  // `runs` takes a word first (runs list, runs create ...), then its flags.
  const sub = command === "runs" ? afterCommand[0] : undefined;
  if (command === "runs" && !isRunsSubcommand(sub))
    throw new CliError(
      `runs: say one of ${RUNS_SUBCOMMANDS.join(", ")} first; got ${sub === undefined ? "nothing" : `"${sub}"`}`,
    );
  const rest = command === "runs" ? afterCommand.slice(1) : afterCommand;
  if (command === undefined || command === "help" || command === "--help" || command === "-h") {
    return { output: undefined, exitCode: command === undefined ? 2 : 0, warnings: [usage()] };
  }
  if (!isCommand(command))
    throw new CliError(`unknown command "${command}"; commands: ${Object.keys(COMMANDS).join(", ")}`);
  let values: Record<string, string | string[] | boolean | undefined>;
  try {
    const parsed = parseArgs({ args: rest, options: parseArgsOptions(command), strict: true, allowPositionals: false });
    values = parsed.values as typeof values;
  } catch (e) {
    throw new CliError(`${command}: ${(e as Error).message.split("\n")[0]}`);
  }
  const files = (values.f as string[] | undefined) ?? [];
  const str = (name: string) => values[name] as string | undefined;
  switch (command) {
    case "maintain":
      return maintainCommand(files, str("now"), {
        restartControlPlanePods: values["restart-control-plane-pods"] === true,
        restartCoreAddons: values["restart-core-addons"] === true,
      });
    case "status":
      return statusCommand(files);
    case "validate":
      return validateCommand(files, str("now"), str("feature-gates"));
    case "window":
      return windowCommand(str("begin"), str("end"), str("at"));
    case "forecast":
      return forecastCommand(files, str("from"), str("days"));
    case "bulk": {
      const list = (name: string) => (values[name] as string[] | undefined) ?? [];
      return bulkCommand({
        server: str("server"),
        token: str("token"),
        action: str("action"),
        filter: list("filter"),
        shoot: list("shoot"),
        param: list("param"),
        start: values.start === true,
        id: str("id"),
        cancel: values.cancel === true,
        list: values.list === true,
      });
    }
    case "runs":
      return runsCommand(sub as Parameters<typeof runsCommand>[0], {
        server: str("server"),
        token: str("token"),
        id: str("id"),
        file: str("file"),
        dryRun: values["dry-run"] === true,
        limit: str("limit"),
        cursor: str("cursor"),
      });
  }
}

async function main(): Promise<void> {
  let result: CommandResult;
  try {
    result = await run(process.argv.slice(2));
  } catch (e) {
    if (e instanceof CliError) {
      process.stderr.write(`almanac: ${e.message}\n`);
      process.exitCode = 2;
      return;
    }
    process.stderr.write(`almanac: internal error: ${(e as Error).message}\n`);
    process.exitCode = 3;
    return;
  }
  for (const w of result.warnings ?? []) process.stderr.write(`${w}\n`);
  if (result.output !== undefined) process.stdout.write(`${JSON.stringify(result.output, null, 2)}\n`);
  process.exitCode = result.exitCode;
}

await main();
