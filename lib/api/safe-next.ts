// Where sign-in goes afterwards: only a path of this site, since a `next` pointing elsewhere
// would make sign-in an open redirect. Read as the browser will ("/\t/evil.example" is
// "//evil.example" once the tab is dropped), and kept only when it stays on this origin. The
// resolved path must not start with two slashes (or a slash and a backslash) either: "/..//x",
// "/.//x" and "/%2e%2e//x" resolve to "//x", which the browser reads as another host when it is
// assigned as a location. What is returned resolves to itself, so reading it again changes nothing.
const HERE = "https://almanac.invalid";
const FALLBACK = "/shoots";

/** The path, query and hash of `next` as this origin's, or undefined when it would leave it. */
function onThisOrigin(next: string): string | undefined {
  if (!next.startsWith("/")) return undefined;
  let url: URL;
  try {
    url = new URL(next, HERE);
  } catch {
    return undefined;
  }
  if (url.origin !== HERE) return undefined;
  const path = `${url.pathname}${url.search}${url.hash}`;
  return /^\/[/\\]/.test(path) ? undefined : path;
}

export function safeNext(next: string | undefined): string {
  if (!next) return FALLBACK;
  const path = onThisOrigin(next);
  // A second reading must give the same path: a path that changes again is not kept.
  return path !== undefined && onThisOrigin(path) === path ? path : FALLBACK;
}

/** Whether `target` is a path safeNext keeps as it is (for the server's check of a callbackURL). */
export const isSafeNext = (target: string): boolean => safeNext(target) === target;
