import { defineConfig, devices } from "@playwright/test";

// Port of the production server the journeys run against (not 3000, so a running dev server
// does not get in the way).
const port = Number(process.env.E2E_PORT ?? 3100);
const baseURL = `http://127.0.0.1:${port}`;

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results",
  forbidOnly: !!process.env.CI,
  workers: process.env.CI ? 1 : undefined,
  use: {
    baseURL,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
  },
  projects: [
    {
      name: "chromium",
      use: {
        ...devices["Desktop Chrome"],
        // Debian's Chromium, because these machines cannot fetch Playwright's own browser
        // build. The flags keep it from reaching out to Google's services.
        launchOptions: {
          executablePath: "/usr/bin/chromium",
          args: [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--no-first-run",
            "--disable-sync",
            "--disable-quic",
          ],
        },
      },
    },
  ],
  webServer: {
    // The production build (start.mjs builds it first if missing), on the same Node as we run.
    command: `${JSON.stringify(process.execPath)} scripts/start.mjs`,
    url: `${baseURL}/healthz`,
    env: { PORT: String(port), NEXT_TELEMETRY_DISABLED: "1" },
    reuseExistingServer: !process.env.CI,
    timeout: 180_000,
    stdout: "ignore",
    stderr: "pipe",
  },
});
