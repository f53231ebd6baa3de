"use client";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { type ReactNode, useState } from "react";
import { PastMomentContext } from "../../lib/past-moment.ts";
import { ThreadContext } from "../../lib/use-thread-context.tsx";
import { useThreadDetail } from "../../lib/use-thread-detail.ts";
import { useTimeTravel } from "../../lib/use-time-travel.ts";
import { useMarkThreadOpened } from "../../lib/thread-opened.ts";
import { ThreadHeader } from "./thread-header.tsx";
import { TimelineScrubber } from "./timeline-scrubber.tsx";
import { ActionError } from "../common/action-error.tsx";

/**
 * Holds the open thread's live detail for all of its tabs, so switching between conversation,
 * handoffs, checkpoints and graph keeps one subscription and one cursor.
 */
export function ThreadFrame({ threadId, children }: { threadId: string; children: ReactNode }) {
  const state = useThreadDetail(threadId);
  const [isolatedForks, setIsolatedForks] = useState(false);
  const travel = useTimeTravel(threadId);
  const [timelineOpen, setTimelineOpen] = useState(false);
  const pathname = usePathname();
  const base = `/threads/${threadId}`;
  const { detail, watch } = state;
  // The sidebar's "unread": this thread is read while it is open, runs ending meanwhile included.
  useMarkThreadOpened(threadId, detail?.thread.lastRunEndedAt);
  // The past replaces the live detail in every tab; older windows belong to the live view only.
  const traveling = travel.atSequence !== null && travel.past !== null;
  const shown = traveling
    ? { ...state, detail: travel.past, older: [], hasOlder: false, loadOlder: () => {} }
    : state;
  const shownPoint = traveling
    ? travel.timeline?.points.find((p) => p.sequence === travel.atSequence)
    : undefined;
  const pastAt = shownPoint ? Date.parse(shownPoint.recordedAt) : null;
  const toggleTimeline = () => {
    if (timelineOpen) travel.moveTo(null);
    else travel.open();
    setTimelineOpen(!timelineOpen);
  };

  const tabs = [
    { href: base, label: "Conversation" },
    { href: `${base}/review`, label: "Review" },
    { href: `${base}/handoffs`, label: `Handoffs${detail ? ` (${detail.transfers.length})` : ""}` },
    {
      href: `${base}/checkpoints`,
      label: `Checkpoints${detail ? ` (${detail.checkpoints.length})` : ""}`,
    },
    { href: `${base}/graph`, label: "Graph" },
    { href: `${base}/parallel`, label: "Parallel" },
  ];

  return (
    <PastMomentContext value={traveling ? pastAt : null}>
      <ThreadContext value={{ ...shown, threadId, isolatedForks, setIsolatedForks, travel }}>
        <div className="thread-frame" data-thread-id={threadId}>
          {detail === null ? (
            <div className="page">
              {watch.status === "failed" ? (
                <ActionError error={watch.error} prefix="Cannot open this thread." />
              ) : (
                <p className="muted">Loading thread…</p>
              )}
            </div>
          ) : (
            <>
              {/* The header travels with the body: in the past it shows the thread as it was. */}
              <ThreadHeader
                detail={shown.detail ?? detail}
                past={traveling}
                watch={watch}
                isolated={isolatedForks}
                setIsolated={setIsolatedForks}
              />
              <nav className="tabs" aria-label="Thread views">
                {tabs.map((tab) => (
                  <Link
                    key={tab.href}
                    href={tab.href}
                    className="tab"
                    aria-current={decodeURIComponent(pathname) === tab.href ? "page" : undefined}
                  >
                    {tab.label}
                  </Link>
                ))}
                <button
                  type="button"
                  className="tab timeline-toggle"
                  aria-pressed={timelineOpen}
                  onClick={toggleTimeline}
                >
                  Timeline
                </button>
              </nav>
              {timelineOpen && <TimelineScrubber travel={travel} />}
              <ActionError
                error={state.readError}
                prefix="Refreshing this thread failed."
                onRetry={state.refresh}
              />
              <div className="thread-body">{children}</div>
            </>
          )}
        </div>
      </ThreadContext>
    </PastMomentContext>
  );
}
