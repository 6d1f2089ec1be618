// Entry point of the `almanac` command line (bin/almanac runs this file with Node 24).
import { parseArgs } from "node:util";
import { CliError } from "./cli-error.ts";
import { forecastCommand, maintainCommand, statusCommand, validateCommand, windowCommand, type CommandResult } from "./commands.ts";

const USAGE = `usage: almanac <command> [flags]

Commands (all print JSON on standard output):
  maintain -f FILE... [--now RFC3339]     every Shoot after one maintenance at --now
  status   -f FILE...                     the shoot.gardener.cloud/status label of every Shoot
  validate -f FILE... [--now RFC3339] [--feature-gates VersionClassificationLifecycle=true|false]
                                          CloudProfile and Shoot validation; exit 1 when invalid
  window   --begin HHMMSS+HHMM --end HHMMSS+HHMM [--at RFC3339]
                                          parse, validate and place a maintenance time window
  forecast -f FILE... [--from RFC3339] [--days N]
                                          forced updates between --from and --from + N days

FILE is YAML (several documents allowed) or JSON holding CloudProfiles and Shoots
(core.gardener.cloud/v1beta1), possibly inside a List; - reads standard input.
Exit codes: 0 done, 1 invalid objects (validate), 2 unusable input or flags.`;

const FLAGS = {
  maintain: { f: { type: "string", short: "f", multiple: true }, now: { type: "string" }, "restart-control-plane-pods": { type: "boolean" }, "restart-core-addons": { type: "boolean" } },
  status: { f: { type: "string", short: "f", multiple: true } },
  validate: { f: { type: "string", short: "f", multiple: true }, now: { type: "string" }, "feature-gates": { type: "string" } },
  window: { begin: { type: "string" }, end: { type: "string" }, at: { type: "string" } },
  forecast: { f: { type: "string", short: "f", multiple: true }, from: { type: "string" }, days: { type: "string" } },
} as const;

type Command = keyof typeof FLAGS;

function run(argv: string[]): CommandResult {
  const [command, ...rest] = argv;
  if (command === undefined || command === "help" || command === "--help" || command === "-h") {
    return { output: undefined, exitCode: command === undefined ? 2 : 0, warnings: [USAGE] };
  }
  if (!(command in FLAGS)) throw new CliError(`unknown command "${command}"; commands: ${Object.keys(FLAGS).join(", ")}`);
  let values: Record<string, string | string[] | boolean | undefined>;
  try {
    const parsed = parseArgs({ args: rest, options: FLAGS[command as Command], strict: true, allowPositionals: false });
    values = parsed.values as typeof values;
  } catch (e) {
    throw new CliError(`${command}: ${(e as Error).message.split("\n")[0]}`);
  }
  const files = (values.f as string[] | undefined) ?? [];
  const str = (name: string) => values[name] as string | undefined;
  switch (command as Command) {
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
  }
}

function main(): void {
  let result: CommandResult;
  try {
    result = run(process.argv.slice(2));
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

main();
