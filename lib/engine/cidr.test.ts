// Gardener's cidrvalidation.NetworksIntersect (pkg/utils/validation/cidr/disjoint.go): one network
// containing the other, IPv4 and IPv6.
import { describe, expect, it } from "vitest";
import { networksIntersect, parseCidr } from "./cidr.ts";

describe("NetworksIntersect", () => {
  it("is true when one network contains the other, either way round", () => {
    expect(networksIntersect("10.0.0.0/8", "10.250.0.0/16")).toBe(true);
    expect(networksIntersect("10.250.0.0/16", "10.0.0.0/8")).toBe(true);
    expect(networksIntersect("10.250.0.0/16", "10.250.0.0/16")).toBe(true);
  });

  it("is false for disjoint networks (Gardener's admission test fixture)", () => {
    const seed = ["10.241.128.0/17", "10.241.0.0/17", "10.240.0.0/16"];
    const shoot = ["100.96.0.0/11", "100.64.0.0/13", "10.250.0.0/16"];
    for (const a of seed) for (const b of shoot) expect(networksIntersect(a, b), `${a} ${b}`).toBe(false);
    expect(networksIntersect("10.241.0.0/17", "10.241.128.0/17")).toBe(false);
  });

  it("compares IPv6 networks, never across families", () => {
    expect(networksIntersect("fd8f:6d53:b97a:1::/96", "fd8f:6d53:b97a::/48")).toBe(true);
    expect(networksIntersect("fd8f:6d53:b97a:1::/96", "2001:db8::/32")).toBe(false);
    expect(networksIntersect("10.0.0.0/8", "::/0")).toBe(false);
  });

  it("parses the network address, clearing host bits", () => {
    expect(parseCidr("10.250.1.7/16")).toEqual({ family: 4, prefix: 16, network: 0x0afa0000n });
    expect(parseCidr("::1/128")).toEqual({ family: 6, prefix: 128, network: 1n });
    // Leading zeros and zones are refused, as Go's net.ParseCIDR refuses them.
    for (const bad of ["10.0.0.0", "10.0.0.256/8", "10.0.0.0/33", "1::2::3/64", "x/8", "010.0.0.0/8", "fe80::%eth0/64"])
      expect(parseCidr(bad), bad).toBeUndefined();
  });
});
