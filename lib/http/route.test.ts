// The route wrapper's answers: every error a handler lets escape becomes application/problem+json
// with the request id; what the database refuses or cannot do is told apart from real bugs; and
// readJsonBody refuses what is not a small JSON body. The wrapper is called directly, as Next does.
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from "vitest";
import { logger } from "../observability/logger.ts";
import { currentRequest } from "../observability/request-context.ts";
import { conflict, invalid, notFound, unprocessable } from "../api/refusal.ts";
import { json, MAX_BODY_BYTES, readJsonBody, type RequestContext, route } from "./route.ts";

const URL_BASE = "http://almanac.test";
// The admin token needs no database, so these tests run without one.
const ADMIN_TOKEN = "route-test-admin-token-0123456789";
process.env.ALMANAC_ADMIN_TOKEN = ADMIN_TOKEN;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let logError: MockInstance<(...args: unknown[]) => void>;
let logWarn: MockInstance<(...args: unknown[]) => void>;
/** The request id each warning or error was logged under (the logger adds it to the line). */
let loggedUnder: (string | undefined)[];
beforeEach(() => {
  // 500s and unchecked values are logged on purpose; keep the test output clean, but look at it.
  loggedUnder = [];
  const note = () => void loggedUnder.push(currentRequest()?.requestId);
  logError = vi.spyOn(logger(), "error").mockImplementation(note) as never;
  logWarn = vi.spyOn(logger(), "warn").mockImplementation(note) as never;
  vi.spyOn(logger(), "info").mockImplementation(() => {});
});
afterEach(() => {
  vi.restoreAllMocks();
});

function request(path = "/api/v1/namespaces/garden-dev/shoots/a", init: RequestInit = {}): Request {
  const headers = new Headers(init.headers);
  if (!headers.has("authorization")) headers.set("authorization", `Bearer ${ADMIN_TOKEN}`);
  return new Request(`${URL_BASE}${path}`, { ...init, headers });
}

/** Runs `handler` through route() for one request, and reads the answer. */
async function answer<P extends object = Record<string, never>>(
  handler: (ctx: RequestContext, params: P) => Promise<Response>,
  options: { request?: Request; params?: P } = {},
) {
  const response = await route<P>({ need: "read" }, handler)(options.request ?? request(), {
    params: Promise.resolve(options.params ?? ({} as P)),
  });
  const text = await response.text();
  return { response, status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

const throwing = (error: unknown) => async (): Promise<Response> => {
  throw error;
};

/** An error as node-postgres or Prisma's driver adapter raises it: a message and some codes. */
const dbError = (message: string, fields: Record<string, unknown> = {}) => Object.assign(new Error(message), fields);

describe("a handler's answer", () => {
  it("is passed through, with the request id added", async () => {
    const { status, headers, body } = await answer(
      async () => json({ ok: true }, { status: 201, headers: { etag: '"3"' } }),
      {
        request: request("/x", { headers: { "x-request-id": "req-42" } }),
      },
    );
    expect(status).toBe(201);
    expect(body).toEqual({ ok: true });
    expect(headers.get("content-type")).toBe("application/json");
    expect(headers.get("etag")).toBe('"3"');
    expect(headers.get("x-request-id")).toBe("req-42");
  });

  it("gets the request, the request id and the awaited path parameters", async () => {
    const handler = vi.fn(
      async (_ctx: RequestContext, _params: { namespace: string; name: string }) => new Response(null, { status: 204 }),
    );
    const req = request("/y", { headers: { "x-request-id": "abc" } });
    const { status } = await answer(handler, { request: req, params: { namespace: "garden-dev", name: "cluster-1" } });
    expect(status).toBe(204);
    expect(handler).toHaveBeenCalledOnce();
    const [ctx, params] = handler.mock.calls[0];
    expect(ctx.request).toBe(req);
    expect(ctx.requestId).toBe("abc");
    expect(params).toEqual({ namespace: "garden-dev", name: "cluster-1" });
  });

  it("json() answers application/json, 200 unless told otherwise", async () => {
    const response = json([1, 2]);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(await response.json()).toEqual([1, 2]);
  });
});

describe("the request id", () => {
  it.each(["req-1", "a.b:c_d-e", "0", "x".repeat(128), "550e8400-e29b-41d4-a716-446655440000"])(
    "takes a valid x-request-id (%s)",
    async (id) => {
      const { headers, body } = await answer(throwing(notFound("gone")), {
        request: request("/z", { headers: { "x-request-id": id } }),
      });
      expect(body.requestId).toBe(id);
      expect(headers.get("x-request-id")).toBe(id);
    },
  );

  it.each([
    ["with a space", "a b"],
    ["too long", "x".repeat(129)],
    ["with a slash", "a/b"],
    ["with a quote", 'a"b'],
    ["non-ASCII", "réq"],
    ["in a bulk action's form", "bulk:0f8b1c2e-3d4a-4b5c-8d6e-7f8091a2b3c4:7"],
  ])("makes a new one for an x-request-id %s", async (_what, id) => {
    const { headers, body } = await answer(throwing(notFound("gone")), {
      request: request("/z", { headers: { "x-request-id": id } }),
    });
    expect(body.requestId).toMatch(UUID);
    expect(body.requestId).not.toBe(id);
    expect(headers.get("x-request-id")).toBe(body.requestId);
  });

  it("makes a new one, different each time, without x-request-id, and puts it on the response", async () => {
    const handler = vi.fn(async (ctx: RequestContext) => json({ id: ctx.requestId }));
    const first = await answer(handler);
    const second = await answer(handler);
    expect(first.body.id).toMatch(UUID);
    expect(first.headers.get("x-request-id")).toBe(first.body.id);
    expect(second.body.id).toMatch(UUID);
    expect(second.body.id).not.toBe(first.body.id);
  });
});

describe("a refusal", () => {
  it("becomes a problem with its status, title, detail, the path as instance and the request id", async () => {
    const { status, headers, body } = await answer(throwing(notFound('Shoot "garden-dev/a" not found.')), {
      request: request("/api/v1/namespaces/garden-dev/shoots/a?watch=1", { headers: { "x-request-id": "r-404" } }),
    });
    expect(status).toBe(404);
    expect(headers.get("content-type")).toBe("application/problem+json");
    expect(headers.get("x-request-id")).toBe("r-404");
    expect(body).toEqual({
      type: "about:blank",
      title: "Not Found",
      status: 404,
      detail: 'Shoot "garden-dev/a" not found.',
      instance: "/api/v1/namespaces/garden-dev/shoots/a",
      requestId: "r-404",
    });
  });

  it("carries its field problems as errors[]", async () => {
    const errors = [
      { field: "spec.maintenance.timeWindow.begin", type: "Invalid", detail: "must be HHMMSS+ZZZZ" },
      { field: "spec.kubernetes.version", type: "NotSupported", detail: "not in the profile" },
    ];
    const { status, body } = await answer(throwing(unprocessable("The change is not allowed.", errors)));
    expect(status).toBe(422);
    expect(body).toMatchObject({
      title: "Unprocessable Content",
      status: 422,
      detail: "The change is not allowed.",
      errors,
    });
  });

  it("leaves errors out when there are none", async () => {
    const { body } = await answer(throwing(invalid("no")));
    expect(body).not.toHaveProperty("errors");
  });

  it("adds its extensions as members and its headers to the response", async () => {
    const { status, headers, body } = await answer(
      throwing(
        conflict("The shoot changed meanwhile.", { extensions: { currentResourceVersion: "7" }, currentVersion: "7" }),
      ),
    );
    expect(status).toBe(409);
    expect(body).toMatchObject({
      title: "Conflict",
      detail: "The shoot changed meanwhile.",
      currentResourceVersion: "7",
    });
    expect(headers.get("etag")).toBe('"7"');
    expect(headers.get("content-type")).toBe("application/problem+json");
  });

  it("is not logged: it is an answer, not a failure", async () => {
    await answer(throwing(notFound("gone")));
    expect(logError).not.toHaveBeenCalled();
    expect(logWarn).not.toHaveBeenCalled();
  });
});

describe("the database being unavailable", () => {
  async function expectUnavailable(error: unknown) {
    const { status, headers, body } = await answer(throwing(error), {
      request: request("/api/v1/shoots", { headers: { "x-request-id": "r-503" } }),
    });
    expect(status).toBe(503);
    expect(headers.get("content-type")).toBe("application/problem+json");
    expect(headers.get("retry-after")).toBe("5");
    expect(headers.get("x-request-id")).toBe("r-503");
    expect(body).toEqual({
      type: "about:blank",
      title: "Service Unavailable",
      status: 503,
      detail: "The database is not reachable; try again shortly.",
      instance: "/api/v1/shoots",
      requestId: "r-503",
    });
  }

  const CODES = [
    ["P1001", "Prisma: cannot reach the server"],
    ["P1017", "Prisma: the server closed the connection"],
    ["P2024", "Prisma: no connection from the pool in time"],
    ["P2028", "Prisma: transaction API error (no transaction in time)"],
    ["57P01", "admin shutdown"],
    ["57P02", "crash shutdown"],
    ["57P03", "cannot connect now (starting up)"],
    ["53000", "insufficient resources"],
    ["53100", "disk full"],
    ["53200", "out of memory"],
    ["53300", "too many connections"],
    ["53400", "configuration limit exceeded"],
    ["ECONNREFUSED", "nothing listens"],
    ["ECONNRESET", "the connection was reset"],
    ["ETIMEDOUT", "the connection timed out"],
  ] as const;

  it.each(CODES)("is recognised by the code %s on the error (%s)", async (code) => {
    await expectUnavailable(dbError("some driver error", { code }));
  });

  it.each(CODES)("is recognised by %s as originalCode (the driver adapter's field)", async (code) => {
    await expectUnavailable(dbError("some driver error", { originalCode: code }));
  });

  it.each(CODES)("is recognised by %s in the cause", async (code) => {
    await expectUnavailable(
      new Error("Invalid `prisma.shoot.findMany()` invocation", { cause: dbError("inner", { code }) }),
    );
  });

  it.each(CODES)("is recognised by %s in meta.code", async (code) => {
    await expectUnavailable(dbError("Invalid invocation", { code: "P2010", meta: { code } }));
  });

  it.each(CODES)("is recognised by %s in meta.driverAdapterError", async (code) => {
    await expectUnavailable(
      dbError("Invalid invocation", {
        meta: {
          driverAdapterError: dbError("DriverAdapterError", { cause: { kind: "postgres", originalCode: code } }),
        },
      }),
    );
    await expectUnavailable(dbError("Invalid invocation", { meta: { driverAdapterError: { code } } }));
  });

  it("is recognised a few causes deep", async () => {
    const deep = new Error("a", {
      cause: new Error("b", { cause: new Error("c", { cause: dbError("d", { code: "57P01" }) }) }),
    });
    await expectUnavailable(deep);
  });

  it.each([
    "connect ECONNREFUSED 127.0.0.1:5432",
    "read ECONNRESET",
    "connect ETIMEDOUT 10.0.0.1:5432",
    "Can't reach database server at `localhost:5432`",
    "Connection terminated unexpectedly",
    "connection terminated due to connection timeout",
    "the database system is starting up",
    "the database system is shutting down",
    "FATAL: The Database System Is Starting Up",
  ])("is recognised by the message %j", async (message) => {
    await expectUnavailable(new Error(message));
  });

  it("is not logged as a bug", async () => {
    await answer(throwing(dbError("x", { code: "P1001" })));
    expect(logError).not.toHaveBeenCalled();
  });
});

describe("a value the database refused as data", () => {
  async function expectBadValue(error: unknown) {
    const { status, headers, body } = await answer(throwing(error), {
      request: request("/api/v1/shoots", { headers: { "x-request-id": "r-400" } }),
    });
    expect(status).toBe(400);
    expect(headers.get("content-type")).toBe("application/problem+json");
    expect(headers.get("x-request-id")).toBe("r-400");
    expect(body).toEqual({
      type: "about:blank",
      title: "Bad Request",
      status: 400,
      detail: "A value in the request is malformed or out of range.",
      instance: "/api/v1/shoots",
      requestId: "r-400",
    });
    expect(JSON.stringify(body)).not.toContain("secret-internal");
  }

  it.each([
    ["22001", "string too long"],
    ["22003", "numeric value out of range"],
    ["22007", "invalid datetime format"],
    ["22008", "datetime field overflow"],
    ["22021", "character not in repertoire (a NUL byte)"],
    ["22P02", "invalid text representation"],
    ["22P05", "untranslatable character"],
    ["2200L", "not an XML document"],
    ["P2007", "Prisma: data validation error"],
    ["P2020", "Prisma: value out of range for the type"],
    ["P2023", "Prisma: inconsistent column data"],
    ["P2033", "Prisma: a number does not fit 64 bits"],
  ])("answers 400 for %s (%s), on the error, in the cause or in the driver adapter's error", async (code) => {
    await expectBadValue(dbError("secret-internal detail", { code }));
    await expectBadValue(new Error("secret-internal outer", { cause: dbError("inner", { code }) }));
    await expectBadValue(dbError("secret-internal", { meta: { code } }));
    await expectBadValue(
      dbError("secret-internal", {
        meta: {
          driverAdapterError: dbError("DriverAdapterError", { cause: { kind: "postgres", originalCode: code } }),
        },
      }),
    );
  });

  it("logs a warning with the request id: validation should have caught it", async () => {
    await answer(throwing(dbError("invalid byte sequence", { code: "22021" })), {
      request: request("/s", { method: "PATCH", headers: { "x-request-id": "r-w" } }),
    });
    expect(logWarn).toHaveBeenCalledOnce();
    expect(loggedUnder).toEqual(["r-w"]);
    expect(String(logWarn.mock.calls[0][1])).toContain("PATCH");
    expect(logError).not.toHaveBeenCalled();
  });
});

describe("anything else", () => {
  async function expectInternal(error: unknown) {
    const { status, headers, body } = await answer(throwing(error), {
      request: request("/api/v1/fleet", { headers: { "x-request-id": "r-500" } }),
    });
    expect(status).toBe(500);
    expect(headers.get("content-type")).toBe("application/problem+json");
    expect(headers.get("retry-after")).toBeNull();
    expect(body).toEqual({
      type: "about:blank",
      title: "Internal Server Error",
      status: 500,
      detail: "Unexpected error; the server log has the details under request id r-500.",
      instance: "/api/v1/fleet",
      requestId: "r-500",
    });
    return body;
  }

  it("is a 500 whose detail names the request id and leaks nothing of the error", async () => {
    const body = await expectInternal(new TypeError("Cannot read properties of undefined (reading 'secret-internal')"));
    expect(JSON.stringify(body)).not.toContain("secret-internal");
  });

  it("is logged with the request id, the method, the URL and the error, secrets hidden", async () => {
    const error = new Error("boom: could not reach postgresql://almanac:s3cret@db:5432/almanac", {
      cause: new Error("the cause"),
    });
    await answer(throwing(error), {
      request: request("/api/v1/fleet?x=1&token=abc123", { method: "POST", headers: { "x-request-id": "r-log" } }),
    });
    expect(logError).toHaveBeenCalledOnce();
    expect(loggedUnder).toEqual(["r-log"]);
    const text = String(logError.mock.calls[0][0]);
    expect(text).toMatch(new RegExp(`^POST ${URL_BASE}/api/v1/fleet\\?x=1&token=[^&\\s]*: Error: boom`));
    expect(text).toContain("caused by: Error: the cause");
    expect(text).not.toContain("abc123");
    expect(text).not.toContain("s3cret");
  });

  it.each([
    ["a unique violation (23505)", dbError("duplicate key", { code: "23505" })],
    ["a Prisma unique constraint (P2002)", dbError("Unique constraint failed", { code: "P2002" })],
    ["a missing table (42P01)", dbError("relation does not exist", { code: "42P01" })],
    ["a serialization failure (40001)", dbError("could not serialize", { code: "40001" })],
    ["a code that only contains an unavailable one", dbError("x", { code: "XP1001" })],
    ["a code that only starts like one", dbError("x", { code: "P10010" })],
    ["a class-22 code of the wrong length", dbError("x", { code: "2200" })],
    ["a class-53 code of the wrong length", dbError("x", { code: "530" })],
    ["a numeric code", dbError("x", { code: 57 })],
  ])("is %s", async (_what, error) => {
    await expectInternal(error);
  });

  it("is anything thrown that is not an Error", async () => {
    await expectInternal("a string");
    await expectInternal(undefined);
    await expectInternal({ some: "object" });
  });

  it("is found without looping forever when causes form a cycle", async () => {
    const a = dbError("a", { code: "X1" });
    const b = dbError("b", { code: "X2", cause: a });
    (a as { cause?: unknown }).cause = b;
    await expectInternal(a);
  });
});

describe("path parameters", () => {
  const ok = vi.fn(async () => json({ ok: true }));

  it("are handed on when they are names (up to 253 characters)", async () => {
    const { status } = await answer(ok, { params: { namespace: "garden-dev", name: "n".repeat(253) } });
    expect(status).toBe(200);
  });

  it.each([
    ["a NUL character", "name", "clu\0ster"],
    ["254 characters", "name", "n".repeat(254)],
    ["a NUL character in the namespace", "namespace", "garden\0"],
  ])("are refused with 400 and the field path.<name> for %s", async (_what, key, value) => {
    ok.mockClear();
    const params = { namespace: "garden-dev", name: "cluster-1", [key]: value };
    const { status, headers, body } = await answer(ok, {
      params,
      request: request("/p", { headers: { "x-request-id": "r-path" } }),
    });
    expect(ok).not.toHaveBeenCalled();
    expect(status).toBe(400);
    expect(headers.get("content-type")).toBe("application/problem+json");
    expect(body).toMatchObject({
      title: "Bad Request",
      status: 400,
      detail: `The path segment "${key}" is not a valid name.`,
      requestId: "r-path",
      errors: [{ field: `path.${key}`, type: "Invalid", detail: "at most 253 characters, no NUL characters" }],
    });
  });

  it("are checked element by element for catch-all segments", async () => {
    ok.mockClear();
    expect((await answer(ok, { params: { slug: ["a", "b"] } })).status).toBe(200);
    const { status, body } = await answer(ok, { params: { slug: ["a", "x".repeat(254)] } });
    expect(status).toBe(400);
    expect(body.errors).toEqual([expect.objectContaining({ field: "path.slug" })]);
    expect(ok).toHaveBeenCalledOnce();
  });
});

describe("readJsonBody", () => {
  /** Runs readJsonBody in a handler, echoing what it read. */
  const reading = (types?: readonly string[]) => async (ctx: RequestContext) =>
    json({ read: await readJsonBody(ctx.request, types) });
  const post = (body: BodyInit | null, headers: Record<string, string> = { "content-type": "application/json" }) =>
    request("/api/v1/things", {
      method: "POST",
      headers: { "x-request-id": "r-body", ...headers },
      body,
      ...(body instanceof ReadableStream ? { duplex: "half" } : {}),
    } as RequestInit);

  /** A body streamed in 64 KiB chunks without a Content-Length, noting whether the reader gave up. */
  function streamed(total: number, fill = 0x20) {
    const chunk = 64 * 1024;
    let sent = 0;
    const seen = { cancelled: false, sent: () => sent };
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= total) return controller.close();
        const n = Math.min(chunk, total - sent);
        sent += n;
        controller.enqueue(new Uint8Array(n).fill(fill));
      },
      cancel() {
        seen.cancelled = true;
      },
    });
    return { stream, seen };
  }

  it("reads a JSON body", async () => {
    const { status, body } = await answer(reading(), {
      request: post(JSON.stringify({ spec: { a: [1, "x", null] } })),
    });
    expect(status).toBe(200);
    expect(body).toEqual({ read: { spec: { a: [1, "x", null] } } });
  });

  it("accepts parameters and any case in the Content-Type", async () => {
    expect(
      (await answer(reading(), { request: post("{}", { "content-type": "application/json; charset=utf-8" }) })).status,
    ).toBe(200);
    expect((await answer(reading(), { request: post("{}", { "content-type": "Application/JSON" }) })).status).toBe(200);
  });

  it("accepts the media types it is given, and only those", async () => {
    const types = ["application/merge-patch+json", "application/json"];
    expect(
      (await answer(reading(types), { request: post("{}", { "content-type": "application/merge-patch+json" }) }))
        .status,
    ).toBe(200);
    const refused = await answer(reading(["application/merge-patch+json"]), { request: post("{}") });
    expect(refused.status).toBe(415);
    expect(refused.body.detail).toBe("Content-Type must be application/merge-patch+json, not application/json.");
    const listed = await answer(reading(types), { request: post("{}", { "content-type": "text/plain" }) });
    expect(listed.body.detail).toBe(
      "Content-Type must be application/merge-patch+json or application/json, not text/plain.",
    );
  });

  it("refuses a missing Content-Type with 415", async () => {
    // Bytes, not a string: a string body would get text/plain from the Request constructor.
    const { status, headers, body } = await answer(reading(), { request: post(new TextEncoder().encode("{}"), {}) });
    expect(status).toBe(415);
    expect(headers.get("content-type")).toBe("application/problem+json");
    expect(body).toMatchObject({
      title: "Unsupported Media Type",
      status: 415,
      detail: "Content-Type must be application/json.",
      requestId: "r-body",
    });
  });

  it.each(["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/jsonx"])(
    "refuses Content-Type %s with 415",
    async (type) => {
      const { status, body } = await answer(reading(), { request: post("{}", { "content-type": type }) });
      expect(status).toBe(415);
      expect(body.detail).toBe(`Content-Type must be application/json, not ${type.split(";")[0]}.`);
    },
  );

  it("refuses a declared Content-Length above 1 MiB with 413, without reading the body", async () => {
    const req = post("{}", { "content-type": "application/json", "content-length": String(MAX_BODY_BYTES + 1) });
    const { status, headers, body } = await answer(reading(), { request: req });
    expect(status).toBe(413);
    expect(headers.get("content-type")).toBe("application/problem+json");
    expect(body).toMatchObject({
      title: "Content Too Large",
      status: 413,
      detail: `The body is ${MAX_BODY_BYTES + 1} bytes; at most ${MAX_BODY_BYTES} (1 MiB) are accepted.`,
    });
    expect(req.bodyUsed).toBe(false);
    // Exactly 1 MiB declared is fine (the body itself then decides).
    expect(
      (
        await answer(reading(), {
          request: post("{}", { "content-type": "application/json", "content-length": String(MAX_BODY_BYTES) }),
        })
      ).status,
    ).toBe(200);
  });

  it("refuses a streamed body that grows beyond 1 MiB with 413, and stops reading it", async () => {
    const { stream, seen } = streamed(8 * MAX_BODY_BYTES);
    const { status, body } = await answer(reading(), { request: post(stream) });
    expect(status).toBe(413);
    expect(body).toMatchObject({
      title: "Content Too Large",
      detail: `The body exceeds ${MAX_BODY_BYTES} bytes (1 MiB).`,
    });
    expect(seen.cancelled).toBe(true);
    expect(seen.sent()).toBeLessThan(8 * MAX_BODY_BYTES);
  });

  it("reads a body of exactly 1 MiB, and refuses one byte more", async () => {
    const exactly = `"${"a".repeat(MAX_BODY_BYTES - 2)}"`;
    const read = await answer(reading(), { request: post(exactly) });
    expect(read.status).toBe(200);
    expect(read.body.read).toHaveLength(MAX_BODY_BYTES - 2);
    const { stream } = streamed(MAX_BODY_BYTES + 1);
    expect((await answer(reading(), { request: post(stream) })).status).toBe(413);
  });

  it.each([
    ["no body", null],
    ["an empty body", ""],
    ["only white space", " \n\t "],
  ])("refuses %s with 400", async (_what, content) => {
    const { status, headers, body } = await answer(reading(), { request: post(content) });
    expect(status).toBe(400);
    expect(headers.get("content-type")).toBe("application/problem+json");
    expect(body).toMatchObject({
      title: "Bad Request",
      detail: "The request body is empty; send a JSON object.",
      requestId: "r-body",
    });
  });

  it.each(["{", "{'a': 1}", '{"a": 1,}', "undefined", "[1, 2", "\u0000"])(
    "refuses invalid JSON %j with 400",
    async (content) => {
      const { status, body } = await answer(reading(), { request: post(content) });
      expect(status).toBe(400);
      expect(body.title).toBe("Bad Request");
      expect(body.detail).toMatch(/^The request body is not valid JSON: ./);
    },
  );
});

describe("who may call", () => {
  const ok = async () => json({ ok: true });
  const call = (init: RequestInit, need: "read" | "administer" = "read") =>
    route({ need }, ok)(new Request(`${URL_BASE}/api/v1/shoots`, init), { params: Promise.resolve({}) });

  it("answers 401 with a problem and a Bearer challenge to a caller without credentials", async () => {
    const response = await call({});
    expect(response.status).toBe(401);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    expect(response.headers.get("www-authenticate")).toBe('Bearer realm="almanac"');
    expect((await response.json()).detail).toMatch(/Sign in, or send an API token/);
  });

  it("answers 401 to an Authorization header that is not a bearer token", async () => {
    expect((await call({ headers: { authorization: `Basic ${ADMIN_TOKEN}` } })).status).toBe(401);
  });

  it("lets the admin token do what an admin may", async () => {
    expect((await call({ headers: { authorization: `Bearer ${ADMIN_TOKEN}` } }, "administer")).status).toBe(200);
  });

  it("refuses a write that another site's page sends, before looking at credentials", async () => {
    const auth = { authorization: `Bearer ${ADMIN_TOKEN}` };
    const crossSite = await call({ method: "POST", headers: { ...auth, "sec-fetch-site": "cross-site" } });
    expect(crossSite.status).toBe(403);
    expect((await crossSite.json()).detail).toMatch(/another site/);
    const otherOrigin = await call({
      method: "POST",
      headers: { ...auth, origin: "https://evil.example", host: "almanac.test" },
    });
    expect(otherOrigin.status).toBe(403);
    const sameOrigin = await call({
      method: "POST",
      headers: { ...auth, origin: URL_BASE, host: "almanac.test", "sec-fetch-site": "same-origin" },
    });
    expect(sameOrigin.status).toBe(200);
    // Reads are not writes: a cross-site GET is answered (the browser keeps the answer from the page).
    expect((await call({ headers: { ...auth, "sec-fetch-site": "cross-site" } })).status).toBe(200);
  });
});

describe("a client that aborts its upload", () => {
  it("is answered and counted as its abort (499), not as an unreachable database, and nothing is logged as an error", async () => {
    const aborted = new ReadableStream({
      pull: (controller) => controller.error(Object.assign(new Error("aborted"), { code: "ECONNRESET" })),
    });
    const { status } = await answer(async (ctx) => json({ read: await readJsonBody(ctx.request) }), {
      request: request("/x", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: aborted,
        duplex: "half",
      } as RequestInit),
    });
    expect(status).toBe(499);
    expect(logError).not.toHaveBeenCalled();
  });
});

describe("the cache of an answer", () => {
  it("is no-store unless the handler says otherwise: answers carry people, tokens and the fleet", async () => {
    expect((await answer(async () => json({ ok: true }))).headers.get("cache-control")).toBe("no-store");
    const own = await answer(async () => json({ ok: true }, { headers: { "cache-control": "private, max-age=300" } }));
    expect(own.headers.get("cache-control")).toBe("private, max-age=300");
  });
});
