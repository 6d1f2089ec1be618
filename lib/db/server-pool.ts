// The pool under the server's one client (db() in client.ts), for the metrics of its use. Next
// bundles its own copy of client.ts, which makes the client on a request; the web server in front
// of Next reports the pool from start. Both find it here, on globalThis, without loading Prisma.
import type pg from "pg";

const KEY = Symbol.for("almanac.server-pool");
const holder = globalThis as { [KEY]?: pg.Pool };

export function rememberServerPool(pool: pg.Pool | undefined): void {
  holder[KEY] = pool;
}

/** The server's pool, once db() made it; undefined before. */
export const serverPool = (): pg.Pool | undefined => holder[KEY];
