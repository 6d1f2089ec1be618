// The configuration read from an environment: each kind of value with its range, the defaults,
// the rules between settings, and messages that name the variable, show its value (never a
// secret's) and say what is expected. Tests build an environment of their own: none reads
// process.env.
import { describe, expect, it } from "vitest";
import { ALL_SETTINGS, ConfigError, loadConfig, parseSetting } from "./load-config.ts";
import { SETTINGS } from "./settings.ts";

/** The one message loading `env` fails with. */
function refusal(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error(`${JSON.stringify(env)} was accepted`);
}

describe("the defaults", () => {
  it("are what the settings declare when nothing is set", () => {
    const config = loadConfig({});
    expect(config.server).toMatchObject({ port: 3000, dbTimeoutMs: 5000, answerCache: true, publicUrl: undefined });
    expect(config.server.webWorkers).toBeGreaterThanOrEqual(1);
    expect(config.server.webWorkers).toBeLessThanOrEqual(4);
    expect(config.data.dataDir).toMatch(/\.almanac$/);
    expect(config.garden).toMatchObject({ leaseMs: 15_000, kubeconfig: undefined, mode: undefined });
    expect(config.signIn).toMatchObject({
      adminToken: undefined,
      sessionMaxMs: 12 * 3_600_000,
      groupRoles: [],
      oidcScopes: ["openid", "email", "profile"],
      trustedProxyAddresses: [],
      trustedProxyUserHeader: "x-remote-user",
    });
    expect(config.observability).toEqual({ logLevel: "info", logFormat: undefined, metricsAllow: [] });
    expect(config.jobs).toEqual({
      jobExpireSeconds: 60,
      pollSeconds: 1,
      forecastRefreshEveryMs: 300_000,
      forecastRefreshBatch: 1000,
      updateRunGateGraceSeconds: 1800,
      updateRunActingSeconds: 600,
      notifySweepEveryMs: 60_000,
    });
    expect(config.simulation).toMatchObject({ gardenlet: true, faultRate: 0.05, migrationRetryMs: 12 * 3_600_000 });
  });

  it("apply to a blank value as to an unset one", () => {
    expect(loadConfig({ PORT: "  ", ALMANAC_LOG_LEVEL: "", ALMANAC_ADMIN_TOKEN: "" })).toMatchObject({
      server: { port: 3000 },
      observability: { logLevel: "info" },
      signIn: { adminToken: undefined },
    });
  });

  it("each parse as their own setting's value (a default is written as the variable would be)", () => {
    for (const setting of ALL_SETTINGS) expect(() => parseSetting(setting, undefined), setting.env).not.toThrow();
  });
});

describe("numbers", () => {
  it("take whole numbers in their range, refusing the rest with the variable, its value and the range", () => {
    expect(loadConfig({ PORT: "8080", ALMANAC_WEB_WORKERS: " 2 " }).server).toMatchObject({
      port: 8080,
      webWorkers: 2,
    });
    expect(refusal({ ALMANAC_WEB_WORKERS: "abc" })).toBe(
      'ALMANAC_WEB_WORKERS is "abc", expected a whole number from 1 to 64.',
    );
    for (const bad of ["0", "-1", "1.5", "2e1", "65"]) expect(refusal({ ALMANAC_WEB_WORKERS: bad })).toContain(bad);
    expect(refusal({ PORT: "65536" })).toBe('PORT is "65536", expected a whole number from 1 to 65535.');
  });

  it("take decimals in their range", () => {
    expect(loadConfig({ ALMANAC_FAULT_RATE: "0.25" }).simulation.faultRate).toBe(0.25);
    // Once clamped to 1 without a word; now a mistake.
    expect(refusal({ ALMANAC_FAULT_RATE: "1.5" })).toBe('ALMANAC_FAULT_RATE is "1.5", expected a number from 0 to 1.');
    expect(refusal({ ALMANAC_POLL_SECONDS: "0.1" })).toBe(
      'ALMANAC_POLL_SECONDS is "0.1", expected a number of seconds at least 0.5.',
    );
  });
});

describe("durations", () => {
  it("are written in the unit their name says and read as milliseconds", () => {
    const config = loadConfig({
      ALMANAC_SESSION_MAX_HOURS: "1.5",
      ALMANAC_GARDEN_LEASE_SECONDS: "2",
      ALMANAC_FORECAST_REFRESH_SECONDS: "60",
      ALMANAC_RECONCILE_STEP_MS: "150",
    });
    expect(config.signIn.sessionMaxMs).toBe(5_400_000);
    expect(config.garden.leaseMs).toBe(2_000);
    expect(config.jobs.forecastRefreshEveryMs).toBe(60_000);
    expect(config.simulation.reconcileStepMs).toBe(150);
  });

  it("refuse a value out of range or with a unit of its own", () => {
    expect(refusal({ ALMANAC_GARDEN_LEASE_SECONDS: "601" })).toBe(
      'ALMANAC_GARDEN_LEASE_SECONDS is "601", expected a number of seconds from 1 to 600.',
    );
    expect(refusal({ ALMANAC_SESSION_MAX_HOURS: "12h" })).toBe(
      'ALMANAC_SESSION_MAX_HOURS is "12h", expected a number of hours from 1 to 720.',
    );
  });
});

describe("switches and choices", () => {
  it("take on and off in their spellings, and refuse anything else", () => {
    expect(loadConfig({ ALMANAC_GARDENLET: "off" }).simulation.gardenlet).toBe(false);
    expect(loadConfig({ ALMANAC_GARDENLET: "FALSE" }).simulation.gardenlet).toBe(false);
    expect(loadConfig({ ALMANAC_ANSWER_CACHE: "on" }).server.answerCache).toBe(true);
    // Once anything but "off" meant on.
    expect(refusal({ ALMANAC_ANSWER_CACHE: "disabled" })).toBe(
      'ALMANAC_ANSWER_CACHE is "disabled", expected "on" or "off".',
    );
  });

  it("take one of their values in any case", () => {
    expect(loadConfig({ ALMANAC_LOG_LEVEL: "DEBUG" }).observability.logLevel).toBe("debug");
    expect(refusal({ ALMANAC_GARDEN: "live" })).toBe(
      'ALMANAC_GARDEN is "live", expected one of "in-cluster", "embedded".',
    );
  });
});

describe("URLs", () => {
  it("take the schemes they allow", () => {
    expect(loadConfig({ ALMANAC_DASHBOARD_URL: "https://dashboard.example.com/" }).server.dashboardUrl).toBe(
      "https://dashboard.example.com/",
    );
    // Once a link silently left out; now a mistake.
    expect(refusal({ ALMANAC_DASHBOARD_URL: "javascript:alert(1)" })).toBe(
      'ALMANAC_DASHBOARD_URL is "javascript:alert(1)" (javascript:// is not allowed here), expected a URL starting with http:// or https://.',
    );
    expect(refusal({ ALMANAC_DASHBOARD_URL: "dashboard.example.com" })).toContain("(not a URL)");
  });

  it("never show a password: a database URL's is hidden", () => {
    expect(loadConfig({ DATABASE_URL: "postgresql://almanac:pw@db:5432/almanac" }).data.databaseUrl).toBe(
      "postgresql://almanac:pw@db:5432/almanac",
    );
    const message = refusal({ DATABASE_URL: "mysql://almanac:hunter22@db/almanac" });
    expect(message).toBe(
      'DATABASE_URL is "mysql://almanac:***@db/almanac" (mysql:// is not allowed here), expected a URL starting with postgres:// or postgresql://.',
    );
  });

  it("never show a password where a URL does not parse (a '/' in it: where it ends cannot be told)", () => {
    const message = refusal({ DATABASE_URL: "postgres://almanac:ab/cd+e=@db/almanac" });
    expect(message).toBe(
      "DATABASE_URL is set (38 characters, not shown: a URL that does not parse may hold a password) (not a URL), expected a URL starting with postgres:// or postgresql://.",
    );
    expect(message).not.toContain("cd+e");
  });
});

describe("secrets", () => {
  it("are shown only as set, with their length", () => {
    const message = refusal({ ALMANAC_ADMIN_TOKEN: "short-secret" });
    expect(message).toBe("ALMANAC_ADMIN_TOKEN is set (12 characters, not shown), expected at least 16 characters.");
    expect(message).not.toContain("short-secret");
  });
});

describe("lists", () => {
  it("of addresses and CIDR ranges read both families and name a wrong entry", () => {
    expect(loadConfig({ ALMANAC_METRICS_ALLOW: "127.0.0.1, 10.0.0.0/8,FD00::/64" }).observability.metricsAllow).toEqual(
      [
        { address: "127.0.0.1", prefix: 32 },
        { address: "10.0.0.0", prefix: 8 },
        { address: "fd00::", prefix: 64 },
      ],
    );
    expect(refusal({ ALMANAC_METRICS_ALLOW: "10.0.0.1, 10" })).toBe(
      'ALMANAC_METRICS_ALLOW is "10.0.0.1, 10" (entry "10": it must be an IP address or a CIDR range such as 10.0.0.0/8 or fd00::/64), expected IP addresses and CIDR ranges (IPv4 or IPv6), comma-separated, such as 10.0.0.0/8, fd00::1 (not /0).',
    );
    expect(refusal({ ALMANAC_TRUSTED_PROXY_ADDRESSES: "::/0" })).toContain(
      "a /0 range would believe every client; list the proxy's addresses",
    );
  });

  it("of group roles read each entry and name a wrong one", () => {
    expect(loadConfig({ ALMANAC_GROUP_ROLES: "ops=operator:dev;\nreaders=viewer" }).signIn.groupRoles).toEqual([
      { group: "ops", role: "operator", scope: "dev" },
      { group: "readers", role: "viewer", scope: "*" },
    ]);
    expect(refusal({ ALMANAC_GROUP_ROLES: "ops=owner" })).toContain(
      '(entry "ops=owner": "owner" is not a role (viewer, operator, admin))',
    );
  });

  it("of words split at spaces and commas", () => {
    expect(
      loadConfig({
        ALMANAC_OIDC_ISSUER: "https://login.example.com",
        ALMANAC_OIDC_CLIENT_ID: "almanac",
        ALMANAC_OIDC_CLIENT_SECRET: "s3cret",
        ALMANAC_PUBLIC_URL: "https://almanac.example.com",
        ALMANAC_OIDC_SCOPES: "openid, email groups",
      }).signIn.oidcScopes,
    ).toEqual(["openid", "email", "groups"]);
  });
});

describe("the rules between settings", () => {
  it("name every setting that breaks one", () => {
    expect(refusal({ ALMANAC_OIDC_ISSUER: "https://login.example.com" }).split("\n")).toEqual([
      "ALMANAC_OIDC_CLIENT_ID is not set: it must be set when ALMANAC_OIDC_ISSUER is.",
      "ALMANAC_OIDC_CLIENT_SECRET is not set: it must be set when ALMANAC_OIDC_ISSUER is.",
      "ALMANAC_PUBLIC_URL is not set: it must be set when ALMANAC_OIDC_ISSUER is.",
    ]);
    expect(refusal({ GARDEN_KUBECONFIG: "/k", ALMANAC_GARDEN: "in-cluster" })).toBe(
      'ALMANAC_GARDEN is "in-cluster": set either GARDEN_KUBECONFIG or ALMANAC_GARDEN, not both.',
    );
    expect(refusal({ GARDEN_CONTEXT: "prod" })).toBe('GARDEN_CONTEXT is "prod": it needs GARDEN_KUBECONFIG.');
  });
});

describe("every wrong setting at once", () => {
  it("is named, one line each", () => {
    const error = (() => {
      try {
        loadConfig({ PORT: "http", ALMANAC_LOG_FORMAT: "xml" });
      } catch (caught) {
        return caught as ConfigError;
      }
    })();
    expect(error?.problems).toEqual([
      'PORT is "http", expected a whole number from 1 to 65535.',
      'ALMANAC_LOG_FORMAT is "xml", expected one of "json", "pretty".',
    ]);
  });
});

describe("the table", () => {
  it("declares each variable once, with a meaning", () => {
    const names = ALL_SETTINGS.map((s) => s.env);
    expect(new Set(names).size).toBe(names.length);
    for (const setting of ALL_SETTINGS) expect(setting.meaning, setting.env).not.toBe("");
    expect(SETTINGS.tests.crashAfterTransitions.audience).toBe("tests");
  });
});
