// Next flushes an answer's headers on its own (pipe-readable.ts calls res.flushHeaders() before
// the first chunk), so a small answer leaves in three socket writes: the headers, the body's chunk,
// then the chunked encoding's end. Each write is a system call that wakes the client; under load,
// on a machine whose cores the client and PostgreSQL share, those wakes were the largest single
// share of a list request's CPU profile (the header write alone about 8 %). Holding the socket's
// writes until the end of the event loop's turn sends them as one.
import type { ServerResponse } from "node:http";

/**
 * Makes `response` send its headers with what is written in the same turn of the event loop (for
 * an answer Next has whole, the body and its end): the writes are held (corked) from the headers'
 * flush until setImmediate, so a stream that writes later (the event stream, a long export) still
 * sends its headers at once, one turn later at most.
 */
export function headersWithBody(response: ServerResponse): void {
  const flushHeaders = response.flushHeaders;
  response.flushHeaders = function flushWithBody(this: ServerResponse) {
    response.flushHeaders = flushHeaders;
    // The socket's, not the response's own cork(): that one keeps the body's chunks aside and lets
    // end() write the chunked encoding's last chunk ahead of them.
    const socket = response.socket;
    if (socket) {
      socket.cork();
      setImmediate(() => socket.uncork());
    }
    flushHeaders.call(this);
  };
}
