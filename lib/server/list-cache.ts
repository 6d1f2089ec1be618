// Answers for identical fleet-list requests, kept while nothing in the garden changed (the change
// feed's revision) and for at most a second, since classifications and the "expiring within"
// filter move with the clock. Dashboards poll the same few lists; this spares the database and
// the server the same work many times a second.
const MAX_AGE_MS = 1_000;
const MAX_ENTRIES = 256;
// ALMANAC_LIST_CACHE=off answers every request from the database (bench:api measures both).
const enabled = process.env.ALMANAC_LIST_CACHE !== "off";

interface Entry {
  readonly revision: number;
  readonly at: number;
  readonly body: string;
}

const entries = new Map<string, Entry>();

export function cachedList(key: string, revision: number | undefined, now: number): string | undefined {
  if (!enabled || revision === undefined) return undefined;
  const entry = entries.get(key);
  if (!entry || entry.revision !== revision || now - entry.at > MAX_AGE_MS || now < entry.at) return undefined;
  return entry.body;
}

export function rememberList(key: string, revision: number | undefined, now: number, body: string): void {
  if (!enabled || revision === undefined) return;
  if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value!);
  entries.set(key, { revision, at: now, body });
}
