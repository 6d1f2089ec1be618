// The groups of a company sign-in, from the issuer's verified answer to the end of the same
// callback. better-auth copies a provider's profile only into fields a person may also set
// themselves (through its /update-user path); groups bring roles, so they must not be such a
// field. They wait here instead, keyed by email, and the callback's end writes them to the person.
const WAIT_MS = 5 * 60_000;
const waiting = new Map<string, { groups: readonly string[]; at: number }>();

export function holdGroups(email: string, groups: readonly string[], now = Date.now()): void {
  for (const [key, entry] of waiting) if (now - entry.at > WAIT_MS) waiting.delete(key); // abandoned sign-ins
  waiting.set(email.toLowerCase(), { groups, at: now });
}

/** The groups held for `email` (once), or undefined when its sign-in held none. */
export function takeGroups(email: string): readonly string[] | undefined {
  const entry = waiting.get(email.toLowerCase());
  waiting.delete(email.toLowerCase());
  return entry?.groups;
}
