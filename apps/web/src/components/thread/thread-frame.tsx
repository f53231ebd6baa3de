"use client";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { type ReactNode, useState } from "react";
import { ThreadContext } from "../../lib/use-thread-context.tsx";
import { useThreadDetail } from "../../lib/use-thread-detail.ts";
import { ThreadHeader } from "./thread-header.tsx";

/**
 * Holds the open thread's live detail for all of its tabs, so switching between conversation,
 * handoffs, checkpoints and graph keeps one subscription and one cursor.
 */
export function ThreadFrame({ threadId, children }: { threadId: string; children: ReactNode }) {
  const state = useThreadDetail(threadId);
  const [isolatedForks, setIsolatedForks] = useState(false);
  const pathname = usePathname();
  const base = `/threads/${threadId}`;
  const { detail, watch } = state;

  const tabs = [
    { href: base, label: "Conversation" },
    { href: `${base}/handoffs`, label: `Handoffs${detail ? ` (${detail.transfers.length})` : ""}` },
    {
      href: `${base}/checkpoints`,
      label: `Checkpoints${detail ? ` (${detail.checkpoints.length})` : ""}`,
    },
    { href: `${base}/graph`, label: "Graph" },
  ];

  return (
    <ThreadContext value={{ ...state, threadId, isolatedForks, setIsolatedForks }}>
      <div className="thread-frame" data-thread-id={threadId}>
        {detail === null ? (
          <div className="page">
            {watch.status === "failed" ? (
              <p className="error" role="alert">
                Cannot open this thread: {watch.error}
              </p>
            ) : (
              <p className="muted">Loading thread…</p>
            )}
          </div>
        ) : (
          <>
            <ThreadHeader detail={detail} watch={watch} />
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
            </nav>
            {state.readError && (
              <p className="error" role="alert">
                Refresh failed: {state.readError}
              </p>
            )}
            <div className="thread-body">{children}</div>
          </>
        )}
      </div>
    </ThreadContext>
  );
}
