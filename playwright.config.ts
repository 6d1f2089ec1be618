import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";
import { DEBIAN_CHROMIUM } from "./e2e/support/chromium-launch";

// Port of the production server the journeys run against (not 3000, so a running dev server
// does not get in the way).
const port = Number(process.env.E2E_PORT ?? 3100);
const baseURL = `http://127.0.0.1:${port}`;

// Every run starts on a fresh database (the demo landscape, seeded at first start), in a data
// folder of its own. The simulated gardenlet runs fast and without random faults, so that a
// journey that waits for a reconcile or a migration waits seconds, and always sees the same.
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(path.join(os.tmpdir(), "almanac-e2e-"));
// The spec files read the data folder (the first-admin link lands there); they run in worker
// processes that load this file again, so it is passed on once chosen.
process.env.E2E_DATA_DIR = dataDir;

// The journeys act as an admin by sending ALMANAC_ADMIN_TOKEN with every request (pages, API,
// event stream); the sign-in journeys clear it to be anonymous.
export const E2E_ADMIN_TOKEN = "e2e-admin-token-for-almanac-journeys";

// Debian's Chromium (e2e/support/chromium-launch.ts).
const chromium = { ...devices["Desktop Chrome"], launchOptions: DEBIAN_CHROMIUM };

// The journeys that may run beside any other (playwright.config's projects).
const SIDE_BY_SIDE = [
  "accessibility.spec.ts",
  "api-reference.spec.ts",
  "live-garden.spec.ts",
  "namespaced-cloud-profiles.spec.ts",
  "nodes-panel.spec.ts",
  "responsive.spec.ts",
  "security-headers.spec.ts",
];

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results",
  forbidOnly: !!process.env.CI,
  // Two journeys at a time (see the projects below for which may run beside which); on this
  // landscape of 64 shoots the server and two browsers share CI's two cores well enough.
  workers: 2,
  use: {
    baseURL,
    extraHTTPHeaders: { authorization: `Bearer ${E2E_ADMIN_TOKEN}` },
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
  },
  projects: [
    {
      // Journeys that only read and compare nothing another journey changes, two at a time
      // beside the others: every page's accessibility in two themes, phones, the security
      // headers, the API reference, and the live garden (its own server and landscape).
      name: "reads",
      testMatch: SIDE_BY_SIDE,
      use: chromium,
    },
    {
      // The journeys that change the shared landscape or compare the fleet with the API, one at a
      // time in file order as before (each names the shoots it changes; sign-in needs the first
      // account, which accounts.spec.ts makes and deletes). At most one of them runs beside one
      // of the readers above.
      name: "in order",
      testIgnore: SIDE_BY_SIDE,
      workers: 1,
      use: chromium,
    },
  ],
  webServer: {
    // The production build (start.mjs builds it first if missing), on the same Node as we run.
    command: `${JSON.stringify(process.execPath)} scripts/start.mjs`,
    url: `${baseURL}/healthz`,
    env: {
      PORT: String(port),
      NEXT_TELEMETRY_DISABLED: "1",
      ALMANAC_DATA_DIR: dataDir,
      ALMANAC_ADMIN_TOKEN: E2E_ADMIN_TOKEN,
      ALMANAC_FAULT_RATE: "0",
      ALMANAC_RECONCILE_STEP_MS: "150",
      // A pool rolls node by node, one tick each step of the way (docs/architecture.md "Worker nodes").
      ALMANAC_NODE_ROLL_STEP_MS: "200",
      ALMANAC_MIGRATION_STEP_MS: "250",
      ALMANAC_MIGRATION_FAULT_RATE: "0",
      ALMANAC_POLL_SECONDS: "0.5",
      // The browser on this machine plays a trusted proxy's client (e2e/sign-in.spec.ts); the other
      // journeys send the admin token, which wins over the proxy's header.
      ALMANAC_TRUSTED_PROXY_ADDRESSES: "127.0.0.1/32, ::1",
      ALMANAC_GROUP_ROLES: "e2e-viewers=viewer",
      // The shoot page links each cluster there (e2e/export.spec.ts).
      ALMANAC_DASHBOARD_URL: "https://dashboard.garden.example.com",
      // e2e/notifications.spec.ts's webhook receiver listens on loopback, which is refused otherwise.
      ALMANAC_WEBHOOK_ALLOW_PRIVATE: "true",
    },
    reuseExistingServer: !process.env.CI,
    timeout: 180_000,
    stdout: "ignore",
    stderr: "pipe",
  },
});
