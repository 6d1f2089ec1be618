import http, { type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { headersWithBody } from "./headers-with-body.ts";

let server: http.Server | undefined;

afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** A server answering with `answer` after headersWithBody, counting the socket's writes of each answer. */
async function serve(answer: (response: ServerResponse) => Promise<void> | void, writes: number[]): Promise<string> {
  server = http.createServer((_, response) => {
    headersWithBody(response);
    const socket = response.socket! as unknown as Record<"_write" | "_writev", (...args: unknown[]) => unknown>;
    const index = writes.push(0) - 1;
    for (const method of ["_write", "_writev"] as const) {
      const original = socket[method];
      socket[method] = function (this: unknown, ...args: unknown[]) {
        writes[index]++;
        return original.apply(this, args);
      };
    }
    void answer(response);
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}/`;
}

describe("headersWithBody", () => {
  it("sends Next's way of answering (headers flushed, one chunk, end) in one socket write, intact", async () => {
    const writes: number[] = [];
    const body = Buffer.alloc(100_000, "a");
    const url = await serve(async (response) => {
      response.setHeader("content-type", "application/json");
      response.flushHeaders();
      await Promise.resolve();
      response.write(body);
      await Promise.resolve();
      response.end();
    }, writes);
    for (let i = 0; i < 2; i++) {
      const answer = await fetch(url);
      expect(answer.headers.get("content-type")).toBe("application/json");
      expect(answer.headers.get("transfer-encoding")).toBe("chunked");
      expect(Buffer.from(await answer.arrayBuffer()).equals(body)).toBe(true);
    }
    expect(writes).toEqual([1, 1]);
  });

  it("lets a long answer wait for the client (write returns false, then drain) and sends all of it", async () => {
    const chunk = Buffer.alloc(256 * 1024, "b");
    const url = await serve(async (response) => {
      response.flushHeaders();
      for (let i = 0; i < 20; i++) {
        if (!response.write(chunk)) await new Promise((resolve) => response.once("drain", resolve));
      }
      response.end();
    }, []);
    expect((await (await fetch(url)).arrayBuffer()).byteLength).toBe(20 * chunk.length);
  });

  it("still sends the headers at once when the body comes later (an event stream)", async () => {
    let sendEvent: () => void = () => {};
    const url = await serve((response) => {
      response.setHeader("content-type", "text/event-stream");
      response.flushHeaders();
      sendEvent = () => response.end("data: 1\n\n");
    }, []);
    // fetch answers once the headers are in, while the server has written nothing else yet.
    const answer = await fetch(url);
    expect(answer.headers.get("content-type")).toBe("text/event-stream");
    sendEvent();
    expect(await answer.text()).toBe("data: 1\n\n");
  });
});
