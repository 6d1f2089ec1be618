// docs/configuration.md is what the table of settings says, so it cannot drift from the code.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { configurationDoc } from "./configuration-doc.ts";
import { ALL_SETTINGS } from "./load-config.ts";

const file = path.resolve(import.meta.dirname, "../../docs/configuration.md");

describe("docs/configuration.md", () => {
  it("is what `npm run docs:config` writes from lib/config/settings.ts", () => {
    expect(readFileSync(file, "utf8"), "run `npm run docs:config`").toBe(configurationDoc());
  });

  it("names every setting", () => {
    const page = configurationDoc();
    for (const setting of ALL_SETTINGS) expect(page).toContain(`| \`${setting.env}\` |`);
  });
});
