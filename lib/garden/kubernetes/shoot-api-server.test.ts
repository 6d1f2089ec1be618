import { ApiException } from "@kubernetes/client-node";
import { describe, expect, it } from "vitest";
import { SHOOT_MESSAGE_MAX_CHARS, shootApiServerRefusal } from "./shoot-api-server.ts";

const SERVER = "https://api.s.dev.example.com";

describe("the shoot API server's refusal", () => {
  it("passes on its Status message", () => {
    const body = JSON.stringify({ kind: "Status", message: 'nodes is forbidden: User "x" cannot list' });
    expect(shootApiServerRefusal(new ApiException(403, "Forbidden", body, {}), SERVER)).toEqual({
      code: "ShootApiServerFailed",
      server: SERVER,
      status: 403,
      message: 'nodes is forbidden: User "x" cannot list',
    });
  });

  it("passes on no more than the first characters of a long answer (a proxy's HTML page)", () => {
    const page = `<html>${"x".repeat(20_000)}</html>`;
    const refusal = shootApiServerRefusal(new ApiException(502, "Bad Gateway", page, {}), SERVER);
    const message = (refusal && "message" in refusal && refusal.message) || "";
    expect(message).toHaveLength(SHOOT_MESSAGE_MAX_CHARS);
    expect(message.startsWith("<html>xxx")).toBe(true);
    expect(message.endsWith("…")).toBe(true);
  });
});
