// The policy handed to Next (on the request) and to the browser (on the response) is one, with a
// nonce of its own; a policy the client sent never reaches Next.
import { describe, expect, it } from "vitest";
import { applyContentSecurityPolicy, contentSecurityPolicy } from "./content-security-policy.ts";

function exchange(headers: Record<string, string | string[] | undefined> = {}) {
  const request = { headers: { ...headers } };
  const sent = new Map<string, string>();
  applyContentSecurityPolicy(request, { setHeader: (name: string, value: string) => sent.set(name, value) });
  return { request, policy: sent.get("Content-Security-Policy")! };
}

describe("the Content-Security-Policy", () => {
  it("allows scripts from Almanac and by nonce only", () => {
    const policy = contentSecurityPolicy("abc123");
    expect(policy).toContain("script-src 'self' 'nonce-abc123';");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy.match(/script-src[^;]*/)![0]).not.toMatch(/unsafe/);
  });

  it("puts the same fresh policy on request and response, replacing the client's", () => {
    const { request, policy } = exchange({
      "content-security-policy": "script-src 'nonce-chosen-by-client'",
      "content-security-policy-report-only": "script-src 'nonce-also-chosen'",
    });
    expect(request.headers["content-security-policy"]).toBe(policy);
    expect(request.headers["content-security-policy-report-only"]).toBeUndefined();
    expect(policy).not.toContain("chosen");
    const nonce = policy.match(/'nonce-([^']+)'/)![1];
    expect(nonce).toMatch(/^[A-Za-z0-9+/]{24}$/);
    expect(exchange().policy).not.toContain(nonce);
  });
});
