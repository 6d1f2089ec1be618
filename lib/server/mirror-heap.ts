// How big the heap of a process that runs the live garden's mirror may grow (npm start's primary
// process and `npm run worker` when the garden is live). The garden, not Almanac, decides how much
// comes in; V8 sizes its heap by the machine's memory and collects lazily, so uncapped the
// mirror's process grew to 830 MB RSS at 100,000 shoots (and as much at 10,000), though at 10,000
// it ran unchanged under 160 MB. The process starts over once with the cap (relaunchWithHeap).
// Measured with bench:mirror at 10,000 shoots: 541-557 MB RSS with the old space capped at 256 MB
// (V8's young generation then grows to 3 x 64 MB), 418-420 MB with 16 MB semi-spaces as well, at
// about a tenth fewer events/s.

/** The cap in MB when none is set: twice what 10,000 shoots needed, room for pages and batches. */
export const DEFAULT_MIRROR_HEAP_MB = 256;

/** The mirror holds two list pages and two batches of up to 500 objects (~8 MB each) at once. */
export const MIN_MIRROR_HEAP_MB = 128;

/** The young generation's semi-space in MB (V8's default on a large machine is 64, mostly garbage). */
export const MIRROR_SEMI_SPACE_MB = 16;

const SETS_OLD_SPACE = /--max[-_]old[-_]space[-_]size\b/;
const SETS_SEMI_SPACE = /--max[-_]semi[-_]space[-_]size\b/;

/**
 * The node options that cap the mirror's process: ALMANAC_MIRROR_HEAP_MB when set, else the
 * default unless the operator's NODE_OPTIONS sets --max-old-space-size already; and 16 MB
 * semi-spaces unless NODE_OPTIONS sets theirs. Throws, naming the setting, when it is not a whole
 * number of MB of at least MIN_MIRROR_HEAP_MB.
 */
export function mirrorHeapOptions(env: Record<string, string | undefined>): string[] {
  const semiSpace = SETS_SEMI_SPACE.test(env.NODE_OPTIONS ?? "")
    ? []
    : [`--max-semi-space-size=${MIRROR_SEMI_SPACE_MB}`];
  return [...oldSpace(env), ...semiSpace];
}

function oldSpace(env: Record<string, string | undefined>): string[] {
  const mb = env.ALMANAC_MIRROR_HEAP_MB?.trim();
  if (mb) {
    const value = /^\d+$/.test(mb) ? Number(mb) : Number.NaN;
    if (!(value >= MIN_MIRROR_HEAP_MB))
      throw new Error(
        `ALMANAC_MIRROR_HEAP_MB must be a whole number of megabytes, at least ${MIN_MIRROR_HEAP_MB} (it is "${mb}").`,
      );
    return [`--max-old-space-size=${value}`];
  }
  if (SETS_OLD_SPACE.test(env.NODE_OPTIONS ?? "")) return [];
  return [`--max-old-space-size=${DEFAULT_MIRROR_HEAP_MB}`];
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
