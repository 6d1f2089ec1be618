// docs/configuration.md, written from the table of settings (lib/config/settings.ts), so the page
// cannot say something the code does not do: `npm run docs:config` writes it, and a test fails
// when the file differs from what this returns.
import type { Setting } from "./setting.ts";
import { GROUP_TITLES, SETTINGS } from "./settings.ts";

const cell = (text: string) => text.replaceAll("|", "\\|").replaceAll("\n", " ");

function row(setting: Setting<unknown>): string {
  const shown = setting.defaultText === undefined || setting.defaultText === "" ? "—" : `\`${setting.defaultText}\``;
  const audience = setting.audience === "tests" ? " (for tests only)" : "";
  const secret = setting.secret ? " A secret: messages never show it." : "";
  return `| \`${setting.env}\` | ${cell(setting.meaning)}${audience}${secret} | ${cell(setting.expected)} | ${cell(shown)} |`;
}

/** The page's Markdown. */
export function configurationDoc(): string {
  const sections = Object.entries(SETTINGS).map(([group, settings]) =>
    [
      `## ${GROUP_TITLES[group as keyof typeof SETTINGS]}`,
      "",
      "| Variable | Meaning | Value | Default |",
      "| --- | --- | --- | --- |",
      ...Object.values(settings).map((s) => row(s as Setting<unknown>)),
    ].join("\n"),
  );
  return [
    "# Configuration",
    "",
    "<!-- Generated from lib/config/settings.ts by `npm run docs:config`; do not edit by hand. -->",
    "",
    "Almanac is configured by environment variables, all read and checked when a process starts",
    "(`npm start` before it builds or forks, `npm run worker`, each web process, `next start` and",
    "`next dev`, `npm run seed`, `backup` and `restore`). A wrong value stops the start with exit code 2",
    "and a line per wrong setting, naming the variable, its value (a secret's only as set) and what is",
    "expected:",
    "",
    "```",
    'Almanac cannot start: ALMANAC_WEB_WORKERS is "abc", expected a whole number from 1 to 64.',
    "```",
    "",
    'An unset or blank variable takes its default; "—" means none (the feature is off).',
    "",
    "To add a setting: declare it once in `lib/config/settings.ts` (its variable, kind of value, default",
    "and one line of meaning), read it through `config()` (or the slice a module is handed), and run",
    "`npm run docs:config` to write this page; a test fails while the page differs from the table.",
    "",
    ...sections.flatMap((section) => [section, ""]),
  ].join("\n");
}
