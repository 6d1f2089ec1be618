// The contributor guide's "Where things live" table says which folder may import which; ESLint
// enforces the rule from eslint.config.mjs. This keeps the two saying the same.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import config from "../../eslint.config.mjs";

const root = path.resolve(import.meta.dirname, "../..");

interface Policy {
  from: { element?: { type: string } };
  allow: { to: { element?: { types?: { anyOf: string[] } } } };
}

/** Each layer's folder and the layers it may import besides itself, as ESLint enforces them. */
function enforcedLayers(): Map<string, { folder: string; imports: string[] }> {
  const block = (config as any[]).find((entry) => entry.settings?.["boundaries/elements"]);
  const elements: { type: string; pattern: string }[] = block.settings["boundaries/elements"];
  const policies: Policy[] = block.rules["boundaries/dependencies"][1].policies;
  return new Map(
    elements.map(({ type, pattern }) => {
      const policy = policies.find((p) => p.from.element?.type === type);
      const allowed = policy?.allow.to.element?.types?.anyOf ?? [];
      return [type, { folder: pattern, imports: allowed.filter((t) => t !== type).sort() }];
    }),
  );
}

/** The table's rows: folder and the layers it may import ("nothing" for none). */
function documentedLayers(): Map<string, string[]> {
  const guide = readFileSync(path.join(root, "docs", "contributing.md"), "utf8");
  const section = guide.split("## Where things live")[1].split("\n## ")[0];
  const rows = section
    .split("\n")
    .map((line) => line.match(/^\| `([^`]+)` \|[^|]*\| ([^|]*) \|$/))
    .filter((m): m is RegExpMatchArray => m !== null);
  return new Map(
    rows.map(([, folder, imports]) => [
      folder,
      imports.trim() === "nothing"
        ? []
        : imports
            .split(",")
            .map((s) => s.trim())
            .sort(),
    ]),
  );
}

describe("docs/contributing.md's layer table", () => {
  it("lists every layer of eslint.config.mjs with exactly the imports ESLint allows it", () => {
    const enforced = enforcedLayers();
    // Expected as the guide writes it: a folder and the layers' names it may import.
    const expected = new Map([...enforced.values()].map(({ folder, imports }) => [folder, imports]));
    expect(Object.fromEntries(documentedLayers())).toEqual(Object.fromEntries(expected));
  });
});
