import type { WatchState } from "../../lib/use-watch.ts";

const TEXT: Record<WatchState["status"], string> = {
  connecting: "connecting…",
  live: "live",
  reconnecting: "reconnecting…",
  failed: "disconnected",
};

/** Says whether a watch is live; the cursor is exposed for debugging and tests. */
export function ConnectionBadge({ watch, label }: { watch: WatchState; label: string }) {
  return (
    <span
      className={`connection connection-${watch.status}`}
      role="status"
      aria-label={`${label} ${TEXT[watch.status]}`}
      title={watch.error ?? `${label}: ${TEXT[watch.status]}`}
      data-cursor={watch.cursor.cursor ?? ""}
      data-duplicates={watch.cursor.duplicates}
    >
      {TEXT[watch.status]}
    </span>
  );
}
