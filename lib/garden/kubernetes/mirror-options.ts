// The mirror's settings from the environment: ALMANAC_GARDEN_LEASE_SECONDS (default 15) is how
// long a silent holder keeps the lease, and so about how long a takeover can take.
import { redactSecrets } from "../../engine/redact-secrets.ts";
import type { MirrorOptions } from "./garden-mirror.ts";

export function mirrorOptions(log: (line: string) => void, env = process.env): MirrorOptions {
  const seconds = Number(env.ALMANAC_GARDEN_LEASE_SECONDS ?? "15");
  if (!Number.isFinite(seconds) || seconds < 1 || seconds > 600)
    throw new Error(
      `ALMANAC_GARDEN_LEASE_SECONDS must be a number of seconds from 1 to 600; it is "${env.ALMANAC_GARDEN_LEASE_SECONDS}".`,
    );
  return { leaseMs: seconds * 1000, log: (line) => log(redactSecrets(line)) };
}
