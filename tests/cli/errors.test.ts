// Input and flag problems: exit code 2, a message naming the file (and line for YAML errors) and
// the problem, nothing on standard output and never a stack trace.
import { describe, expect, it } from "vitest";
import { almanac, almanacFails, expectNoStackTrace, fixture } from "./run-almanac.ts";

describe("exit 2 on unusable input", () => {
  it("a missing file: names the file", () => {
    const stderr = almanacFails(["maintain", "-f", fixture("does-not-exist.yaml"), "--now", "2025-01-01T00:00:00Z"]);
    expect(stderr).toContain("tests/fixtures/does-not-exist.yaml");
    expect(stderr).toMatch(/no such file/i);
  });

  it("a missing file among good ones, for every command that reads files", () => {
    for (const command of ["maintain", "status", "validate", "forecast"]) {
      const stderr = almanacFails([command, "-f", fixture("k8s-auto-patch.yaml"), "-f", fixture("nope.yaml")]);
      expect(stderr, command).toContain("tests/fixtures/nope.yaml");
    }
  });

  it("a directory instead of a file", () => {
    expect(almanacFails(["status", "-f", "tests/fixtures"])).toContain("tests/fixtures");
  });

  it("a YAML syntax error: names the file and the line (in the second document)", () => {
    const stderr = almanacFails(["maintain", "-f", fixture("bad-syntax.yaml"), "--now", "2025-01-01T00:00:00Z"]);
    expect(stderr).toContain("tests/fixtures/bad-syntax.yaml:17");
    expect(stderr).toMatch(/YAML/);
    expect(stderr).toMatch(/nested mapping/i);
    // One line, without the parser's own dangling "at line N, column M:" before its code frame.
    expect(stderr.trim().split("\n")).toHaveLength(1);
    expect(stderr.trim()).not.toMatch(/:$/);
  });

  it("a YAML syntax error on standard input names standard input and the line", () => {
    const stderr = almanacFails(["status", "-f", "-"], { input: "kind: Shoot\nmetadata:\n  name: a: b\n" });
    expect(stderr).toMatch(/stdin|standard input/);
    expect(stderr).toMatch(/:3\b/);
  });

  it("a JSON syntax error: names the file and the line", () => {
    const stderr = almanacFails(["validate", "-f", fixture("bad-syntax.json")]);
    expect(stderr).toContain("tests/fixtures/bad-syntax.json:5");
  });

  it("a document that is not an object", () => {
    const stderr = almanacFails(["status", "-f", "-"], { input: "just a string\n" });
    expect(stderr).toMatch(/stdin|standard input/);
    expect(stderr).toMatch(/object/);
  });

  it("a shoot without spec.kubernetes.version", () => {
    const input =
      "apiVersion: core.gardener.cloud/v1beta1\nkind: Shoot\nmetadata:\n  name: x\nspec:\n  kubernetes: {}\n";
    expect(almanacFails(["maintain", "-f", "-"], { input })).toContain("spec.kubernetes.version");
  });

  it("a shoot whose cloud profile is missing: names the file, the shoot and the profile", () => {
    const stderr = almanacFails(["maintain", "-f", fixture("missing-profile.yaml"), "--now", "2025-01-01T00:00:00Z"]);
    expect(stderr).toContain("tests/fixtures/missing-profile.yaml");
    expect(stderr).toContain("orphan");
    expect(stderr).toContain('"azure"');
  });

  it("a cloud profile given in another file is not missing", () => {
    expect(almanacFails(["maintain", "-f", fixture("shoots-only.yaml")])).toContain('"split"');
    expect(almanac(["maintain", "-f", fixture("shoots-only.yaml"), "-f", fixture("profiles-only.yaml")]).status).toBe(
      0,
    );
  });
});

describe("exit 2 on bad flags and commands", () => {
  it("an unknown flag", () => {
    expect(almanacFails(["maintain", "-f", fixture("k8s-auto-patch.yaml"), "--bogus"])).toContain("--bogus");
    expect(
      almanacFails(["window", "--begin", "220000+0100", "--end", "230000+0100", "--now", "2025-01-01T00:00:00Z"]),
    ).toContain("--now");
  });

  it("an unknown command", () => {
    expect(almanacFails(["frobnicate", "-f", fixture("k8s-auto-patch.yaml")])).toContain("frobnicate");
  });

  it("no command at all", () => {
    const run = almanac([]);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/usage/i);
    expectNoStackTrace(run.stderr);
  });

  it("no -f, or a file given without -f", () => {
    expect(almanacFails(["maintain"])).toMatch(/-f/);
    expect(almanacFails(["status", fixture("status.yaml")])).toContain("tests/fixtures/status.yaml");
  });

  it("a flag without its value", () => {
    expect(almanacFails(["maintain", "-f", fixture("k8s-auto-patch.yaml"), "--now"])).toContain("--now");
  });

  it("a --now that is not an RFC 3339 time, including impossible dates Date.parse would roll over", () => {
    for (const now of [
      "yesterday",
      "2025-01-01",
      "2025-01-01T00:00:00",
      "2025-13-01T00:00:00Z",
      "2025-02-30T00:00:00Z",
      "2025-02-29T12:00:00Z",
      "2025-04-31T00:00:00Z",
      "2025-01-01T24:00:00Z",
      "2025-01-01T12:60:00Z",
    ]) {
      const stderr = almanacFails(["maintain", "-f", fixture("k8s-auto-patch.yaml"), "--now", now]);
      expect(stderr, now).toContain("--now");
      expect(stderr, now).toContain(now);
    }
  });

  it("accepts leap days and offsets in --now", () => {
    for (const now of [
      "2024-02-29T12:00:00Z",
      "2000-02-29T00:00:00Z",
      "2025-12-31T23:59:59+05:30",
      "2025-06-01T10:00:00.123-07:00",
    ]) {
      expect(almanac(["maintain", "-f", fixture("k8s-auto-patch.yaml"), "--now", now]).status, now).toBe(0);
    }
  });
});
