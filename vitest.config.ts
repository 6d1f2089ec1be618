import { defineConfig } from "vitest/config";

export default defineConfig({
  // The same "@/*" alias as tsconfig.json.
  resolve: { tsconfigPaths: true },
  test: {
    environment: "node",
    include: ["lib/**/*.test.ts", "tests/**/*.test.ts"],
    // e2e/ holds Playwright specs, which vitest must not pick up.
    exclude: ["e2e/**", "node_modules/**", ".next/**"],
    // One PostgreSQL server for the run; integration tests make a database each.
    globalSetup: ["tests/support/postgres-setup.ts"],
    // Integration tests start real servers (PostgreSQL, Next.js).
    hookTimeout: 120_000,
    testTimeout: 30_000,
  },
});
