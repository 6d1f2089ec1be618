// docs/authorization.md shows the role table and the refusal codes as the code has them: a change
// to either table without `node scripts/authorization-doc.mjs` fails here.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { roleTable, withGeneratedSections } from "./authorization-doc.ts";

const file = path.resolve(import.meta.dirname, "..", "..", "docs", "authorization.md");

describe("docs/authorization.md", () => {
  it("has the generated role table and refusal codes as the code has them", () => {
    const document = readFileSync(file, "utf8");
    expect(document).toBe(withGeneratedSections(document));
  });

  it("shows each role including the ones below it", () => {
    expect(roleTable()).toContain("| read | yes | yes | yes |");
    expect(roleTable()).toContain("| operate | — | yes | yes |");
    expect(roleTable()).toContain("| administer | — | — | yes |");
  });
});
