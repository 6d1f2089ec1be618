// Which garden objects changed, across processes: writers call notifyChange inside their
// transaction (PostgreSQL delivers it at commit, and never for a rolled-back change); every
// process that reads listens on one connection. Caches compare `revision()` to know whether
// anything changed since they were filled. The live updates of the UI build on the same feed.
import pg from "pg";
import { Prisma } from "./generated/client.ts";
import type { Tx } from "./client.ts";

export const CHANNEL = "almanac_changes";

export interface Change {
  readonly kind: string;
  readonly namespace?: string;
  readonly name?: string;
}

export async function notifyChange(tx: Tx, change: Change): Promise<void> {
  await tx.$executeRaw(Prisma.sql`SELECT pg_notify(${CHANNEL}, ${JSON.stringify(change)})`);
}

type Listener = (change: Change) => void;

interface FeedState {
  revision: number;
  connected: boolean;
  client?: pg.Client;
  starting?: Promise<void>;
  listeners: Set<Listener>;
  /** The changes of the last RECENT_MS, oldest first, with when this process learnt of them. */
  recent: { at: number; change: Change }[];
  /** Before this moment the recent changes are not complete (not listening yet, or dropped). */
  recentFrom: number;
}

// One per process (module copies in Next's bundles share it through globalThis).
const state: FeedState = ((globalThis as { almanacChangeFeed?: FeedState }).almanacChangeFeed ??= {
  revision: 0,
  connected: false,
  listeners: new Set(),
  recent: [],
  recentFrom: Infinity,
});

// How far back a page that connects late can be told what it missed (changesSince).
const RECENT_MS = 60_000;
const RECENT_MAX = 10_000;

function bump(change: Change): void {
  state.revision++;
  const now = Date.now();
  state.recent.push({ at: now, change });
  // The oldest go once they are RECENT_MS old, or beyond RECENT_MAX (a maintenance window's
  // burst); the latter in one go at twice the size, so that a burst does not shift the array on
  // every change.
  const excess = state.recent.length > 2 * RECENT_MAX ? state.recent.length - RECENT_MAX : 0;
  let drop = excess;
  while (drop < state.recent.length && state.recent[drop].at < now - RECENT_MS) drop++;
  if (drop > 0) {
    state.recentFrom = Math.max(state.recentFrom, state.recent[drop - 1].at + 1);
    state.recent.splice(0, drop);
  }
  for (const listener of state.listeners) listener(change);
}

/**
 * The changes this process learnt of at or after `since` (epoch ms), or undefined when it cannot
 * tell them all (it was not listening then, or they are too long ago): a page that read its data
 * before it followed the event stream asks for what changed in between.
 */
export function changesSince(since: number): Change[] | undefined {
  if (!state.connected || since < state.recentFrom) return undefined;
  return state.recent.filter((r) => r.at >= since).map((r) => r.change);
}

/** This process changed something: caches here must not wait for the notification. */
export function noteLocalChange(change: Change): void {
  bump(change);
}

/**
 * The current revision, or undefined while not listening (then nothing may be cached).
 * Starts listening on first use.
 */
export function revision(url: string): number | undefined {
  if (!state.connected && !state.starting) {
    state.starting = listen(url).finally(() => (state.starting = undefined));
  }
  return state.connected ? state.revision : undefined;
}

/**
 * Whether this process listens to the notifications now: from then on every committed change
 * reaches onChange listeners. The change stream tells its clients so (tests wait for it instead
 * of guessing how long connecting takes).
 */
export function isListening(): boolean {
  return state.connected;
}

export function onChange(listener: Listener): () => void {
  state.listeners.add(listener);
  return () => state.listeners.delete(listener);
}

async function listen(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  const lost = () => {
    if (state.client !== client) return;
    state.connected = false;
    state.client = undefined;
    state.recentFrom = Infinity;
    // Notifications may have been missed while disconnected: everything counts as changed.
    bump({ kind: "*" });
    client.end().catch(() => {});
  };
  client.on("error", lost);
  client.on("end", lost);
  client.on("notification", (message) => {
    try {
      bump(JSON.parse(message.payload ?? "{}") as Change);
    } catch {
      bump({ kind: "*" });
    }
  });
  try {
    await client.connect();
    await client.query(`LISTEN ${CHANNEL}`);
    state.client = client;
    state.connected = true;
    state.recent = [];
    state.recentFrom = Date.now();
    bump({ kind: "*" });
  } catch {
    await client.end().catch(() => {});
  }
}
