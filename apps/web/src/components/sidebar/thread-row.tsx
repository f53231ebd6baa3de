"use client";
import Link from "next/link";
import type { SidebarRow } from "../../lib/lineage-tree.ts";
import { useShells } from "../../lib/shells-store.tsx";
import { nestedForkLabel } from "../../lib/use-fork.ts";
import { StatusDot } from "../common/status-dot.tsx";

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
  const parentId = row.depth > 0 ? shell.lineage?.parentThreadId : undefined;
  const label = nestedForkLabel(shell.title, parentId ? shells.get(parentId)?.title : undefined);
  return (
    <div
      className={`thread-row${active ? " active" : ""}${row.context ? " context" : ""}`}
      style={{ paddingLeft: 6 + row.depth * INDENT_PX }}
      data-thread-id={shell.id}
      data-status={shell.status}
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
      <Link
        href={`/threads/${shell.id}`}
        className="thread-link"
        aria-current={active ? "page" : undefined}
        title={shell.title}
      >
        {label}
      </Link>
      {row.relationship !== null && (
        <span className={`badge badge-${row.relationship}`}>{row.relationship}</span>
      )}
      {row.orphan && <span className="badge">source hidden</span>}
      {shell.pendingRequestCount > 0 && (
        <span className="badge badge-waiting" title="pending requests">
          {shell.pendingRequestCount}
        </span>
      )}
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
