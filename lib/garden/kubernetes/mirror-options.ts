// The mirror's settings: ALMANAC_GARDEN_LEASE_SECONDS (default 15, read by lib/config) is how
// long a silent holder keeps the lease, and so about how long a takeover can take.
import { type Config, config } from "../../config/load-config.ts";
import { redactSecrets } from "../../engine/redact-secrets.ts";
import type { MirrorOptions } from "./garden-mirror.ts";

export function mirrorOptions(
  log: (line: string) => void,
  { garden }: Pick<Config, "garden"> = config(),
): MirrorOptions {
  return { leaseMs: garden.leaseMs, log: (line) => log(redactSecrets(line)) };
}
