// `almanac forecast`: the forced updates maintenance will make between --from and --from + N days.
import { crc32 } from "node:zlib";
import { describe, expect, it } from "vitest";
import { almanacFails, almanacJson, fixture } from "./run-almanac.ts";

interface ForecastItem {
  namespace: string;
  name: string;
  cloudProfile: string;
  target: string;
  kind: string;
  at: string;
  window: { begin: string; end: string };
  from: string;
  to?: string;
  reason: string;
  stuck: boolean;
  message: string;
}
interface ForecastOutput {
  days: number;
  from: string;
  to: string;
  items: ForecastItem[];
  problems: unknown[];
}

const FROM = "2019-04-10T00:00:00Z";

/**
 * Where in its window a shoot is maintained: begin + crc32(uid) mod duration minutes (Gardener's
 * RandomizeWithinTimeWindow).
 */
function momentInWindow(windowBegin: string, uid: string, windowMinutes: number): string {
  const at = Date.parse(windowBegin) + (crc32(uid) % windowMinutes) * 60_000;
  return new Date(at).toISOString().replace(".000Z", "Z");
}

describe("forecast", () => {
  const tenDays = () =>
    almanacJson<ForecastOutput>(["forecast", "-f", fixture("forecast.yaml"), "--from", FROM, "--days", "10"]);

  it("lists the forced updates in time order, leaving out automatic updates", () => {
    const out = tenDays();
    expect(out.from).toBe(FROM);
    expect(out.to).toBe("2019-04-20T00:00:00Z");
    expect(out.problems).toEqual([]);
    const seen = out.items.map((i) => [i.name, i.from, i.to ?? null, i.stuck]);
    expect(seen.filter(([name]) => name !== "stuck")).toEqual([
      ["chain", "1.9.9", "1.10.13", false],
      ["chain", "1.10.13", "1.11.10", false],
      ["expiring", "1.10.12", "1.10.13", false],
    ]);
    expect(out.items.some((i) => i.name === "auto-only")).toBe(false);
    const times = out.items.map((i) => Date.parse(i.at));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
  });

  it("schedules an expiring version in the first window after its expiration date", () => {
    const item = tenDays().items.find((i) => i.name === "expiring")!;
    expect(item).toMatchObject({
      namespace: "garden-dev",
      cloudProfile: "aws",
      target: "controlPlane",
      kind: "kubernetes",
      from: "1.10.12",
      to: "1.10.13",
      reason: "Kubernetes version expired - force update required",
      stuck: false,
      // 220000+0100..230000+0100 is 21:00..22:00 UTC; maintenance runs until 15 minutes before the end
      window: { begin: "2019-04-13T21:00:00Z", end: "2019-04-13T21:45:00Z" },
    });
    expect(item.at).toBe(momentInWindow("2019-04-13T21:00:00Z", "7b5cf0a4-2f43-4c2e-9c53-0d6f2b1c9e11", 45));
    expect(item.message).toContain("1.10.13");
  });

  it("steps an expired chain one minor per maintenance window", () => {
    const chain = tenDays().items.filter((i) => i.name === "chain");
    expect(chain.map((i) => i.window.begin)).toEqual(["2019-04-10T01:00:00Z", "2019-04-11T01:00:00Z"]);
    const uid = "3c2d1e0f-aaaa-4bbb-8ccc-123456789abd";
    expect(chain.map((i) => i.at)).toEqual([
      momentInWindow("2019-04-10T01:00:00Z", uid, 45),
      momentInWindow("2019-04-11T01:00:00Z", uid, 45),
    ]);
  });

  it("reports a shoot that cannot leave its expired version as stuck, without a target", () => {
    const stuck = tenDays().items.filter((i) => i.name === "stuck");
    expect(stuck.length).toBeGreaterThanOrEqual(1);
    expect(stuck[0]).toMatchObject({ namespace: "garden-prod", cloudProfile: "aws-old", from: "1.7.5", stuck: true });
    expect(stuck[0]).not.toHaveProperty("to");
    expect(stuck[0].window.begin).toBe("2019-04-10T12:00:00Z");
    expect(stuck[0].message).toContain("1.7.5");
  });

  it("--days limits the horizon", () => {
    const out = almanacJson<ForecastOutput>([
      "forecast",
      "-f",
      fixture("forecast.yaml"),
      "--from",
      FROM,
      "--days",
      "2",
    ]);
    expect(out.to).toBe("2019-04-12T00:00:00Z");
    expect(out.items.every((i) => Date.parse(i.at) <= Date.parse(out.to))).toBe(true);
    expect(out.items.some((i) => i.name === "expiring")).toBe(false);
    expect(out.items.filter((i) => i.name === "chain").map((i) => i.to)).toEqual(["1.10.13", "1.11.10"]);
  });

  it("forecasts nothing for a shoot that only gets automatic updates", () => {
    const out = almanacJson<ForecastOutput>([
      "forecast",
      "-f",
      fixture("k8s-auto-patch.yaml"),
      "--from",
      "2024-01-01T00:00:00Z",
      "--days",
      "5",
    ]);
    expect(out.items).toEqual([]);
    expect(out.problems).toEqual([]);
  });

  it("exits 2 for a --days that is not a positive whole number, or a bad --from", () => {
    for (const days of ["0", "-3", "1.5", "soon"]) {
      expect(almanacFails(["forecast", "-f", fixture("forecast.yaml"), "--from", FROM, "--days", days])).toMatch(
        /--days/,
      );
    }
    expect(almanacFails(["forecast", "-f", fixture("forecast.yaml"), "--from", "2019-04-10"])).toMatch(/--from/);
  });

  it("exits 2 when a shoot's cloud profile is missing", () => {
    const stderr = almanacFails(["forecast", "-f", fixture("missing-profile.yaml"), "--from", FROM]);
    expect(stderr).toContain("tests/fixtures/missing-profile.yaml");
    expect(stderr).toContain('"azure"');
  });
});
