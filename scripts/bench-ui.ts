// `npm run bench:ui`: seeds 10,000 shoots into a throwaway embedded PostgreSQL, serves the
// production build as `npm start` does, and measures in Debian's Chromium (Playwright):
//   - the fleet page: from navigation start until its first row is painted (Element Timing);
//   - a cluster's lifecycle page: until it is interactive: hydrated, with its panels committed
//     (a performance mark the page sets then).
// Each page is loaded in a fresh browser context (no HTTP cache), once to warm the server, then
// `--runs` times; prints median and worst, and Chromium's navigation timings.
// Goals (issue 6): fleet first rows < 1 s, lifecycle page interactive < 500 ms.
import { parseArgs } from "node:util";
import type { Page } from "@playwright/test";
import { ADMIN_HEADERS } from "../tests/support/api-client.ts";
import { startAlmanac } from "../tests/support/app-server.ts";
import { benchLandscape } from "./bench-landscape.ts";
import { launchChromium, measure, type Sample } from "./bench-browser.ts";
import { ensureBuild } from "./next-build.mjs";

const { values } = parseArgs({
  options: {
    shoots: { type: "string", default: "10000" },
    runs: { type: "string", default: "7" },
  },
});
const shoots = Number(values.shoots);
const runs = Number(values.runs);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (ms: number) => `${ms.toFixed(0)} ms`;

ensureBuild();
const landscape = await benchLandscape("bench_ui", shoots);

let exitCode = 0;
const cleanups: (() => Promise<unknown>)[] = [];
try {
  const app = await startAlmanac({ DATABASE_URL: landscape.url });
  cleanups.push(() => app.stop());
  const browser = await launchChromium();
  cleanups.push(() => browser.close());

  const sample = await (
    await fetch(`${app.baseUrl}/api/v1/shoots?sort=-expiry&limit=1`, { headers: ADMIN_HEADERS })
  ).json();
  const one = sample.items[0] as { namespace: string; name: string };
  const targets = [
    {
      name: "fleet page /shoots: first rows shown",
      goal: 1000,
      url: `${app.baseUrl}/shoots`,
      ready: (page: Page) => page.locator("[data-shoot]").first().waitFor({ state: "visible", timeout: 30_000 }),
      marker: { element: "almanac:first-row" },
    },
    {
      name: "fleet page, filtered (expiring within 30 days)",
      goal: 1000,
      url: `${app.baseUrl}/shoots?expiringWithinDays=30`,
      ready: (page: Page) => page.locator("[data-shoot]").first().waitFor({ state: "visible", timeout: 30_000 }),
      marker: { element: "almanac:first-row" },
    },
    {
      name: `lifecycle page /shoots/${one.namespace}/${one.name}: interactive`,
      goal: 500,
      url: `${app.baseUrl}/shoots/${one.namespace}/${one.name}`,
      ready: (page: Page) => page.locator("[data-lifecycle-ready]").waitFor({ state: "attached", timeout: 30_000 }),
      marker: { mark: "almanac:lifecycle-ready" },
    },
  ];
  console.log(`\n${shoots} shoots; each page ${runs} times in a fresh browser context after one warm-up load\n`);
  console.log(
    "page".padEnd(66) +
      "median".padStart(10) +
      "worst".padStart(10) +
      "TTFB".padStart(9) +
      "FCP".padStart(9) +
      "DCL".padStart(9) +
      "goal".padStart(14),
  );
  for (const target of targets) {
    await measure(browser, target.url, target.ready, target.marker, ADMIN_HEADERS);
    const samples: Sample[] = [];
    for (let i = 0; i < runs; i++)
      samples.push(await measure(browser, target.url, target.ready, target.marker, ADMIN_HEADERS));
    const ready = samples.map((s) => s.ready);
    const m = median(ready);
    const met = m < target.goal;
    if (!met) exitCode = 1;
    console.log(
      target.name.padEnd(66) +
        fmt(m).padStart(10) +
        fmt(Math.max(...ready)).padStart(10) +
        fmt(median(samples.map((s) => s.ttfb))).padStart(9) +
        fmt(median(samples.map((s) => s.fcp))).padStart(9) +
        fmt(median(samples.map((s) => s.domContentLoaded))).padStart(9) +
        `< ${target.goal} ${met ? "met" : "NOT met"}`.padStart(14),
    );
  }
} finally {
  for (const c of cleanups.reverse()) await c().catch(() => {});
  await landscape.drop();
}
process.exit(exitCode);
