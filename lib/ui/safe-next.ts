// Where sign-in goes afterwards: only a path of this site, since a `next` pointing elsewhere
// would make sign-in an open redirect.
export const safeNext = (next: string | undefined): string =>
  next && next.startsWith("/") && !next.startsWith("//") && !next.startsWith("/\\") ? next : "/shoots";
