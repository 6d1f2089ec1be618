// The front door cannot rot: every relative link in README.md and docs/**/*.md names a file or
// folder that exists, and README.md keeps stating what people and CI rely on.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return markdownFiles(full);
    return entry.name.endsWith(".md") ? [full] : [];
  });
}

/** The targets of inline links and images, `[text](target)`, outside code blocks and code spans. */
function linkTargets(markdown: string): string[] {
  const prose = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "").replace(/`[^`\n]*`/g, "");
  return [...prose.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]);
}

/** GitHub's anchors of a Markdown file's headings: lower case, punctuation dropped, spaces as dashes. */
function headingAnchors(markdown: string): Set<string> {
  const prose = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "");
  return new Set(
    [...prose.matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)].map((m) =>
      m[1]
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\s_-]/gu, "")
        .replace(/\s/g, "-"),
    ),
  );
}

function isRelative(target: string): boolean {
  return !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith("#") && !target.startsWith("/");
}

const files = [path.join(root, "README.md"), ...markdownFiles(path.join(root, "docs"))];

describe("the documentation's links", () => {
  it("finds links the way a Markdown reader does", () => {
    const text = [
      'See [the guide](docs/a.md#part), ![a picture](img/b.png "title") and [far](https://example.com).',
      "`[not a link](code.md)`",
      "```md",
      "[in a fence](fence.md)",
      "```",
    ].join("\n");
    expect(linkTargets(text)).toEqual(["docs/a.md#part", "img/b.png", "https://example.com"]);
  });

  it("knows a heading's anchor as GitHub makes it", () => {
    expect(headingAnchors("# Where things live\n## The `almanac` command line, and why?\n")).toEqual(
      new Set(["where-things-live", "the-almanac-command-line-and-why"]),
    );
  });

  it.each(files.map((file) => [path.relative(root, file), file]))(
    "%s links only to files that exist",
    (_name, file) => {
      const broken = linkTargets(readFileSync(file, "utf8"))
        .filter(isRelative)
        .map((target) => decodeURIComponent(target.replace(/[#?].*$/, "")))
        .filter((target) => target !== "" && !existsSync(path.resolve(path.dirname(file), target)));
      expect(broken).toEqual([]);
    },
  );

  it.each(files.map((file) => [path.relative(root, file), file]))(
    "%s links only to headings that exist",
    (_name, file) => {
      const broken = linkTargets(readFileSync(file, "utf8"))
        .filter((target) => isRelative(target) || target.startsWith("#"))
        .filter((target) => /^[^#]*\.md#/.test(target) || target.startsWith("#"))
        .filter((target) => {
          const [page, anchor] = target.split("#");
          const linked = page === "" ? file : path.resolve(path.dirname(file), page);
          return existsSync(linked) && !headingAnchors(readFileSync(linked, "utf8")).has(decodeURIComponent(anchor));
        });
      expect(broken).toEqual([]);
    },
  );
});

describe("README.md", () => {
  const readme = readFileSync(path.join(root, "README.md"), "utf8");

  it("gives CI's command, literally, as the test command", () => {
    // .ci/run runs "exactly the README's test command"; tests outside this repository run it too.
    const command = readFileSync(path.join(root, ".ci", "run"), "utf8")
      .trim()
      .split("\n")
      .at(-1)!;
    expect(command).toBe("npm install && npm test");
    expect(readme).toContain("```sh\nnpm install && npm test\n```");
    expect(readme).toContain("```sh\nnpm install && npm start\n```");
  });

  it("states the contracts people rely on", () => {
    for (const contract of ["`npm start`", "PORT", "ALMANAC_DATA_DIR", "bin/almanac", "/api/v1"])
      expect(readme).toContain(contract);
  });
});
