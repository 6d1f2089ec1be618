// Three tiers of vitest tests (docs/testing.md), each a project with its own pace:
// - unit: pure tests next to the code (lib/**/*.test.ts): no database, no server, all cores;
// - integration: tests/** on real PostgreSQL, servers and the CLI, two files at a time;
// - faults: tests/faults/** (databases killed, paused or failing, processes crashed), one file at
//   a time after the integration files, so nothing else competes with their timeouts.
// `npm run test:unit`, `npm run test:integration` (both of the last two) or one file with
// `npm exec -- vitest run <file>`.
import os from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";

// The CLI, workers and servers the tests start reuse Node's compiled sources (as in scripts/test.mjs).
process.env.NODE_COMPILE_CACHE ??= path.join(os.tmpdir(), "almanac-node-compile-cache");

// The fault tier, named once: the integration project leaves these out. `npm run dev`'s test runs
// there too: next dev compiles in this checkout with both cores, which would stretch the
// timeouts of the file beside it.
const FAULTS = ["tests/faults/**/*.test.ts", "tests/api/dev-server.test.ts"];

// Integration and fault files: one PostgreSQL server per project, and a template database
// migrated once and cloned per file (tests/support/postgres-setup.ts).
const onPostgres = { globalSetup: ["tests/support/postgres-setup.ts"] };

export default defineConfig({
  // The same "@/*" alias as tsconfig.json.
  resolve: { tsconfigPaths: true },
  test: {
    environment: "node",
    // e2e/ holds Playwright specs, which vitest must not pick up.
    exclude: ["e2e/**", "node_modules/**", ".next/**"],
    // Integration tests start real servers (PostgreSQL, Next.js); the demo landscape's unit
    // tests walk thousands of shoots.
    hookTimeout: 120_000,
    testTimeout: 30_000,
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["lib/**/*.test.ts"],
          // Pure and CPU-bound: a worker per core (vitest's default leaves one core free, which
          // on CI's two is one file at a time).
          maxWorkers: "100%",
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["tests/**/*.test.ts"],
          exclude: ["e2e/**", "node_modules/**", ".next/**", ...FAULTS],
          ...onPostgres,
          // Each file has its own database (and its own servers on free ports), so files do not
          // share state; two at a time fills the waits of one (a server starting, a poll) with
          // the other's work.
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: "faults",
          include: FAULTS,
          ...onPostgres,
          // Alone, after the others: they stop, pause and kill databases and processes and wait
          // for timeouts, which a busy machine would stretch.
          maxWorkers: 1,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
