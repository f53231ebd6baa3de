"use client";
import { LoaderCircle } from "lucide-react";
import { useEffect, useState } from "react";
import { formatElapsed, runElapsedMs } from "../../lib/elapsed.ts";
import type { Run } from "../../lib/types.ts";

const LIVE: ReadonlySet<Run["status"]> = new Set(["queued", "starting", "running", "waiting"]);

/**
 * Progress of one run in words: a spinner and a ticking elapsed time while it is live, its
 * duration once it ended. Only live runs keep a timer, so a 1,000-run thread ticks at most once.
 */
export function RunProgress({ run }: { run: Run }) {
  const live = LIVE.has(run.status);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!live) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [live]);
  const elapsed = runElapsedMs(run, live ? now : 0);
  if (!live && run.completedAt === null) return null;
  return (
    <span
      className="run-progress inline-flex items-center gap-1 text-muted tabular-nums"
      // No live region: a clock read out every second would drown everything else.
      data-live={live ? "true" : undefined}
    >
      {live && <LoaderCircle size={13} aria-hidden className="spin text-running" />}
      {elapsed !== null && <span title={live ? "Elapsed" : "Took"}>{formatElapsed(elapsed)}</span>}
    </span>
  );
}
