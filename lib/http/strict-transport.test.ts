import { describe, expect, it } from "vitest";
import { HSTS, strictTransport } from "./strict-transport.ts";

describe("Strict-Transport-Security", () => {
  it("is sent when the public URL is https, and not over http or without one", () => {
    expect(strictTransport("https://almanac.example.com")).toBe(HSTS);
    expect(strictTransport("HTTPS://Almanac.example.com/")).toBe(HSTS);
    expect(strictTransport("http://almanac.example.com")).toBeUndefined();
    expect(strictTransport(undefined)).toBeUndefined();
  });
});
