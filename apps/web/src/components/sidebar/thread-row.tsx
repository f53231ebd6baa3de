"use client";
import Link from "next/link";
import type { SidebarRow } from "../../lib/lineage-tree.ts";
import { useApi } from "../../lib/api-context.tsx";
import { preopenThreadDetail } from "../../lib/use-thread-detail.ts";
import { useShells } from "../../lib/shells-store.tsx";
import { nestedForkLabel } from "../../lib/use-fork.ts";
import { rowAttention } from "../../lib/row-attention.ts";
import { seenUpTo, useOpenedVersion } from "../../lib/thread-opened.ts";
import { StatusDot } from "../common/status-dot.tsx";
import { MessageExcerpt } from "./message-excerpt.tsx";
import { ThreadRowMeta } from "./thread-row-meta.tsx";

type ThreadRowProps = {
  row: Extract<SidebarRow, { kind: "thread" }>;
  active: boolean;
  onToggle(threadId: string): void;
  onArchive(threadId: string, title: string): void;
};

const INDENT_PX = 14;

export function ThreadRow({ row, active, onToggle, onArchive }: ThreadRowProps) {
  const { shell } = row;
  const { shells } = useShells();
  const client = useApi();
  const parentId = row.depth > 0 ? shell.lineage?.parentThreadId : undefined;
  const label = nestedForkLabel(shell.title, parentId ? shells.get(parentId)?.title : undefined);
  // Re-read when any thread is opened (this one's unread state may have cleared).
  useOpenedVersion();
  const attention = rowAttention(shell, active ? null : seenUpTo(shell.id));
  return (
    <div
      className={`thread-row${active ? " active" : ""}${row.context ? " context" : ""}`}
      style={{ paddingLeft: 6 + row.depth * INDENT_PX }}
      data-thread-id={shell.id}
      data-status={shell.status}
      data-attention={attention ?? undefined}
    >
      {row.childCount > 0 ? (
        <button
          type="button"
          className="twisty"
          aria-expanded={!row.collapsed}
          aria-label={`${row.collapsed ? "Show" : "Hide"} ${row.childCount} threads under ${shell.title}`}
          onClick={() => onToggle(shell.id)}
        >
          {row.collapsed ? "▸" : "▾"}
        </button>
      ) : (
        <span className="twisty-spacer" />
      )}
      <StatusDot status={shell.status} />
      <span className="thread-row-body">
        <span className="thread-row-line">
          <Link
            href={`/threads/${shell.id}`}
            className="thread-link"
            aria-current={active ? "page" : undefined}
            title={shell.title}
            onClick={(event) => {
              // A click the router navigates with (not a new tab): the thread's snapshot is
              // asked for now, alongside the page, not once the page has rendered.
              const plain =
                event.button === 0 &&
                !(event.metaKey || event.ctrlKey || event.shiftKey || event.altKey);
              if (plain) preopenThreadDetail(client, shell.id, shell.runCount);
            }}
          >
            {label}
          </Link>
          {row.relationship !== null && (
            <span className={`badge badge-${row.relationship}`}>{row.relationship}</span>
          )}
          {row.orphan && <span className="badge">source hidden</span>}
          {attention === "needs-you" && (
            <span
              className="badge badge-waiting needs-you"
              title={
                shell.pendingRequestCount === 1
                  ? "1 request waiting for you"
                  : `${shell.pendingRequestCount} requests waiting for you`
              }
            >
              needs you
            </span>
          )}
          {attention === "unread" && (
            <span
              className="unread-dot"
              role="img"
              aria-label="unread"
              title="A run finished since you last opened this thread"
            />
          )}
        </span>
        {row.excerpt === null ? (
          <ThreadRowMeta shell={shell} />
        ) : (
          <MessageExcerpt parts={row.excerpt} />
        )}
      </span>
      <button
        type="button"
        className="icon-button row-action"
        aria-label={`Archive ${shell.title}`}
        title="Archive"
        onClick={() => onArchive(shell.id, shell.title)}
      >
        ×
      </button>
    </div>
  );
}
