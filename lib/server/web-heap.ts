// How big a web process's heap may grow (scripts/start.mjs passes it to the processes it forks).
// V8 sizes its heap by the machine's memory: on a large machine a web process grew to 420-650 MB
// after some pages and API answers though it needs far less; capped, it collects sooner. The
// primary process (the job worker, the forecast refresh) is not capped: its work comes in batches
// of its own choosing, not from callers.
import type { Config } from "../config/load-config.ts";

/**
 * The cap in MB when none is set. Measured at 2,000 shoots (pages, APIs, exports), a web process
 * peaked at 420 MB uncapped, 390 MB with this cap, 310 MB with it and the young generation's
 * semi-spaces at WEB_SEMI_SPACE_MB.
 */
export const DEFAULT_WEB_HEAP_MB = 320;

/** The young generation's semi-space in MB: V8's default (tens of MB on a large machine) is mostly garbage. */
export const WEB_SEMI_SPACE_MB = 8;

const SETS_OLD_SPACE = /--max[-_]old[-_]space[-_]size\b/;
const SETS_SEMI_SPACE = /--max[-_]semi[-_]space[-_]size\b/;

/**
 * The node options that cap a web process's heap: ALMANAC_WEB_HEAP_MB when set (options given to a
 * process beat NODE_OPTIONS; lib/config holds it to its minimum), else the default
 * unless the operator's NODE_OPTIONS sets --max-old-space-size already; and small semi-spaces
 * unless NODE_OPTIONS sets theirs.
 */
export function webHeapOptions({ server, node }: Pick<Config, "server" | "node">): string[] {
  const options = node.nodeOptions ?? "";
  const semiSpace = SETS_SEMI_SPACE.test(options) ? [] : [`--max-semi-space-size=${WEB_SEMI_SPACE_MB}`];
  const oldSpace =
    server.webHeapMb !== undefined
      ? [`--max-old-space-size=${server.webHeapMb}`]
      : SETS_OLD_SPACE.test(options)
        ? []
        : [`--max-old-space-size=${DEFAULT_WEB_HEAP_MB}`];
  return [...oldSpace, ...semiSpace];
}
