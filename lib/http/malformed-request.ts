// What the web server (scripts/web-worker.mjs) refuses before Next sees a request, because Next
// would answer it with a bare 500 or Node with an empty reply: a path that is not valid
// percent-encoded UTF-8 ("%ff", "%c0%af"), which Next cannot decode into route parameters; a
// request target longer than any of Almanac's URLs (Next's redirects repeat the URL in two
// headers, more than a client's 16 KiB limit takes); and requests Node's HTTP parser rejects
// (headers too large, broken request lines). All get the problem+json every other refusal has.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { MAX_BODY_BYTES } from "./request-body.ts";

function problem(status: number, title: string, detail: string, instance?: string): string {
  return JSON.stringify({ type: "about:blank", title, status, detail, ...(instance ? { instance } : {}) });
}

export const MAX_TARGET_LENGTH = 6 * 1024;

function refuse(response: ServerResponse, status: number, title: string, detail: string, instance: string): true {
  const body = problem(status, title, detail, instance.slice(0, 200).replace(/[^\x21-\x7e]/g, "?"));
  response.writeHead(status, { "content-type": "application/problem+json", "content-length": Buffer.byteLength(body) });
  response.end(body);
  return true;
}

/** Answers 414 or 400 and returns true when the request's target is too long or undecodable. */
export function refuseMalformedTarget(request: IncomingMessage, response: ServerResponse): boolean {
  const target = request.url ?? "/";
  const pathname = target.split("?")[0];
  if (target.length > MAX_TARGET_LENGTH)
    return refuse(
      response,
      414,
      "URI Too Long",
      `The request's URL is longer than ${MAX_TARGET_LENGTH} characters.`,
      pathname,
    );
  try {
    decodeURIComponent(pathname);
    return false;
  } catch {
    return refuse(response, 400, "Bad Request", "The request's path is not valid percent-encoded UTF-8.", pathname);
  }
}

/**
 * Answers 413 and returns true when the request declares a body larger than any Almanac reads:
 * before Next or better-auth sees it. (A body without a declared length is capped where it is
 * read, lib/http/request-body.ts.) What the client still sends is read and dropped, so that it
 * reads the answer rather than a reset.
 */
export function refuseLargeBody(request: IncomingMessage, response: ServerResponse): boolean {
  const declared = Number(request.headers["content-length"] ?? "0");
  if (!(declared > MAX_BODY_BYTES)) return false;
  refuse(
    response,
    413,
    "Content Too Large",
    `The body is ${declared} bytes; at most ${MAX_BODY_BYTES} (1 MiB) are accepted.`,
    (request.url ?? "/").split("?")[0],
  );
  // Read and drop the rest (never kept), so the client reads the answer rather than a reset; a
  // client that is still sending after a moment is cut off.
  request.resume();
  const cut = setTimeout(() => request.socket.destroy(), LINGER_MS);
  cut.unref();
  request.once("end", () => clearTimeout(cut));
  return true;
}

// How long a refused connection keeps reading what the client still sends, so that it reads our
// answer before the socket closes (closing with unread data makes the kernel send a reset, and
// the client reports "write EPIPE" or "ECONNRESET" instead of the answer).
const LINGER_MS = 2_000;
const answered = new WeakSet<Socket>();

/** For http.Server's "clientError": a problem+json answer instead of a silent close. */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  // The parser reports every further chunk of a refused request as another error: those chunks
  // are read and dropped while the answer reaches the client (a lingering close).
  if (answered.has(socket)) return;
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  answered.add(socket);
  const tooLarge = error.code === "HPE_HEADER_OVERFLOW";
  const status = tooLarge ? 431 : 400;
  const title = tooLarge ? "Request Header Fields Too Large" : "Bad Request";
  const detail = tooLarge
    ? "The request line and headers are larger than the server accepts (16 KiB)."
    : "The request is not valid HTTP.";
  const body = problem(status, title, detail);
  socket.end(
    `HTTP/1.1 ${status} ${title}\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
  socket.on("end", () => socket.destroy());
  setTimeout(() => socket.destroy(), LINGER_MS).unref();
}
