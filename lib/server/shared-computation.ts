// Work shared by everyone who asks for the same thing while the garden stays at one revision:
// the first asker starts it, askers while it runs wait for the same promise (single flight),
// and later ones take its result until it is `maxAgeMs` old (answers also move with the clock).
// A computation that fails is forgotten, so the next asker tries again.

import { LRUCache } from "lru-cache";
import { config } from "../config/load-config.ts";

// ALMANAC_ANSWER_CACHE=off computes for every asker, as it does for the answer caches.
const enabled = (): boolean => config().server.answerCache;

export interface SharedComputations<T> {
  /** `compute(now)`'s result for `key` at `revision`, computed at most once per revision and age. */
  get(key: string, revision: number | undefined, now: number, compute: () => Promise<T>): Promise<T>;
}

export function sharedComputations<T>(maxAgeMs: number, maxEntries: number): SharedComputations<T> {
  // Freshness is ours to judge (the revision, the caller's clock); the least recently used go
  // first beyond maxEntries.
  const entries = new LRUCache<string, { revision: number; at: number; value: Promise<T> }>({ max: maxEntries });
  return {
    get(key, revision, now, compute) {
      // Without a revision (the change feed is not connected) changes would go unnoticed.
      if (!enabled() || revision === undefined) return compute();
      const entry = entries.get(key);
      if (entry && entry.revision === revision && now - entry.at <= maxAgeMs && now >= entry.at) return entry.value;
      const value = compute();
      entries.set(key, { revision, at: now, value });
      value.catch(() => {
        if (entries.peek(key)?.value === value) entries.delete(key);
      });
      return value;
    },
  };
}
