// /readyz against a database that cannot be reached: 503 in fixed words, nothing of the
// connection (host, user, password, the driver's error) in the answer, and the reason in the
// server log once, not once per probe.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call } from "../support/api-client.ts";
import { type AppServer, freePort, startNext } from "../support/app-server.ts";

let server: AppServer;

beforeAll(async () => {
  // A port nothing listens on: every connection is refused.
  const port = await freePort();
  server = await startNext(`postgresql://almanac:hunter2-secret@127.0.0.1:${port}/almanac`);
});
afterAll(() => server?.stop());

describe("/readyz without a database", () => {
  it("answers 503 with the checks in fixed words and logs the reason once", async () => {
    for (let i = 0; i < 4; i++) {
      const ready = await call(server.baseUrl, "/readyz");
      expect(ready.status).toBe(503);
      expect(ready.body).toEqual({
        status: "not ready",
        checks: { database: { ok: false, detail: "the database is not reachable" } },
      });
      expect(JSON.stringify(ready.body)).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|hunter2/);
    }
    const logged = server
      .output()
      .split("\n")
      .filter((line) => line.includes("Readiness:"));
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain("the database is not reachable");
    expect(server.output()).not.toContain("hunter2-secret");
  });
});
