// Bad input on every /api/v1 route, generated with fast-check: malformed and odd path segments,
// query strings, bodies (not JSON, invalid UTF-8, NUL bytes, deep nesting, too large, wrong
// types) and headers. Whatever comes, the server answers: never a 5xx, every 4xx a problem+json,
// it stays up, and the stored data does not change.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedLandscape } from "../../lib/server/seed-landscape.ts";
import { ADMIN_HEADERS } from "../support/api-client.ts";
import { type AppServer, startWebServer } from "../support/app-server.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { smallLandscape } from "../support/small-landscape.ts";

// Runs per route and method; with the bodies below, several thousand requests in all.
const RUNS = 60;
const SHOOT = { namespace: "garden-dev", name: "cluster-1" };

let database: TestDatabase;
let server: AppServer;
let before: string;
beforeAll(async () => {
  database = await createTestDatabase();
  const now = Date.now();
  await seedLandscape(database.db, smallLandscape(now, 3), { actor: "test", now });
  // npm start's web process, without the rest: no scheduler or gardenlet changes the data while
  // the fuzzing runs.
  server = await startWebServer(database.url);
  before = await fingerprint();
}, 180_000);
afterAll(async () => {
  await server?.stop();
  await database?.drop();
});

// The forecast's facts are derived from the shoots when a forecast is read, and stored for later
// reads (lib/store/shoot-forecasts.ts): a read may write them, and they are no data of their own;
// nor are the counts the database keeps of them.
const DERIVED_TABLES = new Set([
  "public.shoot_forecast_items",
  "public.forecast_item_counts",
  "public.forecast_shoot_counts",
]);
const DERIVED_COLUMNS = ["forecast_computed_from", "forecast_valid_until", "forecast_fails_from", "forecast_failures"];

/**
 * Every stored row of Almanac's tables and the queued jobs, hashed: any change shows. (The job
 * queue makes its own tables on first use; only its jobs are data.)
 */
async function fingerprint(): Promise<string> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    const tables = (
      await client.query<{ name: string }>(
        `SELECT format('%I.%I', schemaname, tablename) AS name FROM pg_tables
          WHERE (schemaname = 'public' AND tablename <> 'rate_limits') OR (schemaname = 'pgboss' AND tablename = 'job')
          ORDER BY 1`,
      )
    ).rows
      .map((r) => r.name)
      .filter((name) => !DERIVED_TABLES.has(name));
    const parts: string[] = [];
    for (const table of tables) {
      const { rows } = await client.query<{ h: string }>(
        `SELECT md5(coalesce(string_agg(r, '|' ORDER BY r), '')) AS h
         FROM (SELECT (to_jsonb(t) - $1::text[])::text AS r FROM ${table} t) AS rows`,
        [DERIVED_COLUMNS],
      );
      // An empty table and one not made yet are the same data.
      if (rows[0].h !== EMPTY) parts.push(`${table}:${rows[0].h}`);
    }
    return parts.join("\n");
  } finally {
    await client.end();
  }
}

const EMPTY = "d41d8cd98f00b204e9800998ecf8427e"; // md5 of ""

/** The routes of app/api/v1 and the methods each exports, read from the files themselves. */
function routes(): { template: string; methods: string[] }[] {
  const root = path.resolve(import.meta.dirname, "../../app/api/v1");
  const found: { template: string; methods: string[] }[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir)) {
      const full = path.join(dir, entry);
      if (statSync(full).isDirectory()) walk(full);
      else if (entry === "route.ts") {
        const methods = [
          ...readFileSync(full, "utf8").matchAll(
            /export (?:const|async function|function) (GET|POST|PATCH|PUT|DELETE)\b/g,
          ),
        ].map((m) => m[1]);
        found.push({ template: `/api/v1/${path.relative(root, dir)}`, methods });
      }
    }
  };
  walk(root);
  return found;
}

// Path segments: random text (encoded), and the classic tricks (already encoded).
const trickySegment = fc.constantFrom(
  "..",
  "%2e%2e",
  "%2e%2e%2f%2e%2e%2fetc%2fpasswd",
  "%00",
  "a%00b",
  "%ff%fe",
  "%c0%af",
  "%E2%80%AE",
  "%20",
  "-",
  "A".repeat(254),
  "x".repeat(4000),
  "%25",
  "con",
  "%5C..%5C",
);
const segment = fc.oneof(trickySegment, fc.string({ maxLength: 80 }).map(encodeURIComponent), fc.constant("cluster-1"));

const QUERY_KEYS = [
  "limit",
  "cursor",
  "sort",
  "order",
  "q",
  "status",
  "days",
  "by",
  "kind",
  "format",
  "since",
  "until",
  "actor",
  "action",
  "namespace",
  "cloudProfile",
  "seed",
  "expiring",
  "stuck",
  "risk",
  "page",
];
const queryValue = fc.oneof(
  fc.string({ maxLength: 60 }).map(encodeURIComponent),
  fc.integer().map(String),
  fc.double().map(String),
  fc.constantFrom(
    "%zz",
    "%",
    "%00",
    "-1",
    "1e309",
    "NaN",
    "[]",
    "{}",
    "true",
    "x".repeat(10_000),
    "%ff",
    "9".repeat(40),
  ),
);
const query = fc
  .array(
    fc.tuple(
      fc.oneof(fc.constantFrom(...QUERY_KEYS), fc.string({ maxLength: 10 }).map(encodeURIComponent)),
      queryValue,
    ),
    {
      maxLength: 4,
    },
  )
  .map((pairs) => (pairs.length ? `?${pairs.map(([k, v]) => `${k}=${v}`).join("&")}` : ""));

const deep = (depth: number) => "[".repeat(depth) + "]".repeat(depth);
// Bodies that no route may accept as a valid request.
const badBody = fc.oneof(
  fc.string({ maxLength: 200 }).filter((s) => {
    try {
      const v = JSON.parse(s);
      return typeof v !== "object" || v === null || Array.isArray(v);
    } catch {
      return true;
    }
  }),
  fc
    .uint8Array({ minLength: 1, maxLength: 300 })
    .map((bytes) => Buffer.concat([Buffer.from([0xff, 0xfe, 0xc3]), bytes])),
  fc.constantFrom(
    "{",
    '{"spec":',
    "null",
    "[]",
    "42",
    '"text"',
    deep(5_000),
    `{"a":${deep(100_000)}}`,
    `{"spec":{"maintenance":{"timeWindow":{"begin":"\\u0000","end":"\\u0000"}}}}`,
    `{"spec":{"maintenance":{"autoUpdate":{"kubernetesVersion":"yes"}}}}`,
    `{"spec":{"kubernetes":{"version":12}}}`,
    `{"spec":{"provider":{"workers":"all"}}}`,
    `{"metadata":{"resourceVersion":{"$gt":0}}}`,
    `{"__proto__":{"polluted":true},"spec":{"kubernetes":{"version":[]}}}`,
    `{"seedName":${deep(50)}}`,
    `{"name":"","email":"not-an-email","password":""}`,
    `{"roles":"admin"}`,
    `{"name":"${"n".repeat(100_000)}"}`,
  ),
  fc.constant("x".repeat(3 * 1024 * 1024)),
);
const contentType = fc.constantFrom(
  "application/json",
  "application/merge-patch+json",
  "application/json-patch+json",
  "application/json; charset=latin1",
  "text/plain",
  "multipart/form-data; boundary=x",
  "application/x-www-form-urlencoded",
  "",
);
const oddHeaders = fc.record(
  {
    "if-match": fc.constantFrom('"1"', "*", 'W/"x"', "garbage", '"99999999999999999999"'),
    "x-request-id": fc.constantFrom("x".repeat(500), "../../", "id with spaces", "ok-id"),
    accept: fc.constantFrom("text/csv", "application/xml", "*/*;q=x", ""),
    "accept-encoding": fc.constantFrom("gzip", "br", "identity;q=0", "bogus"),
    range: fc.constantFrom("bytes=0-0", "bytes=-1", "rows=1-2"),
  },
  { requiredKeys: [] },
);

interface Answer {
  status: number;
  type: string;
  body: string;
}

async function send(
  method: string,
  url: string,
  init: { body?: string | Uint8Array<ArrayBuffer>; headers?: Record<string, string> },
) {
  const response = await fetch(`${server.baseUrl}${url}`, {
    method,
    headers: { ...ADMIN_HEADERS, ...(init.headers ?? {}) },
    body: init.body,
    redirect: "manual",
    signal: AbortSignal.timeout(20_000),
  });
  const type = response.headers.get("content-type") ?? "";
  // The event stream never ends: its headers are the answer.
  const body = type.includes("text/event-stream") ? (await response.body?.cancel(), "") : await response.text();
  return { status: response.status, type, body } satisfies Answer;
}

function expectHandled(answer: Answer, what: string) {
  expect(answer.status, `${what} → ${answer.status} ${answer.body.slice(0, 300)}`).toBeLessThan(500);
  if (answer.status >= 400 && answer.status !== 404 && answer.status !== 405)
    expect(answer.type, `${what} → ${answer.status}`).toContain("application/problem+json");
  if (answer.status >= 400 && answer.type.includes("problem+json")) {
    // A problem, never a stack.
    expect(answer.body, what).not.toMatch(/\n\s+at .+:\d+:\d+/);
  }
}

const READS_BODY = new Set(["PATCH", "PUT"]);
const fill = (template: string, segments: string[]) => {
  let i = 0;
  return template.replace(/\[[^\]]+\]/g, () => segments[i++ % segments.length]);
};
const real = (template: string) =>
  template
    .replace("[namespace]", SHOOT.namespace)
    .replace("[name]", SHOOT.name)
    .replace("[id]", "00000000-0000-0000-0000-000000000000");

describe("every /api/v1 route under generated bad input", () => {
  const all = routes();

  it("finds the routes it drives", () => {
    expect(all.length).toBeGreaterThanOrEqual(25);
    expect(all.find((r) => r.template === "/api/v1/namespaces/[namespace]/shoots/[name]")?.methods).toEqual(
      expect.arrayContaining(["GET", "PATCH", "DELETE"]),
    );
  });

  for (const route of routes()) {
    for (const method of route.methods) {
      it(`${method} ${route.template}`, { timeout: 300_000 }, async () => {
        const hasParams = route.template.includes("[");
        const writes = method !== "GET";
        await fc.assert(
          fc.asyncProperty(
            fc.array(segment, { minLength: 2, maxLength: 2 }),
            query,
            writes ? badBody : fc.constant(undefined),
            contentType,
            oddHeaders,
            // A write goes to the real shoot only with a body no route accepts; a read may use it.
            fc.boolean(),
            async (segments, search, body, type, headers, realPath) => {
              // Routes whose writes read a body get it on the real shoot too; routes that act
              // without one (maintain now, delete) only ever see names that do not exist.
              const onReal = realPath && (!writes || READS_BODY.has(method));
              const target = hasParams && !onReal ? fill(route.template, segments) : real(route.template);
              const url = `${target}${search}`;
              const answer = await send(method, url, {
                body,
                headers: { ...headers, ...(type ? { "content-type": type } : {}) },
              });
              expectHandled(answer, `${method} ${url.slice(0, 200)}`);
              // Refused, or redirected to the path Next normalises to (without acting).
              if (writes)
                expect(answer.status, `${method} ${url.slice(0, 200)} was accepted`).toBeGreaterThanOrEqual(300);
            },
          ),
          { numRuns: RUNS },
        );
      });
    }
  }

  it("answers URLs longer than Almanac's own with 414, and larger than Node reads with 431, as problems", async () => {
    for (const [length, status] of [
      [7_000, 414],
      [20_000, 431],
    ]) {
      const answer = await send("GET", `/api/v1/shoots?q=${"x".repeat(length)}`, {});
      expect(answer.status).toBe(status);
      expect(answer.type).toContain("application/problem+json");
    }
  });

  it("answers a request refused for its headers while its large body is still coming, not with a reset", async () => {
    // Found by this fuzzing in CI: the refusal closed the socket with the body unread, and the
    // client saw "write ECONNRESET" instead of the answer.
    const statuses = [];
    for (let i = 0; i < 10; i++) {
      const answer = await send(
        "PATCH",
        `${real("/api/v1/namespaces/[namespace]/shoots/[name]")}?q=${"x".repeat(20_000)}`,
        {
          body: "x".repeat(3 * 1024 * 1024),
          headers: { "content-type": "application/merge-patch+json" },
        },
      );
      statuses.push(answer.status);
    }
    expect(statuses).toEqual(Array(10).fill(431));
  });

  it("answers as before, and nothing stored has changed", async () => {
    const shoot = await send("GET", real("/api/v1/namespaces/[namespace]/shoots/[name]"), {});
    expect(shoot.status).toBe(200);
    const after = await fingerprint();
    expect(after.split("\n").filter((line) => !before.includes(line))).toEqual([]);
  });
});
