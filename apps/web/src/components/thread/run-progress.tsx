"use client";
import { LoaderCircle } from "lucide-react";
import { useEffect, useState } from "react";
import { formatElapsed, runElapsedMs } from "../../lib/elapsed.ts";
import { usePastMoment } from "../../lib/past-moment.ts";
import type { Run } from "../../lib/types.ts";

const LIVE: ReadonlySet<Run["status"]> = new Set(["queued", "starting", "running", "waiting"]);

/**
 * Progress of one run in words: a spinner and a ticking elapsed time while it is live, its
 * duration once it ended. Only live runs keep a timer, so a 1,000-run thread ticks at most once.
 * Seen in the past (time travel), a run then in flight shows the time it had run by that
 * moment, still, not the time since (B8).
 */
export function RunProgress({ run }: { run: Run }) {
  const pastAt = usePastMoment();
  const inFlight = LIVE.has(run.status);
  const live = inFlight && pastAt === null;
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!live) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [live]);
  const elapsed = runElapsedMs(run, pastAt ?? (live ? now : 0));
  if (!inFlight && run.completedAt === null) return null;
  return (
    <span
      className="run-progress"
      // No live region: a clock read out every second would drown everything else.
      data-live={live ? "true" : undefined}
      data-past={inFlight && pastAt !== null ? "true" : undefined}
    >
      {live && <LoaderCircle size={13} aria-hidden className="spin" />}
      {elapsed !== null && (
        <span title={live ? "Elapsed" : inFlight ? "Elapsed by then" : "Took"}>
          {formatElapsed(elapsed)}
        </span>
      )}
    </span>
  );
}
