// almanac_maintenance_runs_total: counted where runs are recorded, after their transaction
// commits (lib/jobs/run-maintenance.ts for the simulated garden, the mirror for a live one).
import { metrics } from "./metrics.ts";

/** Counts runs just recorded, by outcome (the run's state: Succeeded, Failed...). */
export function maintenanceRunsRecorded(outcomes: readonly string[]): void {
  const counter = metrics().maintenanceRuns;
  for (const outcome of outcomes) counter.inc({ outcome });
}
