"use client";
import Link from "next/link";
import type { SidebarRow } from "../../lib/lineage-tree.ts";

type ProjectRowProps = {
  row: Extract<SidebarRow, { kind: "project" }>;
  onToggle(projectId: string): void;
};

export function ProjectRow({ row, onToggle }: ProjectRowProps) {
  return (
    <div className="project-row" data-project-id={row.projectId}>
      <button
        type="button"
        className="twisty"
        aria-expanded={!row.collapsed}
        aria-label={`${row.collapsed ? "Expand" : "Collapse"} project ${row.title}`}
        onClick={() => onToggle(row.projectId)}
      >
        {row.collapsed ? "▸" : "▾"}
      </button>
      <span className="project-title" title={row.title}>
        {row.title}
      </span>
      <span className="muted count">{row.threadCount}</span>
      <Link
        href={`/projects/${row.projectId}/new`}
        className="icon-button"
        aria-label={`New thread in ${row.title}`}
        title="New thread"
      >
        +
      </Link>
    </div>
  );
}
