// The embedded server is Almanac's to keep running: when it ends without being asked to (killed,
// crashed, out of memory), it is started again on the same port, so that every pool's URL stays
// valid and the API recovers by itself. Starts that fail are tried again, waiting longer each time.
import type { PostgresServer } from "./postgres-server.ts";

export interface SupervisedServer {
  /** The process serving now (changes after a restart). */
  readonly pid: number;
  stop(): Promise<void>;
}

const FIRST_DELAY_MS = 250;
const MAX_DELAY_MS = 10_000;

export function supervise(
  first: PostgresServer,
  restart: () => Promise<PostgresServer>,
  log: (message: string) => void,
): SupervisedServer {
  let current = first;
  let stopping = false;
  let restarting: Promise<void> | undefined;

  const watch = (server: PostgresServer) =>
    void server.exited.then((how) => {
      if (stopping || server !== current) return;
      log(`Almanac: the embedded PostgreSQL (pid ${server.pid}) ended on its own (${how}); starting it again.\n`);
      restarting = startAgain();
    });

  async function startAgain(): Promise<void> {
    for (let delay = FIRST_DELAY_MS; !stopping; delay = Math.min(delay * 2, MAX_DELAY_MS)) {
      // Its backends leave once they notice it gone; until then a new server refuses to start.
      await new Promise((r) => setTimeout(r, delay));
      if (stopping) return;
      try {
        const server = await restart();
        current = server;
        log(`Almanac: the embedded PostgreSQL runs again (pid ${server.pid}).\n`);
        if (stopping) await server.stop();
        else watch(server);
        return;
      } catch (error) {
        log(`Almanac: starting the embedded PostgreSQL again failed: ${(error as Error).message}\n`);
      }
    }
  }

  watch(first);
  return {
    get pid() {
      return current.pid;
    },
    stop: async () => {
      stopping = true;
      await restarting;
      await current.stop();
    },
  };
}
