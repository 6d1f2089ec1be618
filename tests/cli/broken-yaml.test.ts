// Broken YAML for every command that reads it, generated with fast-check from a real landscape
// file: characters cut, doubled, swapped for YAML's special ones, the text truncated, documents
// split, huge or deeply nested values, alias bombs. The CLI answers each with its usual exits (0,
// 1 for invalid objects, 2 for unreadable input with a one-line problem), never a stack trace.
import { readFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { almanac, expectNoStackTrace, fixture, ROOT } from "./run-almanac.ts";

// Each run starts a process (a second or more on a busy machine): 60 in all.
const RUNS = 15;
const source = readFileSync(path.join(ROOT, fixture("k8s-force-patch.yaml")), "utf8");

const SPECIAL = [
  ":",
  "-",
  "?",
  "|",
  ">",
  "&a",
  "*a",
  "!",
  "%",
  "@",
  "`",
  "#",
  "{",
  "}",
  "[",
  "]",
  ",",
  "\t",
  "\0",
  "\n",
  "---\n",
  "'",
  '"',
  "\\",
  "\u2028",
  "\uFEFF",
  "…",
];

/** One edit of the text at a position given as a fraction of its length. */
const edit = fc.oneof(
  fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.nat({ max: 40 })).map(([at, n]) => (t: string) => {
    const i = Math.floor(at * t.length);
    return t.slice(0, i) + t.slice(i + n);
  }),
  fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.constantFrom(...SPECIAL)).map(([at, s]) => (t: string) => {
    const i = Math.floor(at * t.length);
    return t.slice(0, i) + s + t.slice(i);
  }),
  fc.double({ min: 0, max: 1, noNaN: true }).map((at) => (t: string) => t.slice(0, Math.floor(at * t.length))),
  fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.string({ maxLength: 30 })).map(([at, s]) => (t: string) => {
    const i = Math.floor(at * t.length);
    return t.slice(0, i) + s + t.slice(i);
  }),
);
const mutated = fc.array(edit, { minLength: 1, maxLength: 6 }).map((edits) => edits.reduce((t, e) => e(t), source));

const aliasBomb = [
  "a: &a [x, x, x, x, x, x, x, x, x]",
  ...Array.from(
    { length: 9 },
    (_, i) =>
      `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array(9)
        .fill(`*${String.fromCharCode(97 + i)}`)
        .join(", ")}]`,
  ),
  "kind: Shoot",
].join("\n");
const extremes = fc.constantFrom(
  aliasBomb,
  "[".repeat(20_000),
  `kind: Shoot\nmetadata:\n  name: ${"n".repeat(1_000_000)}\n`,
  "{".repeat(5_000) + "}".repeat(5_000),
  "- ".repeat(10_000) + "x",
  "\uFEFF\uFEFFkind: Shoot",
  "kind: Shoot\nspec: !!binary AAAA\n",
  "kind: !!js/function 'function () {}'\n",
  "\0\0\0",
  "---\n---\n---\n",
);

describe("bin/almanac on broken YAML", () => {
  for (const command of ["validate", "status", "maintain", "forecast"]) {
    it(`${command}: exits 0, 1 or 2, without a stack trace`, { timeout: 240_000 }, () => {
      fc.assert(
        fc.property(fc.oneof({ weight: 4, arbitrary: mutated }, { weight: 1, arbitrary: extremes }), (input) => {
          const args = [
            command,
            "-f",
            "-",
            ...(command === "status" || command === "forecast" ? [] : ["--now", "2026-01-01T00:00:00Z"]),
          ];
          const run = almanac(args, { input });
          expect([0, 1, 2], run.stderr.slice(0, 400)).toContain(run.status);
          expectNoStackTrace(run.stderr);
          if (run.status === 2) {
            expect(run.stdout).toBe("");
            expect(run.stderr.trim().split("\n").length, run.stderr.slice(0, 400)).toBeLessThanOrEqual(2);
          } else {
            expect(() => JSON.parse(run.stdout), run.stdout.slice(0, 200)).not.toThrow();
          }
        }),
        { numRuns: RUNS },
      );
    });
  }
});
