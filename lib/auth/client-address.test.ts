import { describe, expect, it } from "vitest";
import { addressBucket, clientAddress } from "./client-address.ts";
import { loadConfig } from "../config/load-config.ts";
import { trustedProxyOf } from "./trusted-proxy.ts";

const parseTrustedProxy = (env: Record<string, string>) => trustedProxyOf(loadConfig(env));

const proxies = parseTrustedProxy({ ALMANAC_TRUSTED_PROXY_ADDRESSES: "10.0.0.0/8,fd00::/64" }).addresses;

describe("the client's address for the sign-in limits", () => {
  it("is the TCP peer whatever X-Forwarded-For a client sends", () => {
    expect(clientAddress("203.0.113.7", "198.51.100.1", proxies)).toBe("203.0.113.7");
    expect(clientAddress("203.0.113.7", "1.2.3.4, 5.6.7.8", [])).toBe("203.0.113.7");
    expect(clientAddress("::ffff:127.0.0.1", ["9.9.9.9"], [])).toBe("::ffff:127.0.0.1");
  });

  it("is what a trusted proxy appended, not what the client wrote before it", () => {
    expect(clientAddress("10.0.0.2", "6.6.6.6, 203.0.113.7", proxies)).toBe("203.0.113.7");
    // a chain of trusted proxies: the first address from the right that is not one of them
    expect(clientAddress("10.0.0.2", "6.6.6.6, 203.0.113.7, 10.1.1.1", proxies)).toBe("203.0.113.7");
    expect(clientAddress("fd00::5", ["6.6.6.6", "2001:db8::9"], proxies)).toBe("2001:db8::9");
  });

  it("stops at an entry that is not an address, and falls back to the proxy without one", () => {
    expect(clientAddress("10.0.0.2", "evil, 10.0.0.3", proxies)).toBe("10.0.0.3");
    expect(clientAddress("10.0.0.2", undefined, proxies)).toBe("10.0.0.2");
  });

  it("is unknown without a peer", () => {
    expect(clientAddress(undefined, "1.2.3.4", proxies)).toBeUndefined();
  });
});

describe("the bucket an address counts in", () => {
  it("is an IPv6 client's /64, whichever of its addresses and spellings it uses", () => {
    expect(addressBucket("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(addressBucket("2001:db8:1:2:ffff:eeee:dddd:cccc")).toBe("2001:db8:1:2::/64");
    expect(addressBucket("2001:0DB8:0001:0002::9")).toBe("2001:db8:1:2::/64");
    expect(addressBucket("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(addressBucket("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(addressBucket("::1")).toBe("0:0:0:0::/64");
    expect(addressBucket("2001:db8:1:3::1")).not.toBe(addressBucket("2001:db8:1:2::1"));
  });

  it("is an IPv4 address itself, also when IPv4-mapped, and leaves anything else as it is", () => {
    expect(addressBucket("203.0.113.7")).toBe("203.0.113.7");
    expect(addressBucket("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(addressBucket("(unknown)")).toBe("(unknown)");
  });
});
