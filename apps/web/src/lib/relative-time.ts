const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

// One formatter for every row: building one per call costs ~0.5 ms (see format.ts).
let dateFormat: Intl.DateTimeFormat | null = null;

/**
 * "just now", "3 min ago", "5 h ago", "2 d ago", then the date: how long ago `iso` was at `now`.
 * Minute steps only, so a once-a-minute tick is all the sidebar needs to stay right. A time a
 * little ahead of `now` (the server's clock against the browser's) reads as "just now".
 */
export function relativeTime(iso: string, now: number): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return "";
  const ago = now - at;
  if (ago < MINUTE) return "just now";
  if (ago < HOUR) return `${Math.floor(ago / MINUTE)} min ago`;
  if (ago < DAY) return `${Math.floor(ago / HOUR)} h ago`;
  if (ago < 7 * DAY) return `${Math.floor(ago / DAY)} d ago`;
  dateFormat ??= new Intl.DateTimeFormat([], { dateStyle: "medium" });
  return dateFormat.format(new Date(at));
}
