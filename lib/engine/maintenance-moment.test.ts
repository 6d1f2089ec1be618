import { describe, expect, it } from "vitest";
import { maintenanceSecondOfDay, nextAtSecondOfDay, nextMaintenanceMoment } from "./maintenance-moment.ts";

describe("maintenance moments by second of day", () => {
  it("agree with nextMaintenanceMoment at every hour of a day, across midnight windows", () => {
    const windows = [
      ["220000+0000", "230000+0000"],
      ["233000+0100", "013000+0100"],
      ["030000-0500", "040000-0500"],
      ["000000+0000", "235959+0000"],
    ];
    for (const [begin, end] of windows) {
      for (const uid of ["a", "b5f1", "0f7e3c1a-1111-4a2b-9c3d-123456789abc"]) {
        const shoot = {
          metadata: { name: "s", uid },
          spec: { kubernetes: { version: "1.31.1" }, maintenance: { timeWindow: { begin, end } } },
        };
        const second = maintenanceSecondOfDay(shoot);
        for (let h = 0; h < 48; h++) {
          const from = Date.parse("2026-11-22T00:00:00Z") + h * 1_800_000 + 17_000;
          expect(nextAtSecondOfDay(second, from)).toBe(nextMaintenanceMoment(shoot, from).at);
        }
      }
    }
  });
});
