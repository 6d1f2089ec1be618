// The commands of the `almanac` command line and their flags, each with the words the usage text
// shows for it. The usage text is made from this table and parseArgs gets its options from it, so
// a flag cannot be accepted without being listed.
import type { ParseArgsOptionsConfig } from "node:util";

interface Flag {
  readonly type: "string" | "boolean";
  readonly short?: string;
  readonly multiple?: boolean;
  /** The placeholder of a string flag's value. */
  readonly value?: string;
  /** Shown without brackets in the synopsis: the command does not run without it. */
  readonly required?: boolean;
  readonly help: string;
}

interface CommandSpec {
  readonly summary: string;
  /** Words that follow the command, before its flags (one of them). */
  readonly subcommands?: string;
  readonly flags: Readonly<Record<string, Flag>>;
}

const FILES: Flag = {
  type: "string",
  short: "f",
  multiple: true,
  value: "FILE",
  required: true,
  help: "a file to read, repeatable; - reads standard input",
};

export const COMMANDS = {
  maintain: {
    summary: "every Shoot after one maintenance at --now",
    flags: {
      f: FILES,
      now: { type: "string", value: "RFC3339", help: "when the maintenance runs (default: now)" },
      // Gardener's controller config switches enableShootControlPlaneRestarter and
      // enableShootCoreAddonRestarter, off unless set.
      "restart-control-plane-pods": { type: "boolean", help: "also add the task restartControlPlanePods" },
      "restart-core-addons": { type: "boolean", help: "also add the task restartCoreAddons" },
    },
  },
  status: {
    summary: "the shoot.gardener.cloud/status label of every Shoot",
    flags: { f: FILES },
  },
  validate: {
    summary: "CloudProfile and Shoot validation; exit 1 when invalid",
    flags: {
      f: FILES,
      now: { type: "string", value: "RFC3339", help: "the moment versions are classified at (default: now)" },
      "feature-gates": {
        type: "string",
        value: "GATES",
        help: "VersionClassificationLifecycle=true|false (default: true)",
      },
    },
  },
  window: {
    summary: "parse, validate and place a maintenance time window",
    flags: {
      begin: { type: "string", value: "HHMMSS+HHMM", required: true, help: "the window's begin, e.g. 220000+0100" },
      end: { type: "string", value: "HHMMSS+HHMM", required: true, help: "the window's end, e.g. 230000+0100" },
      at: { type: "string", value: "RFC3339", help: 'also print "contains" and "next" (the next window) for it' },
    },
  },
  forecast: {
    summary: "forced updates between --from and --from + N days",
    flags: {
      f: FILES,
      from: { type: "string", value: "RFC3339", help: "the start (default: now)" },
      days: { type: "string", value: "N", help: "how many days ahead, 1 to 3660 (default: 30)" },
    },
  },
  bulk: {
    summary: "preview, start, follow or cancel a bulk action on a running Almanac (its HTTP API)",
    flags: {
      server: { type: "string", value: "URL", help: "Almanac's address (default: $ALMANAC_URL)" },
      token: {
        type: "string",
        value: "TOKEN",
        help: "an API token (default: $ALMANAC_TOKEN, which keeps it out of ps)",
      },
      action: {
        type: "string",
        value: "ACTION",
        help: "maintain, set-window, set-auto-update, set-confine-rollout, hibernate or wake",
      },
      filter: {
        type: "string",
        multiple: true,
        value: "KEY=VALUE",
        help: "a fleet-list parameter (namespace, project, status, purpose, q, ...; labels=env=prod,!legacy for a label selector), repeatable: every shoot it selects",
      },
      shoot: { type: "string", multiple: true, value: "NS/NAME", help: "one shoot, repeatable (instead of --filter)" },
      param: {
        type: "string",
        multiple: true,
        value: "KEY=VALUE",
        help: "the action's parameter, repeatable (begin=220000+0000, kubernetesVersion=true, ...)",
      },
      start: { type: "boolean", help: "start it (without: print each shoot's preview, change nothing)" },
      id: { type: "string", value: "ID", help: "print this bulk action: its state and each shoot's outcome" },
      cancel: { type: "boolean", help: "with --id: cancel it (shoots not yet acted on are left alone)" },
      list: { type: "boolean", help: "print the recent bulk actions, newest first" },
    },
  },
  runs: {
    summary:
      "update runs on a running Almanac (its HTTP API): runs list | get --id | create --file [--dry-run] | approve|pause|resume|cancel --id",
    subcommands: "list|get|create|approve|pause|resume|cancel",
    flags: {
      server: { type: "string", value: "URL", help: "Almanac's address (default: $ALMANAC_URL)" },
      token: {
        type: "string",
        value: "TOKEN",
        help: "an API token (default: $ALMANAC_TOKEN, which keeps it out of ps)",
      },
      id: { type: "string", value: "ID", help: "get, approve, pause, resume, cancel: the run" },
      file: {
        type: "string",
        value: "FILE",
        help: 'create: the run, YAML or JSON {"name", "target", "stages", "healthGate"?}; - reads standard input',
      },
      "dry-run": { type: "boolean", help: "create: print the run's preview, start nothing" },
      limit: { type: "string", value: "N", help: "list: how many (default 50)" },
      cursor: { type: "string", value: "CURSOR", help: "list: the nextCursor of the previous page" },
    },
  },
} as const satisfies Record<string, CommandSpec>;

export type Command = keyof typeof COMMANDS;

export function isCommand(name: string): name is Command {
  return Object.hasOwn(COMMANDS, name);
}

/** The options node:util's parseArgs gets for a command: the table without the usage words. */
export function parseArgsOptions(command: Command): ParseArgsOptionsConfig {
  const flags: Readonly<Record<string, Flag>> = COMMANDS[command].flags;
  const options: ParseArgsOptionsConfig = {};
  for (const [name, { type, short, multiple }] of Object.entries(flags)) {
    options[name] = { type, ...(short !== undefined ? { short } : {}), ...(multiple ? { multiple } : {}) };
  }
  return options;
}

/** Every way a flag may be written: the short form if it has one, and always the long one. */
function spellings(name: string, flag: Flag): string[] {
  return flag.short !== undefined ? [`-${flag.short}`, `--${name}`] : [`--${name}`];
}

function synopsisPart(name: string, flag: Flag): string {
  const word = flag.short !== undefined ? `-${flag.short}` : `--${name}`;
  const text = flag.value !== undefined ? `${word} ${flag.value}${flag.multiple ? "..." : ""}` : word;
  return flag.required ? text : `[${text}]`;
}

function flagColumn(name: string, flag: Flag): string {
  const words = spellings(name, flag).join(", ");
  return flag.value !== undefined ? `${words} ${flag.value}` : words;
}

export function usage(): string {
  const entries = Object.entries(COMMANDS) as [Command, CommandSpec][];
  const width = Math.max(
    ...entries.flatMap(([, spec]) => Object.entries(spec.flags).map(([n, f]) => flagColumn(n, f).length)),
  );
  const lines = [
    "usage: almanac <command> [flags]",
    "       almanac help",
    "",
    "Commands (all print JSON on standard output):",
  ];
  for (const [command, spec] of entries) {
    const flags = Object.entries(spec.flags);
    const head = spec.subcommands !== undefined ? [command, spec.subcommands] : [command];
    lines.push("", `  ${[...head, ...flags.map(([n, f]) => synopsisPart(n, f))].join(" ")}`, `      ${spec.summary}`);
    for (const [name, flag] of flags) lines.push(`      ${flagColumn(name, flag).padEnd(width)}  ${flag.help}`);
  }
  lines.push(
    "",
    "FILE is YAML (several documents allowed) or JSON holding CloudProfiles and Shoots",
    "(core.gardener.cloud/v1beta1), possibly inside a List; - reads standard input.",
    "Exit codes: 0 done, 1 invalid objects (validate) or refused by Almanac (bulk, runs: its problem is printed),",
    "2 unusable input or flags (or Almanac not reachable), 3 a bug in almanac.",
  );
  return lines.join("\n");
}
