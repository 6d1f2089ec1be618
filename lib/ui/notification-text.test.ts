import { describe, expect, it } from "vitest";
import {
  attemptOutcome,
  attemptSucceeded,
  channelOfPath,
  daysText,
  deliveryStateMeta,
  generateSecret,
  KIND_META,
  KIND_ORDER,
  kindMeta,
  kindsTakeDays,
  MIN_SECRET_LENGTH,
  parseDays,
  scopeText,
  subscriptionPage,
  targetText,
  urlHost,
} from "./notification-text.ts";

describe("the kinds", () => {
  it("say what each means, and only forced updates and expiring versions take days", () => {
    for (const kind of KIND_ORDER) expect(KIND_META[kind].meaning.length).toBeGreaterThan(20);
    expect(KIND_ORDER.filter((k) => KIND_META[k].days)).toEqual(["forced-update", "version-expiring"]);
    expect(kindsTakeDays(["stuck", "migration-failed"])).toBe(false);
    expect(kindsTakeDays(["stuck", "version-expiring"])).toBe(true);
  });

  it("show a kind they do not know by its name", () => {
    expect(kindMeta("cluster-renamed")).toEqual({ label: "cluster-renamed", meaning: "", days: false });
  });
});

describe("parseDays", () => {
  it("reads numbers of days from 1 to 90, largest first, each once", () => {
    expect(parseDays("7, 1")).toEqual({ days: [7, 1] });
    expect(parseDays(" 1 30;7 7 ")).toEqual({ days: [30, 7, 1] });
    expect(parseDays("90")).toEqual({ days: [90] });
  });

  it("names what it cannot read", () => {
    expect(parseDays("").error).toContain("at least one");
    expect(parseDays("7, 0").error).toBe('"0" is not a number of days from 1 to 90.');
    expect(parseDays("91").error).toContain('"91"');
    expect(parseDays("1.5").error).toContain('"1.5"');
    expect(parseDays("a week").error).toContain('"a"');
  });

  it("says them in words", () => {
    expect(daysText([1, 7])).toBe("7 and 1 days before");
    expect(daysText([30, 7, 1])).toBe("30, 7 and 1 days before");
    expect(daysText([1])).toBe("1 day before");
    expect(daysText([14])).toBe("14 days before");
  });
});

describe("where and what a subscription covers", () => {
  it("names a webhook by its host and an e-mail by its addresses", () => {
    expect(urlHost("https://hooks.slack.com/services/T0/B0/xyz")).toBe("hooks.slack.com");
    expect(urlHost("http://127.0.0.1:8080/hook")).toBe("127.0.0.1:8080");
    expect(urlHost("not a url")).toBe("not a url");
    expect(targetText({ channel: "webhook", url: "https://example.com/a?b" })).toBe("example.com");
    expect(targetText({ channel: "email", to: "ops@example.com, sre@example.com" })).toBe(
      "ops@example.com, sre@example.com",
    );
  });

  it("says the landscape, a project or one cluster", () => {
    expect(scopeText({ project: null, shoot: null })).toBe("Whole landscape");
    expect(scopeText({ project: "dev" })).toBe("Project dev");
    expect(scopeText({ project: "dev", shoot: { namespace: "garden-dev", name: "api" } })).toBe(
      "Cluster garden-dev/api",
    );
  });
});

describe("deliveries and attempts", () => {
  it("read each state with a word and a tone", () => {
    expect(deliveryStateMeta("Delivered")).toMatchObject({ word: "Delivered", tone: "green" });
    expect(deliveryStateMeta("Failed")).toMatchObject({ word: "Failed", tone: "red" });
    expect(deliveryStateMeta("Later")).toMatchObject({ word: "Later", tone: "grey" });
  });

  it("say an attempt's outcome", () => {
    expect(attemptOutcome({ status: 200 })).toBe("HTTP 200");
    expect(attemptOutcome({ status: 503, error: "Service Unavailable" })).toBe("HTTP 503: Service Unavailable");
    expect(attemptOutcome({ error: "timed out after 10 s" })).toBe("timed out after 10 s");
    expect(attemptOutcome({})).toBe("no answer");
    expect(attemptSucceeded({ status: 204 })).toBe(true);
    expect(attemptSucceeded({ status: 302, error: "redirected to https://elsewhere" })).toBe(false);
    expect(attemptSucceeded({ error: "ECONNREFUSED" })).toBe(false);
  });
});

describe("generateSecret", () => {
  it("makes 64 hex characters from 32 random bytes, different each time", () => {
    const a = generateSecret();
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(a.length).toBeGreaterThanOrEqual(MIN_SECRET_LENGTH);
    expect(generateSecret()).not.toBe(a);
    expect(generateSecret((b) => b.fill(0xab))).toBe("ab".repeat(32));
  });
});

describe("the pages' paths", () => {
  it("name each channel as its API collection does, and nothing else", () => {
    expect(subscriptionPage({ channel: "webhook", id: "a1" })).toBe("/notifications/webhooks/a1");
    expect(subscriptionPage({ channel: "email", id: "b2" })).toBe("/notifications/email-subscriptions/b2");
    expect(channelOfPath("webhooks")).toBe("webhook");
    expect(channelOfPath("email-subscriptions")).toBe("email");
    expect(channelOfPath("sms")).toBeUndefined();
  });
});
