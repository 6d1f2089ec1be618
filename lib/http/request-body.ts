// Every request body Almanac reads goes through here, with a cap: a declared Content-Length over
// it is refused before a byte is read, and a body without one is read only up to the cap. Either
// way the answer is 413 before anything is parsed. A client that goes away while sending (an
// aborted upload) is told apart from a server fault: it is counted as a client's abort, not as
// the database being unreachable.
import { Refusal, tooLarge } from "../api/refusal.ts";

/** The largest body any request may carry (the API's JSON; /api/auth/* takes less). */
export const MAX_BODY_BYTES = 1024 * 1024;

export const clientAborted = () => new Refusal("client-gone", "The client closed the request while sending its body.");

const size = (bytes: number) =>
  bytes % (1024 * 1024) === 0
    ? `${bytes / 1024 / 1024} MiB`
    : bytes % 1024 === 0
      ? `${bytes / 1024} KiB`
      : `${bytes} bytes`;

/** The body's bytes, at most `max` of them; refused as too large past that, or as the client gone when it aborts. */
export async function readCappedBody(request: Request, max: number): Promise<Buffer> {
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > max)
    throw tooLarge(`The body is ${declared} bytes; at most ${max} (${size(max)}) are accepted.`);
  if (!request.body) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let length = 0;
  const reader = request.body.getReader();
  for (;;) {
    let chunk: ReadableStreamReadResult<Uint8Array>;
    try {
      chunk = await reader.read();
    } catch {
      throw clientAborted();
    }
    if (chunk.done) break;
    length += chunk.value.byteLength;
    if (length > max) {
      await reader.cancel().catch(() => {});
      throw tooLarge(`The body exceeds ${max} bytes (${size(max)}).`);
    }
    chunks.push(chunk.value);
  }
  return Buffer.concat(chunks);
}
