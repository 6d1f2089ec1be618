// `npm test`: type check, lint and format check, unit tests (vitest) and browser journeys
// (Playwright in Debian's Chromium), then one summary line for CI, which reads
// `N passed, N failed[, N skipped]` from the very last line.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { ensureBuild, requireNode24, root } from "./next-build.mjs";

requireNode24();
const require = createRequire(import.meta.url);
const run = (cmd, args, env = {}) =>
  spawnSync(cmd, args, { cwd: root, stdio: "inherit", env: { ...process.env, ...env } }).status;

// (a) Playwright drives Debian's Chromium, because these machines cannot fetch Playwright's
// own browser build. A new machine does not have it, so install it here.
const CHROMIUM = "/usr/bin/chromium";
if (!existsSync(CHROMIUM)) {
  const install = "apt-get update && apt-get install -y chromium";
  if (process.getuid?.() !== 0) {
    console.error(`${CHROMIUM} is missing. Install it, then run npm test again:\n  sudo sh -c '${install}'`);
    process.exit(1);
  }
  console.log(`> ${CHROMIUM} is missing; installing Debian's chromium: ${install}`);
  const env = { DEBIAN_FRONTEND: "noninteractive" };
  if (run("apt-get", ["update"], env) !== 0 || run("apt-get", ["install", "-y", "chromium"], env) !== 0) {
    console.error(`Installing chromium failed; try by hand: ${install}`);
    process.exit(1);
  }
}

// (b) Build first: Playwright's webServer timeout then need not cover it, and the type check
// sees the route types Next generates.
try {
  ensureBuild();
} catch (error) {
  // Nothing can run without a build: say so in the line CI reads.
  console.error(error.message);
  console.log("0 passed, 1 failed");
  process.exit(1);
}

// (c) The static checks: types, lint (including the layer rules) and formatting. Each
// counts as one test in the summary, so a lint error fails the run like a failing test.
const checks = [
  { name: "type check (tsc --noEmit)", args: [binOf("typescript", "tsc"), "--noEmit"] },
  { name: "lint (eslint .)", args: [binOf("eslint", "eslint"), "--max-warnings", "0", "."] },
  {
    name: "format check (prettier --check .)",
    args: [binOf("prettier", "prettier"), "--check", "--log-level", "warn", "."],
  },
];
const checkCounts = { passed: 0, failed: 0 };
for (const check of checks) {
  console.log(`> ${check.name}`);
  const ok = run(process.execPath, check.args) === 0;
  console.log(ok ? `  ✓ ${check.name}` : `  ✗ ${check.name} failed (see above)`);
  checkCounts[ok ? "passed" : "failed"] += 1;
}

// (d) Both runners, one after the other (2 cores), each writing JSON results to a temp dir.
const tmp = mkdtempSync(path.join(os.tmpdir(), "almanac-test-"));
const vitestJson = path.join(tmp, "vitest.json");
const playwrightJson = path.join(tmp, "playwright.json");

// A package's CLI entry, found through its package.json "bin" (subpaths are not all exported);
// "bin" is a map of names, or a single path for a package with one command.
function binOf(pkg, name) {
  const manifest = require.resolve(`${pkg}/package.json`);
  const { bin } = JSON.parse(readFileSync(manifest, "utf8"));
  return path.join(path.dirname(manifest), typeof bin === "string" ? bin : bin[name]);
}
const readJson = (file) => (existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : null);

// --passWithNoTests: no unit tests yet is fine; the total-zero check below still catches a run
// in which nothing ran at all.
const vitestExit = run(process.execPath, [
  binOf("vitest", "vitest"),
  "run",
  "--passWithNoTests",
  "--reporter=default",
  "--reporter=json",
  `--outputFile.json=${vitestJson}`,
]);
const playwrightExit = run(
  process.execPath,
  [binOf("@playwright/test", "playwright"), "test", "--reporter=list,json"],
  { PLAYWRIGHT_JSON_OUTPUT_FILE: playwrightJson },
);

// (e) Add up. A runner that exits non-zero without reporting a failing test crashed (config
// error, a test file that does not load, the web server not starting): count that as a failure.
const counts = { passed: checkCounts.passed, failed: checkCounts.failed, skipped: 0 };
function add(name, exit, result) {
  if (result) {
    counts.passed += result.passed;
    counts.failed += result.failed;
    counts.skipped += result.skipped;
  }
  if (!result || (exit !== 0 && !(result.failed > 0))) {
    console.error(`${name} exited with ${exit ?? "a signal"} without reporting a failed test: counted as 1 failed.`);
    counts.failed += 1;
  }
}

const v = readJson(vitestJson);
add(
  "vitest",
  vitestExit,
  v && {
    passed: v.numPassedTests,
    // A test file that fails to load has no failed test in it, but is a failure.
    failed:
      v.numFailedTests +
      v.testResults.filter((f) => f.status === "failed" && !f.assertionResults.some((t) => t.status === "failed"))
        .length,
    skipped: v.numPendingTests + v.numTodoTests,
  },
);

const p = readJson(playwrightJson);
add(
  "playwright",
  playwrightExit,
  p && {
    passed: p.stats.expected + p.stats.flaky,
    failed: p.stats.unexpected,
    skipped: p.stats.skipped,
  },
);

rmSync(tmp, { recursive: true, force: true });

if (counts.passed + counts.failed === 0) console.error("No test ran at all: that is a failure.");
console.log(
  `${counts.passed} passed, ${counts.failed} failed` + (counts.skipped > 0 ? `, ${counts.skipped} skipped` : ""),
);
process.exit(counts.failed > 0 || counts.passed === 0 ? 1 : 0);
