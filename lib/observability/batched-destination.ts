// Log lines written together once the event loop's current turn is done (setImmediate), rather
// than one write(2) each while the request that logged them waits: under load a web process
// spent ~5 % of its time writing its access lines one by one, and a turn of a loaded process
// answers several requests. Each line still leaves within that turn, before the next request's
// work begins. Nothing is lost on a clean stop: the owner writes what is pending when
// the process exits (process.exit, a SIGTERM the process handles, the end of its work, an uncaught
// error). Only a process killed outright (SIGKILL) loses the last few milliseconds' lines.
// The writes stay synchronous: no write is ever in flight when the process ends.
import type { DestinationStream } from "pino";

export interface BatchedDestination extends DestinationStream {
  /** Writes every pending line now (pino's logger.flush() calls this, with a callback). */
  flush(done?: (error?: Error) => void): void;
  /** Writes every pending line now, and each later one at once (the process is exiting). */
  end(): void;
}

/**
 * A destination that hands `write` the lines logged in one turn of the event loop as one text
 * (at once when they reach `maxPendingChars`).
 */
export function batchedDestination(write: (text: string) => void, maxPendingChars = 64 * 1024): BatchedDestination {
  let pending: string[] = [];
  let pendingChars = 0;
  let turnEnd: NodeJS.Immediate | undefined;
  let ended = false;
  const flush = (done?: (error?: Error) => void) => {
    if (turnEnd !== undefined) clearImmediate(turnEnd);
    turnEnd = undefined;
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
      if (ended || pendingChars >= maxPendingChars) return flush();
      // Unreferenced: a process with nothing else to do ends, and its exit writes the lines.
      turnEnd ??= setImmediate(() => flush()).unref();
    },
    flush,
    end() {
      ended = true;
      flush();
    },
  };
}
