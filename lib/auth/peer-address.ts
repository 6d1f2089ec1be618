// A request's TCP peer, for the few checks that go by address (who may scrape /metrics). Route
// handlers see headers, not the socket, so the Node server in front of Next
// (scripts/web-worker.mjs) writes the peer into an internal header, after removing any copy a
// client sent. The header is believed only in a process whose every request passed through that
// server: behind `next start` or `next dev` nobody sets it, and a client could.
import type { IncomingHttpHeaders } from "node:http";

export const PEER_ADDRESS_HEADER = "x-almanac-peer-address";

// Next bundles its own copy of this module, so the mark lives on globalThis.
const STAMPED = Symbol.for("almanac.peer-address-stamped");
const marks = globalThis as { [STAMPED]?: boolean };

interface NodeRequest {
  headers: IncomingHttpHeaders;
  socket: { remoteAddress?: string };
}

/** The web server's stamp, for every request: the header holds the peer's address and nothing else. */
export function peerAddressStamp(): (request: NodeRequest) => void {
  marks[STAMPED] = true;
  return (request) => {
    delete request.headers[PEER_ADDRESS_HEADER];
    const address = request.socket.remoteAddress;
    if (address) request.headers[PEER_ADDRESS_HEADER] = address;
  };
}

/** The peer's address, when this process's web server stamped it; else undefined. */
export function peerAddress(headers: Headers): string | undefined {
  if (!marks[STAMPED]) return undefined;
  return headers.get(PEER_ADDRESS_HEADER) ?? undefined;
}
