// Parses Go duration strings such as "720h", "1h30m" or "90s" (metav1.Duration in the API).
import { HOUR_MS, MINUTE_MS, SECOND_MS } from "./time-units.ts";

const UNIT_MS: Record<string, number> = { ns: 1e-6, us: 1e-3, "µs": 1e-3, ms: 1, s: SECOND_MS, m: MINUTE_MS, h: HOUR_MS };

export function parseGoDuration(text: string): number | undefined {
  if (!/^[+-]?(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$/.test(text) && text !== "0") return undefined;
  if (text === "0") return 0;
  const sign = text.startsWith("-") ? -1 : 1;
  let total = 0;
  for (const m of text.matchAll(/(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/g)) total += Number(m[1]) * UNIT_MS[m[2]];
  return sign * total;
}
