// Log lines written together, a moment after they are logged, rather than one write(2) each while
// the request that logged them waits: under load a web process spent ~5 % of its time writing its
// access lines one by one. Nothing is lost on a clean stop: the owner writes what is pending when
// the process exits (process.exit, a SIGTERM the process handles, the end of its work, an uncaught
// error). Only a process killed outright (SIGKILL) loses the last few milliseconds' lines.
// The writes stay synchronous: no write is ever in flight when the process ends.
import type { DestinationStream } from "pino";

export interface BatchedDestination extends DestinationStream {
  /** Writes every pending line now (pino's logger.flush() calls this, with a callback). */
  flush(done?: (error?: Error) => void): void;
}

export interface BatchOptions {
  /** How long a line may wait for others to join it. */
  readonly delayMs?: number;
  /** Pending text at which it is written at once, however young. */
  readonly maxPendingChars?: number;
}

/** A destination that hands `write` the lines logged within `delayMs` of each other as one text. */
export function batchedDestination(
  write: (text: string) => void,
  { delayMs = 10, maxPendingChars = 64 * 1024 }: BatchOptions = {},
): BatchedDestination {
  let pending: string[] = [];
  let pendingChars = 0;
  let timer: NodeJS.Timeout | undefined;
  const flush = (done?: (error?: Error) => void) => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (pending.length > 0) {
      const text = pending.join("");
      pending = [];
      pendingChars = 0;
      try {
        write(text);
      } catch (error) {
        if (!done) throw error;
        return done(error as Error);
      }
    }
    done?.();
  };
  return {
    write(line: string) {
      pending.push(line);
      pendingChars += line.length;
      if (pendingChars >= maxPendingChars) return flush();
      // Unreferenced: a process with nothing else to do ends, and its exit writes the lines.
      timer ??= setTimeout(() => flush(), delayMs).unref();
    },
    flush,
  };
}
