/** Go's metav1.Time serialisation: RFC 3339 in UTC with whole seconds. */
export function formatTime(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(".000Z", "Z");
}
