// How big a web process's heap may grow (scripts/start.mjs passes it to the processes it forks).
// V8 sizes its heap by the machine's memory: on a large machine a web process grew to 420-650 MB
// after some pages and API answers though it needs far less; capped, it collects sooner. The
// primary process (the job worker, the forecast refresh) is not capped: its work comes in batches
// of its own choosing, not from callers.

/**
 * The cap in MB when none is set. Measured at 2,000 shoots (pages, APIs, exports), a web process
 * peaked at 420 MB uncapped, 390 MB with this cap, 310 MB with it and the young generation's
 * semi-spaces at WEB_SEMI_SPACE_MB.
 */
export const DEFAULT_WEB_HEAP_MB = 320;

/** The young generation's semi-space in MB: V8's default (tens of MB on a large machine) is mostly garbage. */
export const WEB_SEMI_SPACE_MB = 8;

/** A web process rests at 160-240 MB (bench:scale): a smaller cap would leave it no room to serve. */
export const MIN_WEB_HEAP_MB = 192;

const SETS_OLD_SPACE = /--max[-_]old[-_]space[-_]size\b/;
const SETS_SEMI_SPACE = /--max[-_]semi[-_]space[-_]size\b/;

/**
 * The node options that cap a web process's heap: ALMANAC_WEB_HEAP_MB when set (options given to a
 * process beat NODE_OPTIONS), else the default unless the operator's NODE_OPTIONS sets
 * --max-old-space-size already; and small semi-spaces unless NODE_OPTIONS sets theirs. Throws,
 * naming the setting, when it is not a whole number of MB of at least MIN_WEB_HEAP_MB.
 */
export function webHeapOptions(env: Record<string, string | undefined>): string[] {
  const options = env.NODE_OPTIONS ?? "";
  const semiSpace = SETS_SEMI_SPACE.test(options) ? [] : [`--max-semi-space-size=${WEB_SEMI_SPACE_MB}`];
  return [...oldSpace(env.ALMANAC_WEB_HEAP_MB, options), ...semiSpace];
}

function oldSpace(setting: string | undefined, nodeOptions: string): string[] {
  const mb = setting?.trim();
  if (mb) {
    const value = /^\d+$/.test(mb) ? Number(mb) : Number.NaN;
    if (!(value >= MIN_WEB_HEAP_MB))
      throw new Error(
        `ALMANAC_WEB_HEAP_MB must be a whole number of megabytes, at least ${MIN_WEB_HEAP_MB} (it is "${mb}").`,
      );
    return [`--max-old-space-size=${value}`];
  }
  if (SETS_OLD_SPACE.test(nodeOptions)) return [];
  return [`--max-old-space-size=${DEFAULT_WEB_HEAP_MB}`];
}
