// almanac_garden_write_outcomes_total: how each write to a live garden ended up recorded
// (lib/garden/kubernetes/garden-shoot-change.ts, write-intents.ts). "unknown" needs a look: a
// change nobody saw the garden's answer to.
import { metrics } from "./metrics.ts";

export type GardenWriteOutcome = "recorded" | "refused" | "deferred" | "pending" | "resolved" | "unknown";

export function gardenWriteOutcome(outcome: GardenWriteOutcome): void {
  metrics().gardenWriteOutcomes.inc({ outcome });
}
