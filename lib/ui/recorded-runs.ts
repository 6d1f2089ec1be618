// A shoot's history answer as the engine's recorded runs (update-risk.ts): its maintenance runs,
// when each ran, the audit events left out.
import type { RecordedRun } from "../engine/update-risk.ts";
import type { ShootHistoryAnswer } from "./api-types.ts";

export function recordedRuns(items: ShootHistoryAnswer["items"]): RecordedRun[] {
  return items.flatMap((item) =>
    item.type === "maintenance"
      ? [
          {
            state: item.state,
            startedAt: item.at,
            ...(item.failureReason ? { failureReason: item.failureReason } : {}),
          },
        ]
      : [],
  );
}
