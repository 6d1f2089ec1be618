// A real HTTP receiver on loopback for webhook tests: it keeps every request's raw body and
// headers, and answers as the test says (a status, a redirect, or never).
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface Received {
  readonly path: string;
  readonly headers: IncomingMessage["headers"];
  readonly raw: Buffer;
  readonly json: Record<string, unknown>;
}

export type Answer = (request: Received, response: ServerResponse) => void;

export interface Receiver {
  readonly url: string;
  readonly received: Received[];
  /** How the next requests are answered (default: 200 "ok"). */
  answer: Answer;
  /** Resolves at the next request. */
  next(): Promise<Received>;
  close(): Promise<void>;
}

export const ok: Answer = (_, response) => response.writeHead(200, { "content-type": "text/plain" }).end("ok");

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const waiting: ((r: Received) => void)[] = [];
  const receiver: Receiver = {
    url: "",
    received,
    answer: ok,
    next: () => new Promise((resolve) => waiting.push(resolve)),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const raw = Buffer.concat(chunks);
      let json: Record<string, unknown> = {};
      try {
        json = JSON.parse(raw.toString("utf8")) as Record<string, unknown>;
      } catch {
        // Not JSON: kept raw.
      }
      const got: Received = { path: request.url ?? "/", headers: request.headers, raw, json };
      received.push(got);
      for (const resolve of waiting.splice(0)) resolve(got);
      receiver.answer(got, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  (receiver as { url: string }).url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return receiver;
}
