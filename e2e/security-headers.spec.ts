// Every page runs under the Content-Security-Policy (a nonce per request for Next's inline
// scripts, no 'unsafe-inline' for scripts) without a single violation, and pages and API
// answers carry the security headers. Only reads.
import { expect, type Page, test } from "@playwright/test";

const FIXED_HEADERS = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "strict-origin-when-cross-origin",
  "x-frame-options": "DENY",
  "permissions-policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
};

function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...sources]) => [name, sources]),
  );
}

/** The security headers, and the policy's nonce (undefined when it has none). */
function expectSecurityHeaders(headers: Record<string, string>): string | undefined {
  for (const [name, value] of Object.entries(FIXED_HEADERS)) expect(headers[name], name).toBe(value);
  expect(headers["x-powered-by"]).toBeUndefined();
  const policy = directives(headers["content-security-policy"] ?? "");
  expect(policy.get("default-src")).toEqual(["'self'"]);
  expect(policy.get("frame-ancestors")).toEqual(["'none'"]);
  expect(policy.get("object-src")).toEqual(["'none'"]);
  const scripts = policy.get("script-src") ?? [];
  expect(scripts).not.toContain("'unsafe-inline'");
  expect(scripts).not.toContain("'unsafe-eval'");
  expect(scripts).toContain("'self'");
  return scripts.find((s) => s.startsWith("'nonce-"))?.slice("'nonce-".length, -1);
}

/**
 * Collects every CSP violation the page reports: Chromium's console message and the
 * securitypolicyviolation event (listened for from before any script of each document runs).
 */
async function watchViolations(page: Page): Promise<string[]> {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (message.text().includes("Content Security Policy")) violations.push(`console: ${message.text()}`);
  });
  await page.exposeFunction("reportCspViolation", (text: string) => violations.push(`event: ${text}`));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => {
      const report = (window as unknown as { reportCspViolation: (t: string) => void }).reportCspViolation;
      report(`${e.effectiveDirective} blocked ${e.blockedURI || "inline"} at ${e.sourceFile}:${e.lineNumber}`);
    });
  });
  return violations;
}

/** The page's scripts ran: React hydrated the document (a blocked inline script stops that). */
async function expectHydrated(page: Page) {
  await expect
    .poll(() =>
      page.evaluate(() => Object.keys(document.querySelector("main") ?? {}).some((k) => k.startsWith("__react"))),
    )
    .toBe(true);
}

test("every page loads under the Content-Security-Policy without a violation", async ({ page, request }) => {
  // Eight pages, each hydrated, then five moves in the browser: more than the default 30 s when
  // the machine is busy.
  test.setTimeout(90_000);
  const violations = await watchViolations(page);
  const shoot = (await (await request.get("/api/v1/shoots?limit=1")).json()).items[0] as {
    namespace: string;
    name: string;
  };
  const profile = (await (await request.get("/api/v1/cloudprofiles")).json()).items[0].metadata.name as string;

  const pages: { path: string; heading: string; ready?: (page: Page) => Promise<void> }[] = [
    { path: "/shoots", heading: "Fleet" },
    { path: `/shoots/${shoot.namespace}/${shoot.name}`, heading: shoot.name },
    { path: "/cloudprofiles", heading: "Cloud profiles" },
    {
      path: `/cloudprofiles/${profile}`,
      heading: profile,
      // The chart code (Recharts) loads after the page is interactive.
      ready: (p) => expect(p.getByRole("region", { name: "Kubernetes versions over time" })).toBeVisible(),
    },
    { path: "/forecast", heading: "Forecast" },
    { path: "/audit", heading: "Audit log" },
    { path: "/migrations", heading: "Migrations" },
    { path: "/api-reference", heading: "API reference" },
  ];
  const nonces = new Set<string>();
  for (const p of pages) {
    const response = await page.goto(p.path);
    expect(response?.status(), p.path).toBe(200);
    const nonce = expectSecurityHeaders(response!.headers());
    expect(nonce, `${p.path} has a nonce`).toBeTruthy();
    nonces.add(nonce!);
    await expect(page.getByRole("heading", { level: 1, name: p.heading })).toBeVisible();
    await expectHydrated(page);
    await p.ready?.(page);
    // Next's inline scripts carry the response's nonce (the browser hides it from the DOM
    // attribute, not from the property).
    const scriptNonces = await page.evaluate(() => [...document.scripts].filter((s) => !s.src).map((s) => s.nonce));
    expect(scriptNonces.length).toBeGreaterThan(0);
    expect(new Set(scriptNonces)).toEqual(new Set([nonce]));
  }
  // A nonce is made per request.
  expect(nonces.size).toBe(pages.length);

  // Moving between pages in the browser (chunks and server components fetched as it goes).
  for (const link of ["Forecast", "Cloud profiles", "Migrations", "Audit log", "Fleet"]) {
    await page.getByRole("navigation").getByRole("link", { name: link, exact: true }).click();
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  }
  await page.waitForTimeout(500); // a late chunk or style would report by now
  expect(violations).toEqual([]);
});

test("API answers carry the security headers", async ({ request }) => {
  for (const path of ["/api/v1/shoots?limit=1", "/api/v1/forecast?days=7", "/api/v1/nope"]) {
    const response = await request.get(path);
    expect(response.status(), path).toBe(path.endsWith("nope") ? 404 : 200);
    expectSecurityHeaders(response.headers());
  }
  const ready = await request.get("/readyz");
  expectSecurityHeaders(ready.headers());
});
