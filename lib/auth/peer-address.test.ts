// The peer's address reaches the route handlers only as the web server stamps it: a client's own
// copy of the header is dropped, and without the web server in front nothing is believed.
import { describe, expect, it } from "vitest";
import { PEER_ADDRESS_HEADER, peerAddress, peerAddressStamp } from "./peer-address.ts";

describe("the peer address", () => {
  it("is believed only once the web server stamps requests, and only as it stamps them", () => {
    const spoofed = new Headers({ [PEER_ADDRESS_HEADER]: "10.0.0.1" });
    expect(peerAddress(spoofed)).toBeUndefined();

    const stamp = peerAddressStamp();
    const request = {
      headers: { [PEER_ADDRESS_HEADER]: "10.0.0.1" } as Record<string, string>,
      socket: { remoteAddress: "::ffff:192.0.2.9" },
    };
    stamp(request);
    expect(peerAddress(new Headers(request.headers))).toBe("::ffff:192.0.2.9");

    const noSocketAddress = { headers: { [PEER_ADDRESS_HEADER]: "10.0.0.1" } as Record<string, string>, socket: {} };
    stamp(noSocketAddress);
    expect(peerAddress(new Headers(noSocketAddress.headers))).toBeUndefined();
  });
});
