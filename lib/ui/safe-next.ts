// Where sign-in goes afterwards: only a path of this site, since a `next` pointing elsewhere
// would make sign-in an open redirect. Read as the browser will ("/\t/evil.example" is
// "//evil.example" once the tab is dropped), and kept only when it stays on this origin.
const HERE = "https://almanac.invalid";

export function safeNext(next: string | undefined): string {
  if (!next || !next.startsWith("/")) return "/shoots";
  const url = new URL(next, HERE);
  return url.origin === HERE ? `${url.pathname}${url.search}${url.hash}` : "/shoots";
}
