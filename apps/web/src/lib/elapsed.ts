/** "4 s", "1 m 05 s", "2 h 03 m": how long a run has been going (or went). */
export function formatElapsed(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  if (hours > 0) return `${hours} h ${String(minutes).padStart(2, "0")} m`;
  if (minutes > 0) return `${minutes} m ${String(seconds).padStart(2, "0")} s`;
  return `${seconds} s`;
}

/**
 * A run's elapsed time: from its start (or its request while still queued) to its end, or to
 * `now` while it is active. Null when the times are missing or unreadable.
 */
export function runElapsedMs(
  run: { requestedAt: string; startedAt: string | null; completedAt: string | null },
  now: number,
): number | null {
  const from = Date.parse(run.startedAt ?? run.requestedAt);
  const to = run.completedAt === null ? now : Date.parse(run.completedAt);
  if (Number.isNaN(from) || Number.isNaN(to)) return null;
  return Math.max(0, to - from);
}
