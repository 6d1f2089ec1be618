let lastMs = Number.NaN;
let lastText = "";

/** Go's metav1.Time serialisation: RFC 3339 in UTC with whole seconds. */
export function formatTime(ms: number): string {
  // Maintaining a fleet formats the same moment thousands of times.
  if (ms !== lastMs) {
    lastText = new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(".000Z", "Z");
    lastMs = ms;
  }
  return lastText;
}
