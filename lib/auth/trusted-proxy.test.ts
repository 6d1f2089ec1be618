// The trusted proxy's settings: off unless addresses are listed, the addresses and ranges of both
// families (an IPv4 range also matching a dual-stack socket's ::ffff: form), the header names, and
// each kind of mistake refused with the variable and the entry named.
import { describe, expect, it } from "vitest";
import { inRanges } from "../config/cidr-ranges.ts";
import { loadConfig } from "../config/load-config.ts";
import { trustedProxyEnabled as enabledIn, trustedProxyOf } from "./trusted-proxy.ts";

const parseTrustedProxy = (env: Record<string, string | undefined>) => trustedProxyOf(loadConfig(env));
const trustedProxyEnabled = (env: Record<string, string | undefined>) => enabledIn(loadConfig(env));

const ADDRESSES = "ALMANAC_TRUSTED_PROXY_ADDRESSES";
const USER = "ALMANAC_TRUSTED_PROXY_USER_HEADER";
const GROUPS = "ALMANAC_TRUSTED_PROXY_GROUPS_HEADER";

describe("ALMANAC_TRUSTED_PROXY_*", () => {
  it("is off when no address is listed, with the default header names", () => {
    for (const value of [undefined, "", "  "]) {
      expect(parseTrustedProxy({ [ADDRESSES]: value })).toEqual({
        addresses: [],
        userHeader: "x-remote-user",
        groupsHeader: "x-remote-group",
      });
      expect(trustedProxyEnabled({ [ADDRESSES]: value })).toBe(false);
    }
    expect(trustedProxyEnabled({ [ADDRESSES]: "10.0.0.1" })).toBe(true);
  });

  it("believes the listed addresses and ranges of both families, and nothing else", () => {
    const { addresses } = parseTrustedProxy({ [ADDRESSES]: " 10.0.0.0/8, 192.168.1.7 ,fd00:1::/64,::1" });
    const check = (address: string, _family: "ipv4" | "ipv6") => inRanges(addresses, address);
    expect(check("10.200.3.4", "ipv4")).toBe(true);
    expect(check("::ffff:10.0.0.5", "ipv6")).toBe(true);
    expect(check("192.168.1.7", "ipv4")).toBe(true);
    expect(check("::ffff:192.168.1.7", "ipv6")).toBe(true);
    expect(check("fd00:1::abcd", "ipv6")).toBe(true);
    expect(check("::1", "ipv6")).toBe(true);
    expect(check("11.0.0.1", "ipv4")).toBe(false);
    expect(check("192.168.1.8", "ipv4")).toBe(false);
    expect(check("::ffff:11.0.0.1", "ipv6")).toBe(false);
    expect(check("fd00:2::1", "ipv6")).toBe(false);
    expect(check("127.0.0.1", "ipv4")).toBe(false);
  });

  it("takes other header names, in lower case as Node has them", () => {
    expect(
      parseTrustedProxy({ [ADDRESSES]: "10.0.0.1", [USER]: "X-Forwarded-Email", [GROUPS]: "X-Forwarded-Groups" }),
    ).toMatchObject({ userHeader: "x-forwarded-email", groupsHeader: "x-forwarded-groups" });
  });

  it.each([
    ["10.0.0.300", `${ADDRESSES} is "10.0.0.300" (entry "10.0.0.300": it must be an IP address or a CIDR range`],
    ["proxy.example.com", `${ADDRESSES} is "proxy.example.com" (entry "proxy.example.com": it must be an IP address`],
    ["10.0.0.0/8/8", `${ADDRESSES} is "10.0.0.0/8/8" (entry "10.0.0.0/8/8": it must be an IP address`],
    ["fe80::1%eth0", `${ADDRESSES} is "fe80::1%eth0" (entry "fe80::1%eth0": it must be an IP address`],
    [
      "10.0.0.0/33",
      `${ADDRESSES} is "10.0.0.0/33" (entry "10.0.0.0/33": the prefix length must be a number from 1 to 32`,
    ],
    [
      "fd00::/129",
      `${ADDRESSES} is "fd00::/129" (entry "fd00::/129": the prefix length must be a number from 1 to 128`,
    ],
    ["10.0.0.0/", `${ADDRESSES} is "10.0.0.0/" (entry "10.0.0.0/": the prefix length must be a number`],
    ["10.0.0.0/x", `${ADDRESSES} is "10.0.0.0/x" (entry "10.0.0.0/x": the prefix length must be a number`],
    ["0.0.0.0/0", `${ADDRESSES} is "0.0.0.0/0" (entry "0.0.0.0/0": a /0 range would believe every client`],
    ["::/0", `${ADDRESSES} is "::/0" (entry "::/0": a /0 range would believe every client`],
    ["10.0.0.1,,10.0.0.2", `${ADDRESSES} is "10.0.0.1,,10.0.0.2" (an empty entry)`],
  ])("refuses the address entry %j, naming it", (value, message) => {
    expect(() => parseTrustedProxy({ [ADDRESSES]: value })).toThrow(message);
  });

  it.each([
    [USER, "X Remote User", `${USER} is "X Remote User", expected a header name`],
    [GROUPS, "X-Groups:", `${GROUPS} is "X-Groups:", expected a header name`],
    [USER, "Authorization", `${USER} is "Authorization" (it names a header Almanac reads for itself)`],
    [USER, "x-almanac-proxy-user", `${USER} is "x-almanac-proxy-user" (it names a header Almanac reads for itself)`],
    [GROUPS, "X-Remote-User", `${GROUPS} is "X-Remote-User": it names the same header as ${USER}`],
  ])("refuses %s=%j, naming it", (variable, value, message) => {
    expect(() => parseTrustedProxy({ [ADDRESSES]: "10.0.0.1", [variable]: value })).toThrow(message);
    // A wrong name is a mistake even while the feature is off.
    expect(() => parseTrustedProxy({ [variable]: value })).toThrow(message);
  });
});
