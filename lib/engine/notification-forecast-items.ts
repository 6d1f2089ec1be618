// The forecast's items as notification events (issue 30): a forced update within N days, and a
// cluster that will be stuck. Keys say what makes two findings the same event (the shoot, the
// version moved from, where, and the moment maintenance makes it), so the same update found again
// at the next sweep is dropped, while a moved window (another moment) is a new event.
import type { ForecastItem } from "./forecast.ts";
import { inTimeWords, shootWords, utcMinute } from "./notification-words.ts";

/** What an event about a forecast item says: its key, its one-line summary and its details. */
export interface ForecastItemEvent {
  readonly key: string;
  readonly summary: string;
  readonly data: Record<string, unknown>;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** Where the update lands, in words: "Kubernetes" (control plane), "pool \"a\": gardenlinux". */
function subject(item: ForecastItem, image: string | undefined): string {
  const what = item.kind === "kubernetes" ? "Kubernetes" : (image ?? "machine image");
  return item.target === "controlPlane" ? what : `pool "${item.worker ?? ""}": ${what}`;
}

function details(item: ForecastItem, at: number, image: string | undefined): Record<string, unknown> {
  return {
    target: item.target,
    ...(item.worker !== undefined ? { worker: item.worker } : {}),
    kind: item.kind,
    ...(image !== undefined ? { image } : {}),
    from: item.from,
    ...(item.to !== undefined ? { to: item.to } : {}),
    at: iso(at),
    window: item.window,
    reason: item.reason,
    cloudProfile: item.cloudProfile,
    ...(item.error ? { error: item.error } : {}),
    ...(item.risk ? { risk: item.risk } : {}),
    message: item.message,
  };
}

const where = (item: ForecastItem) => `${item.kind}:${item.worker ?? "-"}:${item.from}`;

/**
 * A forced update `days` (the threshold it was found within) ahead of `now`; `image`: a machine
 * image update's image name (the item names only versions).
 */
export function forcedUpdateEvent(
  item: ForecastItem,
  at: number,
  days: number,
  now: number,
  image?: string,
): ForecastItemEvent {
  const shoot = shootWords(item.namespace, item.name);
  return {
    key: `forced-update:${shoot}:${where(item)}:${iso(at)}:${days}`,
    summary:
      `${shoot}: Gardener will force-update ${subject(item, image)} ${item.from} → ${item.to ?? "?"} on ${utcMinute(at)} ` +
      `(${inTimeWords(at, now)}): ${item.reason}`,
    data: { ...details(item, at, image), days },
  };
}

/** A maintenance that will find no version to move to (or one the API server refuses). */
export function stuckEvent(item: ForecastItem, at: number, now: number, image?: string): ForecastItemEvent {
  const shoot = shootWords(item.namespace, item.name);
  const why = item.error || item.reason;
  return {
    key: `stuck:${shoot}:${where(item)}:${iso(at)}`,
    summary:
      `${shoot}: the maintenance on ${utcMinute(at)} (${inTimeWords(at, now)}) cannot move ${subject(item, image)} ` +
      `${item.from}${item.to !== undefined ? ` to ${item.to}` : ""}, so the cluster will be stuck: ${why}`,
    data: details(item, at, image),
  };
}
