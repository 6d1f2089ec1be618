// What the browser benchmarks share (bench:ui, bench:scale): Debian's Chromium through
// Playwright, and one page load measured by the page's own clock.
import { chromium, type Browser, type Page } from "@playwright/test";
import { DEBIAN_CHROMIUM } from "../e2e/support/chromium-launch.ts";

export function launchChromium(): Promise<Browser> {
  return chromium.launch(DEBIAN_CHROMIUM);
}

export interface Sample {
  readonly ready: number;
  readonly ttfb: number;
  readonly fcp: number;
  readonly domContentLoaded: number;
}

/**
 * Loads `url` in a fresh context, waits for `ready`, and returns when (ms from navigation start)
 * the page reached it by its own clock: `marker` is either an Element Timing name (when that
 * element was painted) or a performance mark the page sets. Reading the page's own timestamps
 * keeps Playwright's polling out of the figures.
 */
export async function measure(
  browser: Browser,
  url: string,
  ready: (page: Page) => Promise<unknown>,
  marker: { element?: string; mark?: string },
  headers: Record<string, string> = {},
): Promise<Sample> {
  const context = await browser.newContext({ viewport: { width: 1600, height: 1000 }, extraHTTPHeaders: headers });
  const page = await context.newPage();
  try {
    await page.goto(url, { waitUntil: "commit" });
    await ready(page);
    return await page.evaluate(async ({ element, mark }) => {
      const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
      let at: number | undefined;
      if (element) {
        at = await new Promise<number | undefined>((resolve) => {
          const observer = new PerformanceObserver((list) => {
            const entry = list
              .getEntries()
              .find((e) => (e as PerformanceEntry & { identifier: string }).identifier === element) as
              (PerformanceEntry & { renderTime: number }) | undefined;
            if (entry) {
              observer.disconnect();
              resolve(entry.renderTime || entry.startTime);
            }
          });
          observer.observe({ type: "element", buffered: true });
          setTimeout(() => resolve(undefined), 5_000);
        });
      } else if (mark) {
        at = performance.getEntriesByName(mark)[0]?.startTime;
      }
      if (at === undefined) throw new Error(`the page never reported ${element ?? mark}`);
      return {
        ready: at,
        ttfb: nav.responseStart,
        fcp: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? NaN,
        domContentLoaded: nav.domContentLoadedEventEnd,
      };
    }, marker);
  } finally {
    await context.close();
  }
}
