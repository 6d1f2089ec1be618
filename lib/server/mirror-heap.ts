// How big the heap of a process that runs the live garden's mirror may grow (npm start's primary
// process and `npm run worker` when the garden is live). The garden, not Almanac, decides how much
// comes in; V8 sizes its heap by the machine's memory and collects lazily, so uncapped the
// mirror's process grew to 830 MB RSS at 100,000 shoots (and as much at 10,000), though at 10,000
// it ran unchanged under 160 MB. The process starts over once with the cap (relaunchWithHeap).
// Measured with bench:mirror at 10,000 shoots: 541-557 MB RSS with the old space capped at 256 MB
// (V8's young generation then grows to 3 x 64 MB), 418-420 MB with 16 MB semi-spaces as well, at
// about a tenth fewer events/s.
import type { Config } from "../config/load-config.ts";

/** The cap in MB when none is set: twice what 10,000 shoots needed, room for pages and batches. */
export const DEFAULT_MIRROR_HEAP_MB = 256;

/** The young generation's semi-space in MB (V8's default on a large machine is 64, mostly garbage). */
export const MIRROR_SEMI_SPACE_MB = 16;

const SETS_OLD_SPACE = /--max[-_]old[-_]space[-_]size\b/;
const SETS_SEMI_SPACE = /--max[-_]semi[-_]space[-_]size\b/;

/**
 * The node options that cap the mirror's process: ALMANAC_MIRROR_HEAP_MB when set (lib/config
 * holds it to its minimum), else the default unless the operator's NODE_OPTIONS
 * sets --max-old-space-size already; and 16 MB semi-spaces unless NODE_OPTIONS sets theirs.
 */
export function mirrorHeapOptions({ garden, node }: Pick<Config, "garden" | "node">): string[] {
  const options = node.nodeOptions ?? "";
  const semiSpace = SETS_SEMI_SPACE.test(options) ? [] : [`--max-semi-space-size=${MIRROR_SEMI_SPACE_MB}`];
  const oldSpace =
    garden.mirrorHeapMb !== undefined
      ? [`--max-old-space-size=${garden.mirrorHeapMb}`]
      : SETS_OLD_SPACE.test(options)
        ? []
        : [`--max-old-space-size=${DEFAULT_MIRROR_HEAP_MB}`];
  return [...oldSpace, ...semiSpace];
}

/**
 * Starts this process over with `options` (the same pid, arguments and environment, through
 * execve), unless it runs with them already. A heap's limit is fixed when the process starts, so
 * this must come before anything is opened (no database, no port, no child).
 */
export function relaunchWithHeap(options: readonly string[]): void {
  if (options.every((option) => process.execArgv.includes(option))) return;
  process.execve!(process.execPath, [process.execPath, ...options, ...process.execArgv, ...process.argv.slice(1)]);
}
