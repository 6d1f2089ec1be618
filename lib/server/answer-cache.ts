// Answers kept while nothing in the garden changed (the change feed's revision) and for at most
// `maxAgeMs`, since answers also move with the clock (classifications, "expiring within").
// Dashboards poll the same few queries; this spares the database the same work many times.
import { LRUCache } from "lru-cache";
import { config } from "../config/load-config.ts";

export interface AnswerCache<Body> {
  get(key: string, revision: number | undefined, now: number): Body | undefined;
  set(key: string, revision: number | undefined, now: number, body: Body): void;
}

// ALMANAC_ANSWER_CACHE=off answers every request afresh (bench:api measures both).
const enabled = (): boolean => config().server.answerCache;

export function answerCache<Body>(maxAgeMs: number, maxEntries: number): AnswerCache<Body> {
  // Whether an answer is still good is ours to say (the revision, the caller's clock); the least
  // recently used go first beyond maxEntries.
  const entries = new LRUCache<string, { revision: number; at: number; body: Body }>({ max: maxEntries });
  return {
    get(key, revision, now) {
      // Without a revision (the feed is not connected) changes would go unnoticed: no caching.
      if (!enabled() || revision === undefined) return undefined;
      const entry = entries.get(key);
      if (!entry || entry.revision !== revision || now - entry.at > maxAgeMs || now < entry.at) return undefined;
      return entry.body;
    },
    set(key, revision, now, body) {
      if (!enabled() || revision === undefined) return;
      entries.set(key, { revision, at: now, body });
    },
  };
}
