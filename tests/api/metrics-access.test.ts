// /metrics by address: the web server in front of Next (scripts/web-worker.mjs) knows the TCP
// peer, so a scraper listed in ALMANAC_METRICS_ALLOW needs no token, while a client that names an
// allowed address in the internal header itself is still an anonymous stranger.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PEER_ADDRESS_HEADER } from "../../lib/auth/peer-address.ts";
import { call } from "../support/api-client.ts";
import { type AppServer, startWebServer } from "../support/app-server.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";

let database: TestDatabase;
let allowingUs: AppServer;
let allowingOthers: AppServer;

beforeAll(async () => {
  database = await createTestDatabase();
  [allowingUs, allowingOthers] = await Promise.all([
    startWebServer(database.url, { ALMANAC_METRICS_ALLOW: "127.0.0.1" }),
    startWebServer(database.url, { ALMANAC_METRICS_ALLOW: "192.0.2.7,10.0.0.0/8" }),
  ]);
}, 120_000);

afterAll(async () => {
  await Promise.all([allowingUs?.stop(), allowingOthers?.stop()]);
  await database?.drop();
});

describe("/metrics from an allowed address", () => {
  it("answers a listed peer without credentials", async () => {
    // A request that reads the database opens the process's pool, which the scrape then reports.
    expect((await call(allowingUs.baseUrl, "/api/v1/seeds")).status).toBe(200);
    const scraped = await call(allowingUs.baseUrl, "/metrics", { anonymous: true });
    expect(scraped.status).toBe(200);
    expect(scraped.headers.get("content-type")).toContain("text/plain; version=0.0.4");
    expect(scraped.body).toContain("# TYPE http_request_duration_seconds histogram");
    expect(scraped.body).toContain('almanac_db_pool_connections{pool="web"}');
  });

  it("does not believe a client that names an allowed address itself", async () => {
    for (const address of ["192.0.2.7", "10.1.2.3"]) {
      const spoofed = await call(allowingOthers.baseUrl, "/metrics", {
        anonymous: true,
        headers: { [PEER_ADDRESS_HEADER]: address, "x-forwarded-for": address },
      });
      expect(spoofed.status).toBe(401);
      expect(spoofed.headers.get("content-type")).toBe("application/problem+json");
    }
    // An admin may still scrape it.
    expect((await call(allowingOthers.baseUrl, "/metrics")).status).toBe(200);
  });
});
