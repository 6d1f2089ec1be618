import { describe, expect, it } from "vitest";
import {
  draftToCreateRequest,
  formAlertText,
  newDraft,
  parseShoot,
  problemsByField,
  settingsToPatch,
  type SettingsDraft,
} from "./notification-form.ts";

describe("draftToCreateRequest", () => {
  it("makes a webhook's body, with the days only for kinds that take them", () => {
    const draft = {
      ...newDraft("webhook"),
      url: " https://hooks.example.com/almanac ",
      secret: "s3cret-s3cret-s3cret",
      kinds: ["forced-update", "stuck"],
      days: "1, 7",
    };
    expect(draftToCreateRequest(draft)).toEqual({
      body: {
        url: "https://hooks.example.com/almanac",
        secret: "s3cret-s3cret-s3cret",
        events: ["forced-update", "stuck"],
        days: [7, 1],
      },
      problems: {},
    });
    expect(draftToCreateRequest({ ...draft, kinds: ["stuck"], days: "nonsense" }).body).not.toHaveProperty("days");
  });

  it("makes an e-mail's body for a project's cluster, with a name and a digest", () => {
    const draft = {
      ...newDraft("email", "dev"),
      to: "ops@example.com",
      digest: "daily" as const,
      name: " On call ",
      shoot: "garden-dev / api",
      kinds: ["shoot-unhealthy"],
    };
    expect(draftToCreateRequest(draft)).toEqual({
      body: {
        to: "ops@example.com",
        digest: "daily",
        events: ["shoot-unhealthy"],
        name: "On call",
        project: "dev",
        shoot: { namespace: "garden-dev", name: "api" },
      },
      problems: {},
    });
  });

  it("names the days and the cluster it cannot read, before asking the server", () => {
    const { problems } = draftToCreateRequest({ ...newDraft(), days: "0", shoot: "api" });
    expect(problems.days).toContain('"0"');
    expect(problems.shoot).toContain("namespace/name");
  });

  it("leaves the kinds to the server (an empty list is its 422)", () => {
    expect(draftToCreateRequest({ ...newDraft(), kinds: [] }).body.events).toEqual([]);
  });
});

describe("parseShoot", () => {
  it("reads namespace/name only", () => {
    expect(parseShoot("garden-dev/api")).toEqual({ namespace: "garden-dev", name: "api" });
    expect(parseShoot("api")).toBeUndefined();
    expect(parseShoot("a/b/c")).toBeUndefined();
  });
});

describe("settingsToPatch", () => {
  const draft: SettingsDraft = {
    name: "Slack",
    enabled: false,
    kinds: ["version-expiring"],
    days: "30 7",
    secret: "",
    url: "https://hooks.example.com/x",
    to: "",
    digest: "each",
  };

  it("keeps the secret unless a new one is typed, and the URL unless a new one is typed", () => {
    expect(settingsToPatch("webhook", draft).body).toEqual({
      name: "Slack",
      enabled: false,
      events: ["version-expiring"],
      days: [30, 7],
      url: "https://hooks.example.com/x",
    });
    // The answer's URL is masked: an empty field never sends it back.
    expect(settingsToPatch("webhook", { ...draft, url: " " }).body).not.toHaveProperty("url");
    expect(settingsToPatch("webhook", { ...draft, secret: "another-secret-123" }).body.secret).toBe(
      "another-secret-123",
    );
  });

  it("sends an e-mail's addresses and digest, not a URL", () => {
    const { body } = settingsToPatch("email", { ...draft, to: "a@example.com", digest: "daily" });
    expect(body).toMatchObject({ to: "a@example.com", digest: "daily" });
    expect(body).not.toHaveProperty("url");
  });
});

describe("problemsByField", () => {
  it("puts each problem beside its field, the first per field, and keeps the others for the summary", () => {
    expect(
      problemsByField({
        "events[1]": "unknown event kind",
        events: "second",
        "shoot.name": "no such cluster",
        url: "a private address",
        "days[0]": "from 1 to 90",
        "": "the body is not JSON",
        color: "unknown field",
      }),
    ).toEqual({
      byField: {
        events: "unknown event kind",
        shoot: "no such cluster",
        url: "a private address",
        days: "from 1 to 90",
      },
      rest: ["the body is not JSON", "color: unknown field"],
    });
  });
});

describe("formAlertText", () => {
  it("asks for another look while a field shows its own problem, whatever the server said", () => {
    expect(formAlertText(2, ["scope: unknown"], "The subscription was refused.")).toBe(
      "Some fields need another look.",
    );
  });

  it("adds the problems no field shows to the server's message", () => {
    expect(formAlertText(0, ["scope: unknown project", "x: bad"], "Refused.")).toBe(
      "Refused. scope: unknown project; x: bad",
    );
  });

  it("is the server's message alone, or nothing, when no problem is left over", () => {
    expect(formAlertText(0, [], "Refused.")).toBe("Refused.");
    expect(formAlertText(0, [], undefined)).toBeUndefined();
  });
});
