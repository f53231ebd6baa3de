"use client";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from "react";
import { useApi } from "../../lib/api-context.tsx";
import type { SidebarRow } from "../../lib/lineage-tree.ts";
import { ShellForest } from "../../lib/shell-forest.ts";
import { useShells } from "../../lib/shells-store.tsx";
import { archiveWithUndo } from "../../lib/archive-with-undo.ts";
import { confirmArchive } from "../../lib/confirm-archive.ts";
import { useAction } from "../../lib/use-action.ts";
import { ConnectionBadge } from "../common/connection-badge.tsx";
import { VirtualList } from "../common/virtual-list.tsx";
import { ProjectRow } from "./project-row.tsx";
import { ThreadRow } from "./thread-row.tsx";
import { ActionError } from "../common/action-error.tsx";
import { ArchivedList } from "./archived-list.tsx";
import { AppTools } from "../ui/app-tools.tsx";

/** Two lines: the title, then provider, branch and relative time (issue 29). */
const ROW_HEIGHT = 42;
const rowKey = (row: SidebarRow) => row.key;

function activeThreadId(pathname: string): string | null {
  const match = /^\/threads\/([^/]+)/.exec(pathname);
  return match ? decodeURIComponent(match[1]!) : null;
}

/** Projects and their lineage trees, searchable, windowed, live through `thread.watchShells`. */
export function Sidebar({ onNavigate }: { onNavigate?: () => void }) {
  const client = useApi();
  const { shells, projects, watch, loaded, refreshThread, hasMore, loadMore, search, found } =
    useShells();
  const pathname = usePathname();
  const [query, setQuery] = useState("");
  const deferredQuery = useDeferredValue(query);
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const archive = useAction();
  const runArchive = archive.run;

  // Issue 29: threads the server found by a message match too (for the query it answered).
  const excerpts = found.query === deferredQuery.trim() ? found.excerpts : undefined;
  // One forest per list: keystrokes and the server's answers reuse what it keeps, and the next
  // list's forest the titles it lower-cased (issue 29).
  const previousForest = useRef<ShellForest | undefined>(undefined);
  const forest = useMemo(() => new ShellForest(shells, previousForest.current), [shells]);
  useEffect(() => {
    previousForest.current = forest;
  }, [forest]);
  const rows = useMemo(
    () =>
      forest.view(projects, {
        query: deferredQuery,
        collapsed,
        ...(excerpts ? { excerpts } : {}),
      }),
    [projects, forest, deferredQuery, collapsed, excerpts],
  );
  const pendingTotal = useMemo(() => {
    let total = 0;
    for (const shell of shells.values()) total += shell.pendingRequestCount;
    return total;
  }, [shells]);

  const toggle = useCallback((id: string) => {
    setCollapsed((previous) => {
      const next = new Set(previous);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }, []);
  const onArchive = useCallback(
    (threadId: string, title: string) => {
      if (!confirmArchive(title)) return;
      void runArchive(() => archiveWithUndo(client, { id: threadId, title }, refreshThread));
    },
    [runArchive, client, refreshThread],
  );

  const current = activeThreadId(pathname);
  // Stable between renders, so a keystroke's first render (the typed text, the rows not yet
  // filtered for it) leaves the list alone (VirtualList is memoized).
  const renderRow = useCallback(
    (row: SidebarRow) =>
      row.kind === "project" ? (
        <ProjectRow row={row} onToggle={toggle} />
      ) : (
        <ThreadRow
          row={row}
          active={row.shell.id === current}
          onToggle={toggle}
          onArchive={onArchive}
        />
      ),
    [current, toggle, onArchive],
  );

  return (
    <nav
      className="sidebar"
      aria-label="Projects and threads"
      onClickCapture={(event) => {
        if (event.target instanceof Element && event.target.closest("a")) onNavigate?.();
      }}
    >
      <div className="sidebar-head">
        <Link href="/" className="brand">
          Skein
        </Link>
        <ConnectionBadge watch={watch} label="threads" />
        <AppTools />
      </div>
      <div className="sidebar-links">
        <Link href="/" aria-current={pathname === "/" ? "page" : undefined}>
          Projects
        </Link>
        <Link href="/approvals" aria-current={pathname === "/approvals" ? "page" : undefined}>
          Approvals{" "}
          {pendingTotal > 0 && <span className="badge badge-waiting">{pendingTotal}</span>}
        </Link>
        <Link href="/usage" aria-current={pathname === "/usage" ? "page" : undefined}>
          Usage
        </Link>
      </div>
      <input
        type="search"
        className="sidebar-search"
        placeholder="Search threads and messages"
        aria-label="Search threads"
        value={query}
        onChange={(event) => {
          setQuery(event.target.value);
          // B7: the list holds the pages loaded so far; a search also asks the server for its
          // matches, from the input's own event: the answer is most of a search's wait (issue
          // 29), so it is asked before anything is rendered for the new text.
          search(event.target.value);
        }}
      />
      <ActionError error={archive.failure} prefix="Archive failed." />
      {!loaded ? (
        <p className="muted pad">Loading threads…</p>
      ) : rows.length === 0 ? (
        <p className="muted pad">
          {query ? "No thread matches." : "No projects yet. Create one on the Projects page."}
        </p>
      ) : (
        <VirtualList
          items={rows}
          rowHeight={ROW_HEIGHT}
          getKey={rowKey}
          renderRow={renderRow}
          label="Threads"
        />
      )}
      {loaded && hasMore && (
        <button type="button" className="link-button sidebar-more" onClick={() => loadMore()}>
          Older threads
        </button>
      )}
      <ArchivedList />
    </nav>
  );
}
