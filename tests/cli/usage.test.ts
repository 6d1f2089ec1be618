// `almanac help`: the usage text lists every flag each command accepts, spelled as the command
// line takes it, and no flag a command would refuse.
import { describe, expect, it } from "vitest";
import { COMMANDS, type Command, parseArgsOptions, usage } from "../../lib/cli/flags.ts";
import { almanac, almanacJson, byName, fixture, type MaintainOutput } from "./run-almanac.ts";

const commands = Object.keys(COMMANDS) as Command[];

/** The lines of the usage text about one command: from its synopsis to the next blank line. */
function section(text: string, command: Command): string {
  const lines = text.split("\n");
  const start = lines.findIndex((l) => l.startsWith(`  ${command} `) || l === `  ${command}`);
  expect(start, `no section for ${command}`).toBeGreaterThan(-1);
  const end = lines.findIndex((l, i) => i > start && l.trim() === "");
  return lines.slice(start, end === -1 ? undefined : end).join("\n");
}

/** The flags the parser really accepts for a command, in every spelling. */
function accepted(command: Command): string[] {
  return Object.entries(parseArgsOptions(command)).flatMap(([name, option]) =>
    option.short !== undefined ? [`-${option.short}`, `--${name}`] : [`--${name}`],
  );
}

describe("almanac help", () => {
  it("prints the usage text on standard error and exits 0; without a command it exits 2", () => {
    for (const arg of ["help", "--help", "-h"]) {
      const run = almanac([arg]);
      expect(run.status, arg).toBe(0);
      expect(run.stdout, arg).toBe("");
      expect(run.stderr, arg).toBe(`${usage()}\n`);
    }
    const bare = almanac([]);
    expect(bare.status).toBe(2);
    expect(bare.stderr).toBe(`${usage()}\n`);
  });

  it("lists every flag each command accepts, in every spelling", () => {
    const text = usage();
    for (const command of commands) {
      const lines = section(text, command);
      for (const flag of accepted(command))
        expect(lines, `${command} ${flag}`).toMatch(new RegExp(`(^|[\\s\\[,])${flag}(?![\\w-])`, "m"));
    }
  });

  it("lists no flag a command refuses", () => {
    const text = usage();
    for (const command of commands) {
      const listed = section(text, command).match(/(?<![\w-])--?[a-z][\w-]*/g) ?? [];
      expect(listed.length, command).toBeGreaterThan(0);
      for (const flag of listed) expect(accepted(command), `${command} lists ${flag}`).toContain(flag);
    }
  });

  it("lists maintain's controller-config switches", () => {
    const lines = section(usage(), "maintain");
    expect(lines).toContain("[--restart-control-plane-pods]");
    expect(lines).toContain("[--restart-core-addons]");
  });

  it("shows the placeholder of every string flag", () => {
    for (const command of commands) {
      const flags: Record<string, { type: string; short?: string; value?: string }> = COMMANDS[command].flags;
      for (const [name, flag] of Object.entries(flags)) {
        if (flag.type !== "string") continue;
        expect(flag.value, `${command} --${name}`).toBeTruthy();
        const words = flag.short !== undefined ? `-${flag.short}, --${name}` : `--${name}`;
        expect(section(usage(), command), `${command} --${name}`).toContain(`${words} ${flag.value}`);
      }
    }
  });
});

describe("the listed flags work", () => {
  it("maintain --restart-control-plane-pods --restart-core-addons add both tasks", () => {
    const args = ["maintain", "-f", fixture("annotations.yaml"), "--now", "2025-01-01T00:00:00Z"];
    const out = almanacJson<MaintainOutput>([...args, "--restart-control-plane-pods", "--restart-core-addons"]);
    const tasks = byName(out, "maintain-now").metadata.annotations?.["shoot.gardener.cloud/tasks"]?.split(",");
    expect(tasks).toEqual(expect.arrayContaining(["restartControlPlanePods", "restartCoreAddons"]));
    const without = almanacJson<MaintainOutput>(args);
    expect(byName(without, "maintain-now").metadata.annotations?.["shoot.gardener.cloud/tasks"]).not.toMatch(/restart/);
  });

  it("-f and --f read the same files", () => {
    const short = almanac(["status", "-f", fixture("status.yaml")]);
    const long = almanac(["status", "--f", fixture("status.yaml")]);
    expect(short.status).toBe(0);
    expect(long).toEqual(short);
  });
});
