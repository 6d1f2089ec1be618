import { describe, expect, it } from "vitest";
import { digestMail, escapeHtml, eventLink, eventMail, eventsByKind, type MailEvent } from "./notification-text.ts";

const forced: MailEvent = {
  kind: "forced-update",
  summary:
    "garden-dev/api-eu: Gardener will force-update Kubernetes 1.31.4 → 1.32.9 on 2026-12-01 03:00 UTC (in 7 days): 1.31.4 expires",
  occurredAt: new Date("2026-11-24T03:00:00Z"),
  projects: ["dev"],
  shoot: { namespace: "garden-dev", name: "api-eu" },
  days: 7,
  data: { from: "1.31.4", to: "1.32.9", at: "2026-12-01T03:00:00.000Z", workers: ["pool-a", "pool-b"] },
};

function event(kind: string, n: number, extra: Partial<MailEvent> = {}): MailEvent {
  return {
    kind,
    summary: `${kind} number ${n}`,
    occurredAt: new Date(Date.UTC(2026, 10, 28, 0, n)),
    projects: ["dev"],
    shoot: { namespace: "garden-dev", name: `s${n}` },
    data: {},
    ...extra,
  };
}

describe("eventMail", () => {
  it("takes the summary as subject and lists the facts in both bodies", () => {
    const mail = eventMail(forced, { publicUrl: "https://almanac.example.com/" });
    expect(mail.subject).toBe(`[Almanac] ${forced.summary}`);
    expect(mail.text).toContain(forced.summary);
    expect(mail.text).toContain("Kind: Forced update");
    expect(mail.text).toContain("When: 2026-11-24 03:00 UTC");
    expect(mail.text).toContain("Shoot: garden-dev/api-eu");
    expect(mail.text).toContain("Project: dev");
    expect(mail.text).toContain("Within: 7 days");
    expect(mail.text).toContain("from: 1.31.4");
    expect(mail.text).toContain("workers: pool-a, pool-b");
    expect(mail.text).toContain("Open in Almanac: https://almanac.example.com/shoots/garden-dev/api-eu");
    expect(mail.text).toContain("Manage subscriptions: https://almanac.example.com/notifications");
    expect(mail.html).toContain('<a href="https://almanac.example.com/shoots/garden-dev/api-eu">Open in Almanac</a>');
    expect(mail.html).toContain('<th align="left" style="padding-right:1em">to</th><td>1.32.9</td>');
  });

  it("has no link without a public URL", () => {
    const mail = eventMail(forced);
    expect(mail.text).not.toContain("http");
    expect(mail.html).not.toContain("<a ");
  });

  it("escapes what came from the garden in the HTML and keeps the subject on one line", () => {
    const hostile = event("maintenance-failed", 1, {
      summary: 'garden-x/<script>alert("x")</script>\r\nBcc: victim@example.com',
      shoot: { namespace: "garden-x", name: "a&b" },
      data: { reason: "<img src=x onerror=alert(1)>" },
    });
    const mail = eventMail(hostile, { publicUrl: "https://a.example" });
    expect(mail.html).not.toContain("<script>");
    expect(mail.html).not.toContain("<img");
    expect(mail.html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
    expect(mail.html).toContain("&lt;img src=x onerror=alert(1)&gt;");
    expect(mail.html).toContain('href="https://a.example/shoots/garden-x/a%26b"');
    expect(mail.subject).not.toMatch(/[\r\n]/);
    expect(mail.subject).toContain("Bcc: victim@example.com");
  });

  it("shortens a very long subject", () => {
    const mail = eventMail(event("stuck", 1, { summary: "x".repeat(1000) }));
    expect(mail.subject.length).toBe(200);
    expect(mail.subject.endsWith("…")).toBe(true);
  });
});

describe("eventLink", () => {
  it("links an update run's events to the run, a shoot's to the shoot, forecast kinds without a shoot to the forecast", () => {
    const url = "https://a.example";
    expect(eventLink(event("update-run-paused", 1, { shoot: null, data: { runId: "r 1" } }), url)).toBe(
      "https://a.example/update-runs/r%201",
    );
    expect(eventLink(event("shoot-unhealthy", 1), url)).toBe("https://a.example/shoots/garden-dev/s1");
    expect(eventLink(event("version-expiring", 1, { shoot: null }), url)).toBe("https://a.example/forecast");
    expect(eventLink(event("test", 1, { shoot: null }), url)).toBeUndefined();
    expect(eventLink(event("shoot-unhealthy", 1), undefined)).toBeUndefined();
  });
});

describe("escapeHtml", () => {
  it("escapes the five characters that matter", () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe("&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
  });
});

describe("digestMail", () => {
  const events = [
    ...Array.from({ length: 25 }, (_, i) => event("forced-update", 25 - i)),
    event("shoot-unhealthy", 3),
    event("shoot-unhealthy", 2),
    event("maintenance-failed", 1),
  ];

  it("groups by kind in a fixed order with counts, the first N of each and how many more", () => {
    const mail = digestMail(events, { perKind: 20, day: "2026-11-28", publicUrl: "https://a.example" });
    expect(mail.subject).toBe("[Almanac] Daily digest for 2026-11-28: 28 notifications");
    expect(mail.text).toContain("25 forced updates, 1 maintenance failed, 2 shoots unhealthy");
    const forcedAt = mail.text.indexOf("Forced updates (25)");
    const maintenanceAt = mail.text.indexOf("Maintenance failed (1)");
    const unhealthyAt = mail.text.indexOf("Shoots unhealthy (2)");
    expect(forcedAt).toBeGreaterThan(-1);
    expect(maintenanceAt).toBeGreaterThan(forcedAt);
    expect(unhealthyAt).toBeGreaterThan(maintenanceAt);
    // The first 20 by time (1..20), not 21..25.
    expect(mail.text).toContain("- forced-update number 1\n  https://a.example/shoots/garden-dev/s1");
    expect(mail.text).toContain("- forced-update number 20\n");
    expect(mail.text).not.toContain("forced-update number 21");
    expect(mail.text).toContain("  and 5 more");
    expect(mail.html).toContain("<li>and 5 more</li>");
    expect(mail.text.indexOf("shoot-unhealthy number 2")).toBeLessThan(mail.text.indexOf("shoot-unhealthy number 3"));
    expect(mail.html).toContain("<h3>Forced updates (25)</h3>");
  });

  it("says one notification in the singular and escapes summaries", () => {
    const mail = digestMail([event("test", 1, { summary: "<b>hi</b>" })]);
    expect(mail.subject).toBe("[Almanac] Daily digest: 1 notification");
    expect(mail.text).toContain("1 test");
    expect(mail.html).toContain("<li>&lt;b&gt;hi&lt;/b&gt;</li>");
  });
});

describe("eventsByKind", () => {
  it("puts unknown kinds after the known ones, by name", () => {
    const kinds = eventsByKind([event("zeta", 1), event("alpha", 1), event("stuck", 1)]).map(([kind]) => kind);
    expect(kinds).toEqual(["stuck", "alpha", "zeta"]);
  });
});
