import { describe, expect, it } from "vitest";
import { Refusal } from "../api/refusal.ts";
import { CLIENT_CLOSED_REQUEST, statusOf as statusOfRefusal } from "./refusal-answer.ts";
import { readCappedBody } from "./request-body.ts";

const post = (body: BodyInit | ReadableStream, headers: Record<string, string> = {}) =>
  new Request("http://almanac.invalid/api/auth/sign-in/email", {
    method: "POST",
    headers,
    body,
    duplex: "half",
  } as RequestInit);

const statusOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 200,
    (error: unknown) => (error instanceof Refusal ? statusOfRefusal(error) : -1),
  );

describe("reading a request body with a cap", () => {
  it("reads a body within the cap", async () => {
    expect((await readCappedBody(post('{"a":1}'), 16)).toString()).toBe('{"a":1}');
  });

  it("refuses a declared length over the cap before reading (413)", async () => {
    expect(await statusOf(readCappedBody(post("{}", { "content-length": "999999999" }), 16))).toBe(413);
  });

  it("stops reading an undeclared body at the cap (413)", async () => {
    const endless = new ReadableStream({
      pull: (controller) => controller.enqueue(new Uint8Array(1024)),
    });
    expect(await statusOf(readCappedBody(post(endless), 16 * 1024))).toBe(413);
  });

  it("counts a client that aborts while sending as its abort, not a server fault", async () => {
    const aborted = new ReadableStream({
      pull: (controller) => controller.error(Object.assign(new Error("aborted"), { code: "ECONNRESET" })),
    });
    expect(await statusOf(readCappedBody(post(aborted), 16 * 1024))).toBe(CLIENT_CLOSED_REQUEST);
  });
});
