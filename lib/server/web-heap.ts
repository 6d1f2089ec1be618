// How big a web process's heap may grow (scripts/start.mjs passes it to the processes it forks).
// V8 sizes its heap by the machine's memory: on a large machine a web process grew to 420-650 MB
// after some pages and API answers though it needs far less; capped, it collects sooner. The
// primary process (the job worker, the forecast refresh) is not capped: its work comes in batches
// of its own choosing, not from callers.

/** The cap in MB when none is set: measured traffic at 2,000 shoots peaks well under it. */
export const DEFAULT_WEB_HEAP_MB = 320;

/** A web process rests at 160-240 MB (bench:scale): a smaller cap would leave it no room to serve. */
export const MIN_WEB_HEAP_MB = 192;

const SETS_OLD_SPACE = /--max[-_]old[-_]space[-_]size\b/;

/**
 * The node options that cap a web process's heap: ALMANAC_WEB_HEAP_MB when set (options given to a
 * process beat NODE_OPTIONS), else the default unless the operator's NODE_OPTIONS sets
 * --max-old-space-size already. Throws, naming the setting, when it is not a whole number of MB
 * of at least MIN_WEB_HEAP_MB.
 */
export function webHeapOptions(env: Record<string, string | undefined>): string[] {
  const setting = env.ALMANAC_WEB_HEAP_MB?.trim();
  if (setting) {
    const mb = /^\d+$/.test(setting) ? Number(setting) : Number.NaN;
    if (!(mb >= MIN_WEB_HEAP_MB))
      throw new Error(
        `ALMANAC_WEB_HEAP_MB must be a whole number of megabytes, at least ${MIN_WEB_HEAP_MB} (it is "${setting}").`,
      );
    return [`--max-old-space-size=${mb}`];
  }
  if (SETS_OLD_SPACE.test(env.NODE_OPTIONS ?? "")) return [];
  return [`--max-old-space-size=${DEFAULT_WEB_HEAP_MB}`];
}
