/** A run's duration for people: "45 ms", "13.5 s", "12 min 3 s" (the console's last line and report.md say the same). */
export function durationText(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  const s = ms / 1000;
  return s < 120 ? `${s.toFixed(1)} s` : `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`;
}
