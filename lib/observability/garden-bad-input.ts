// almanac_garden_bad_input_total: counted by the mirror where it meets what it cannot take
// (lib/garden/kubernetes/list-watch.ts, mirror-writes.ts), whether or not the write around it commits.
import { metrics } from "./metrics.ts";

/** Counts `count` objects (or watch lines) of `resource` the mirror could not take, for `reason`. */
export function badInputCounted(resource: string, reason: string, count = 1): void {
  metrics().gardenBadInput.inc({ resource, reason }, count);
}
