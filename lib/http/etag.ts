// Entity tags of this API: a shoot's resourceVersion in quotes.
export const etag = (version: string | number) => `"${version}"`;

/** If-None-Match compares weakly: `W/"7"` and `"7"` both match version 7; `*` matches any. */
export function ifNoneMatchHits(header: string | null, version: string | number): boolean {
  if (!header) return false;
  return header
    .split(",")
    .map((t) => t.trim().replace(/^W\//, ""))
    .some((t) => t === "*" || t === etag(version));
}
