// `npm test`: every tier (docs/testing.md) — the build, the static checks (types, lint, format),
// unit tests, integration tests (with the fault tier last) and browser journeys (Playwright in
// Debian's Chromium) — then the ten slowest test files, how long each phase took, and one summary
// line for CI, which reads `N passed, N failed[, N skipped]` from the very last line.
//
// `node scripts/test.mjs <tier>...` runs only those tiers (checks, unit, integration, e2e), with
// the same report and last line: `npm run test:unit`, `test:integration`, `test:e2e`, `test:checks`.
//
// The runners' JSON reports stay in test-reports/ (git-ignored; Playwright empties test-results/
// at each start), to see each file's time after the run.
import { spawn } from "node:child_process";
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { requireNode24, root } from "./next-build.mjs";

requireNode24();
const require = createRequire(import.meta.url);

// Every Node process the tests start (the CLI, workers, `npm start`, its web processes: a few
// hundred) compiles the same TypeScript sources again; Node's compile cache keeps the result
// (keyed by each file's content and Node's version, so a changed file is compiled afresh).
process.env.NODE_COMPILE_CACHE ??= path.join(os.tmpdir(), "almanac-node-compile-cache");

const TIERS = ["checks", "unit", "integration", "e2e"];
const asked = process.argv.slice(2);
const unknown = asked.filter((t) => !TIERS.includes(t));
if (unknown.length > 0) {
  console.error(`Unknown tier ${unknown.join(", ")}; the tiers are ${TIERS.join(", ")}.`);
  console.log("0 passed, 1 failed");
  process.exit(1);
}
const tiers = new Set(asked.length > 0 ? asked : TIERS);
const needsBuild = tiers.has("integration") || tiers.has("e2e");

// This run's reports replace those of the same tiers only (one tier's command keeps the others').
const REPORTS = path.join(root, "test-reports");
mkdirSync(REPORTS, { recursive: true });
const report = (name) => path.join(REPORTS, name);
const REPORTS_OF = {
  checks: ["tsc.log", "eslint.log", "prettier.log"],
  unit: ["vitest-unit.json"],
  integration: ["vitest-integration.json"],
  e2e: ["playwright.json"],
};
for (const tier of tiers) for (const name of REPORTS_OF[tier]) rmSync(report(name), { force: true });

/** Runs a command; its output goes to the terminal, or to `logFile` (for one that runs beside others). */
function run(cmd, args, { env = {}, logFile } = {}) {
  const fd = logFile ? openSync(logFile, "w") : undefined;
  const child = spawn(cmd, args, {
    cwd: root,
    stdio: fd === undefined ? "inherit" : ["ignore", fd, fd],
    env: { ...process.env, ...env },
  });
  return new Promise((resolve) => {
    child.on("error", (error) => {
      console.error(`${cmd} did not start: ${error.message}`);
      resolve(1);
    });
    child.on("close", (code) => {
      if (fd !== undefined) closeSync(fd);
      resolve(code);
    });
  });
}

// A package's CLI entry, found through its package.json "bin" (subpaths are not all exported);
// "bin" is a map of names, or a single path for a package with one command.
function binOf(pkg, name) {
  const manifest = require.resolve(`${pkg}/package.json`);
  const { bin } = JSON.parse(readFileSync(manifest, "utf8"));
  return path.join(path.dirname(manifest), typeof bin === "string" ? bin : bin[name]);
}
const readJson = (file) => (existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : null);

// How long each phase took, in the order they ran.
const phases = [];
async function phase(name, work) {
  const started = performance.now();
  try {
    return await work();
  } finally {
    phases.push({ name, seconds: (performance.now() - started) / 1000 });
  }
}

const counts = { passed: 0, failed: 0, skipped: 0 };
/** Each test file's time, from the runners' reports: { tier, file, seconds }. */
const fileTimes = [];

function finish() {
  const slowest = fileTimes.sort((a, b) => b.seconds - a.seconds).slice(0, 10);
  if (slowest.length > 0) {
    console.log("\nThe ten slowest test files (full reports in test-reports/):");
    for (const f of slowest) console.log(`  ${f.seconds.toFixed(1).padStart(7)} s  ${f.tier.padEnd(11)} ${f.file}`);
  }
  if (phases.length > 0) {
    console.log("\nPhases (wall clock; the static checks run beside the build and the unit tests):");
    for (const p of phases) console.log(`  ${p.seconds.toFixed(1).padStart(7)} s  ${p.name}`);
  }
  if (counts.passed + counts.failed === 0) console.error("No test ran at all: that is a failure.");
  console.log(
    `${counts.passed} passed, ${counts.failed} failed` + (counts.skipped > 0 ? `, ${counts.skipped} skipped` : ""),
  );
  process.exit(counts.failed > 0 || counts.passed === 0 ? 1 : 0);
}

// A runner that exits non-zero without reporting a failing test crashed (config error, a test
// file that does not load, the web server not starting): count that as a failure.
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

// (a) Playwright drives Debian's Chromium, because these machines cannot fetch Playwright's
// own browser build. A new machine does not have it, so install it here.
const CHROMIUM = "/usr/bin/chromium";
if (tiers.has("e2e") && !existsSync(CHROMIUM)) {
  const install = "apt-get update && apt-get install -y chromium";
  if (process.getuid?.() !== 0) {
    console.error(`${CHROMIUM} is missing. Install it, then run the tests again:\n  sudo sh -c '${install}'`);
    console.log("0 passed, 1 failed");
    process.exit(1);
  }
  console.log(`> ${CHROMIUM} is missing; installing Debian's chromium: ${install}`);
  const env = { DEBIAN_FRONTEND: "noninteractive" };
  if (
    (await run("apt-get", ["update"], { env })) !== 0 ||
    (await run("apt-get", ["install", "-y", "chromium"], { env })) !== 0
  ) {
    console.error(`Installing chromium failed; try by hand: ${install}`);
    console.log("0 passed, 1 failed");
    process.exit(1);
  }
}

// (b) The static checks: types, lint (including the layer rules) and formatting, each counted as
// one test, so a lint error fails the run like a failing test. Lint and format need no build,
// so they start at once and run beside it; the type check waits for the build, since it reads
// the route types Next generates (.next/types), and runs beside the unit tests. Their output
// goes to test-reports/<check>.log and is shown when the check fails.
function check(name, file, args) {
  const log = report(`${file}.log`);
  const started = performance.now();
  return run(process.execPath, args, { logFile: log }).then((exit) => {
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    if (exit === 0) {
      console.log(`  ✓ ${name} (${seconds} s)`);
      counts.passed += 1;
    } else {
      console.log(`  ✗ ${name} failed (${seconds} s):\n${readFileSync(log, "utf8")}`);
      counts.failed += 1;
    }
  });
}
const checksStarted = performance.now();
const checks = [];
const typeCheck = () => check("type check (tsc --noEmit)", "tsc", [binOf("typescript", "tsc"), "--noEmit"]);
if (tiers.has("checks")) {
  console.log("> static checks: lint and format now, the type check after the build");
  checks.push(
    check("lint (eslint .)", "eslint", [binOf("eslint", "eslint"), "--max-warnings", "0", "."]),
    check("format check (prettier --check .)", "prettier", [
      binOf("prettier", "prettier"),
      "--check",
      "--log-level",
      "warn",
      ".",
    ]),
  );
}

// (c) Build first (for the integration tests' servers and the journeys): Playwright's webServer
// timeout then need not cover it, and the type check sees the route types Next generates.
// The type check runs in the tests, not in the build (next.config.js).
if (needsBuild || tiers.has("checks")) {
  // In a child process, so that this one keeps hearing from the checks meanwhile.
  const built = await phase("build (next build, when sources changed)", async () => {
    const exit = await run(process.execPath, [
      "--input-type=module",
      "-e",
      `import { ensureBuild } from "./scripts/next-build.mjs";
       try { ensureBuild(); } catch (error) { console.error(error.message); process.exit(1); }`,
    ]);
    return exit === 0;
  });
  if (!built) {
    // Nothing that needs the app can run without a build: say so in the line CI reads.
    counts.failed += 1;
    await Promise.all(checks);
    finish();
  }
}
if (tiers.has("checks")) checks.push(typeCheck());

// (d) vitest, one tier at a time; each writes its JSON report to test-reports/.
async function vitest(tier, projects) {
  const json = report(`vitest-${tier}.json`);
  const exit = await run(process.execPath, [
    binOf("vitest", "vitest"),
    "run",
    ...projects.flatMap((p) => ["--project", p]),
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=${json}`,
  ]);
  const v = readJson(json);
  add(
    `vitest (${tier})`,
    exit,
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
  for (const f of v?.testResults ?? [])
    fileTimes.push({ tier, file: path.relative(root, f.name), seconds: (f.endTime - f.startTime) / 1000 });
}

if (tiers.has("unit")) await phase("unit tests (lib/**)", () => vitest("unit", ["unit"]));

// The checks finish before the integration tests start: those wait on servers and timeouts,
// which a busy machine would stretch.
if (checks.length > 0) {
  await Promise.all(checks);
  phases.push({
    name: "static checks (beside the build and unit tests)",
    seconds: (performance.now() - checksStarted) / 1000,
  });
}

if (tiers.has("integration"))
  await phase("integration tests (tests/**, faults last)", () => vitest("integration", ["integration", "faults"]));

// (e) The browser journeys.
if (tiers.has("e2e")) {
  await phase("browser journeys (e2e/)", async () => {
    const json = report("playwright.json");
    const exit = await run(
      process.execPath,
      [binOf("@playwright/test", "playwright"), "test", "--reporter=list,json"],
      {
        env: { PLAYWRIGHT_JSON_OUTPUT_FILE: json },
      },
    );
    const p = readJson(json);
    add(
      "playwright",
      exit,
      p && {
        passed: p.stats.expected + p.stats.flaky,
        failed: p.stats.unexpected,
        skipped: p.stats.skipped,
      },
    );
    // A spec file's time: its tests' durations added up (journeys in one file run one after another).
    const perFile = new Map();
    const walk = (suite) => {
      for (const spec of suite.specs ?? [])
        for (const t of spec.tests ?? [])
          for (const r of t.results ?? [])
            perFile.set(spec.file, (perFile.get(spec.file) ?? 0) + (r.duration ?? 0) / 1000);
      for (const s of suite.suites ?? []) walk(s);
    };
    for (const s of p?.suites ?? []) walk(s);
    for (const [file, seconds] of perFile) fileTimes.push({ tier: "e2e", file: path.join("e2e", file), seconds });
  });
}

finish();
