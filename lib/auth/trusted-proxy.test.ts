// The trusted proxy's settings: off unless addresses are listed, the addresses and ranges of both
// families (an IPv4 range also matching a dual-stack socket's ::ffff: form), the header names, and
// each kind of mistake refused with the variable and the entry named.
import { describe, expect, it } from "vitest";
import { parseTrustedProxy, trustedProxyEnabled } from "./trusted-proxy.ts";

const ADDRESSES = "ALMANAC_TRUSTED_PROXY_ADDRESSES";
const USER = "ALMANAC_TRUSTED_PROXY_USER_HEADER";
const GROUPS = "ALMANAC_TRUSTED_PROXY_GROUPS_HEADER";

describe("ALMANAC_TRUSTED_PROXY_*", () => {
  it("is off when no address is listed, with the default header names", () => {
    for (const value of [undefined, "", "  "]) {
      expect(parseTrustedProxy({ [ADDRESSES]: value })).toEqual({
        addresses: undefined,
        userHeader: "x-remote-user",
        groupsHeader: "x-remote-group",
      });
      expect(trustedProxyEnabled({ [ADDRESSES]: value })).toBe(false);
    }
    expect(trustedProxyEnabled({ [ADDRESSES]: "10.0.0.1" })).toBe(true);
  });

  it("believes the listed addresses and ranges of both families, and nothing else", () => {
    const { addresses } = parseTrustedProxy({ [ADDRESSES]: " 10.0.0.0/8, 192.168.1.7 ,fd00:1::/64,::1" });
    const check = (address: string, type: "ipv4" | "ipv6") => addresses!.check(address, type);
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
    ["10.0.0.300", `${ADDRESSES} entry "10.0.0.300": it must be an IP address or a CIDR range`],
    ["proxy.example.com", `${ADDRESSES} entry "proxy.example.com": it must be an IP address`],
    ["10.0.0.0/8/8", `${ADDRESSES} entry "10.0.0.0/8/8": it must be an IP address`],
    ["fe80::1%eth0", `${ADDRESSES} entry "fe80::1%eth0": it must be an IP address`],
    ["10.0.0.0/33", `${ADDRESSES} entry "10.0.0.0/33": the prefix length must be a number from 1 to 32`],
    ["fd00::/129", `${ADDRESSES} entry "fd00::/129": the prefix length must be a number from 1 to 128`],
    ["10.0.0.0/", `${ADDRESSES} entry "10.0.0.0/": the prefix length must be a number`],
    ["10.0.0.0/x", `${ADDRESSES} entry "10.0.0.0/x": the prefix length must be a number`],
    ["0.0.0.0/0", `${ADDRESSES} entry "0.0.0.0/0": a /0 range would believe every client`],
    ["::/0", `${ADDRESSES} entry "::/0": a /0 range would believe every client`],
    ["10.0.0.1,,10.0.0.2", `${ADDRESSES} "10.0.0.1,,10.0.0.2" has an empty entry between commas`],
  ])("refuses the address entry %j, naming it", (value, message) => {
    expect(() => parseTrustedProxy({ [ADDRESSES]: value })).toThrow(message);
  });

  it.each([
    [USER, "X Remote User", `${USER} "X Remote User" is not a header name`],
    [GROUPS, "X-Groups:", `${GROUPS} "X-Groups:" is not a header name`],
    [USER, "Authorization", `${USER} "Authorization" names a header Almanac reads for itself`],
    [USER, "x-almanac-proxy-user", `${USER} "x-almanac-proxy-user" names a header Almanac reads for itself`],
    [GROUPS, "X-Remote-User", `${USER} and ${GROUPS} name the same header "x-remote-user"`],
  ])("refuses %s=%j, naming it", (variable, value, message) => {
    expect(() => parseTrustedProxy({ [ADDRESSES]: "10.0.0.1", [variable]: value })).toThrow(message);
    // A wrong name is a mistake even while the feature is off.
    expect(() => parseTrustedProxy({ [variable]: value })).toThrow(message);
  });
});
