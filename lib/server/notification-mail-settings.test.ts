// The SMTP settings as operators write them, checked at start, and as the channel takes them.
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../config/load-config.ts";
import { EMAIL_NOT_CONFIGURED, emailNotConfigured, mailSettings } from "./notification-mail-settings.ts";

function refusal(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error(`${JSON.stringify(env)} was accepted`);
}

describe("the SMTP settings", () => {
  it("need nothing: no server, the digest at 07:00 UTC", () => {
    expect(mailSettings(loadConfig({}))).toEqual({ digestTime: "07:00", digestZone: "UTC" });
  });

  it("take a URL as nodemailer does, with the sender and the public URL", () => {
    const env = {
      ALMANAC_SMTP_URL: "smtps://almanac:s3cret@mail.example.com:465",
      ALMANAC_SMTP_FROM: "Almanac <almanac@example.com>",
      ALMANAC_PUBLIC_URL: "https://almanac.example.com",
      ALMANAC_NOTIFY_DIGEST_TIME: "08:30",
      ALMANAC_NOTIFY_DIGEST_ZONE: "Europe/Berlin",
    };
    expect(mailSettings(loadConfig(env))).toEqual({
      smtp: { url: "smtps://almanac:s3cret@mail.example.com:465" },
      from: "Almanac <almanac@example.com>",
      publicUrl: "https://almanac.example.com",
      digestTime: "08:30",
      digestZone: "Europe/Berlin",
    });
  });

  it("take a host with its parts: 587 with STARTTLS, or 465 with TLS", () => {
    const from = { ALMANAC_SMTP_FROM: "almanac@example.com" };
    expect(mailSettings(loadConfig({ ...from, ALMANAC_SMTP_HOST: "mail" })).smtp).toEqual({
      host: "mail",
      port: 587,
      secure: false,
    });
    expect(mailSettings(loadConfig({ ...from, ALMANAC_SMTP_HOST: "mail", ALMANAC_SMTP_SECURE: "on" })).smtp).toEqual({
      host: "mail",
      port: 465,
      secure: true,
    });
    const env = { ...from, ALMANAC_SMTP_HOST: "mail", ALMANAC_SMTP_PORT: "465", ALMANAC_SMTP_USER: "u" };
    expect(mailSettings(loadConfig({ ...env, ALMANAC_SMTP_PASSWORD: "p" })).smtp).toEqual({
      host: "mail",
      port: 465,
      secure: true,
      auth: { user: "u", pass: "p" },
    });
  });

  it("refuse a server without a sender, naming ALMANAC_SMTP_FROM", () => {
    expect(refusal({ ALMANAC_SMTP_URL: "smtp://mail.example.com" })).toBe(
      "ALMANAC_SMTP_FROM is not set: it must be set when ALMANAC_SMTP_URL is.",
    );
    expect(refusal({ ALMANAC_SMTP_HOST: "mail" })).toBe(
      "ALMANAC_SMTP_FROM is not set: it must be set when ALMANAC_SMTP_HOST is.",
    );
  });

  it("refuse what cannot work, without showing the password", () => {
    const from = { ALMANAC_SMTP_FROM: "almanac@example.com" };
    expect(refusal({ ...from, ALMANAC_SMTP_URL: "https://u:pw@mail" })).toBe(
      'ALMANAC_SMTP_URL is "https://u:***@mail" (https:// is not allowed here), expected a URL starting with smtp:// or smtps://.',
    );
    expect(refusal({ ...from, ALMANAC_SMTP_URL: "smtp://mail", ALMANAC_SMTP_HOST: "mail" })).toBe(
      'ALMANAC_SMTP_HOST is "mail": set either ALMANAC_SMTP_URL or ALMANAC_SMTP_HOST, not both.',
    );
    expect(refusal({ ...from, ALMANAC_SMTP_PORT: "25" })).toBe(
      'ALMANAC_SMTP_PORT is "25": it needs ALMANAC_SMTP_HOST.',
    );
    expect(refusal({ ...from, ALMANAC_SMTP_HOST: "mail", ALMANAC_SMTP_USER: "u" })).toBe(
      "ALMANAC_SMTP_PASSWORD is not set: it must be set when ALMANAC_SMTP_USER is.",
    );
    expect(refusal({ ...from, ALMANAC_SMTP_HOST: "mail", ALMANAC_SMTP_PASSWORD: "pw" })).toBe(
      "ALMANAC_SMTP_USER is not set: it must be set when ALMANAC_SMTP_PASSWORD is.",
    );
    expect(refusal({ ALMANAC_SMTP_HOST: "mail", ALMANAC_SMTP_FROM: "nobody" })).toContain(
      'ALMANAC_SMTP_FROM is "nobody", expected an e-mail address',
    );
  });

  it("refuse a digest time or zone that is not one", () => {
    expect(refusal({ ALMANAC_NOTIFY_DIGEST_TIME: "7:00" })).toBe(
      'ALMANAC_NOTIFY_DIGEST_TIME is "7:00", expected a time of day HH:MM (24-hour).',
    );
    expect(refusal({ ALMANAC_NOTIFY_DIGEST_ZONE: "Mars/Olympus_Mons" })).toBe(
      'ALMANAC_NOTIFY_DIGEST_ZONE is "Mars/Olympus_Mons" (not a time zone this runtime knows), expected an IANA time zone, such as UTC or Europe/Berlin.',
    );
  });

  it("say when e-mail cannot go out, for the API's answer", () => {
    expect(emailNotConfigured(loadConfig({}))).toBe(EMAIL_NOT_CONFIGURED);
    expect(EMAIL_NOT_CONFIGURED).toBe("e-mail is not configured (ALMANAC_SMTP_URL)");
    const env = { ALMANAC_SMTP_HOST: "mail", ALMANAC_SMTP_FROM: "almanac@example.com" };
    expect(emailNotConfigured(loadConfig(env))).toBeUndefined();
  });
});
