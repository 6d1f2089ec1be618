// Seconds as the deletion's cleanup is read out: "0 s", "90 s", "5 min", "1 h", "1 h 30 min".
export function describeSeconds(seconds: number): string {
  if (seconds < 0) return `${seconds} s`;
  if (seconds < 120 && seconds % 60 !== 0) return `${seconds} s`;
  if (seconds === 0) return "0 s";
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  if (minutes < 60) return rest === 0 ? `${minutes} min` : `${minutes} min ${rest} s`;
  const hours = Math.floor(minutes / 60);
  const m = minutes % 60;
  return m === 0 && rest === 0 ? `${hours} h` : `${hours} h ${m} min${rest ? ` ${rest} s` : ""}`;
}
