import { type ExcerptParts, excerptParts } from "./excerpt.ts";
import type { Project, ThreadShell } from "./types.ts";

/** One line of the sidebar: a project heading or a thread at some depth of its lineage tree. */
export type SidebarRow =
  | {
      kind: "project";
      key: string;
      projectId: string;
      title: string;
      threadCount: number;
      collapsed: boolean;
    }
  | {
      kind: "thread";
      key: string;
      shell: ThreadShell;
      depth: number;
      /** How this thread relates to the row it is nested under (E2). */
      relationship: "fork" | "subagent" | null;
      /** The lineage names a parent this list does not have (archived or deleted). */
      orphan: boolean;
      childCount: number;
      collapsed: boolean;
      /** Shown only because a descendant matches the search. */
      context: boolean;
      /** Issue 29: found by a message, not its title: that message's text around the match. */
      excerpt: ExcerptParts | null;
    };

export type SidebarOptions = {
  query: string;
  /** Collapsed project ids and thread ids (a collapsed thread hides its forks/subagents). */
  collapsed: ReadonlySet<string>;
  /**
   * Issue 29: threads the server's search found by one of their messages for this query, with
   * the text around the match; they match though their titles do not.
   */
  excerpts?: ReadonlyMap<string, string>;
};

const byActivity = (a: ThreadShell, b: ThreadShell) =>
  a.lastActivityAt < b.lastActivityAt ? 1 : a.lastActivityAt > b.lastActivityAt ? -1 : cmp(a, b);
const byCreation = (a: ThreadShell, b: ThreadShell) =>
  a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : cmp(a, b);
const cmp = (a: ThreadShell, b: ThreadShell) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

function titleMatches(shell: ThreadShell, query: string): boolean {
  return shell.title.toLowerCase().includes(query) || shell.id.toLowerCase() === query;
}

/**
 * Projects, each with its threads as a lineage tree: roots by most recent activity, forks and
 * subagents nested under their source in creation order. With a query, only matching threads and
 * the ancestors that give them context remain, and collapsing is ignored so every match shows.
 * Iterative throughout: 10,000 threads or a 64-deep fork chain cost one pass.
 */
export function buildSidebarRows(
  projects: readonly Project[],
  shells: Iterable<ThreadShell>,
  options: SidebarOptions,
): SidebarRow[] {
  const all = new Map<string, ThreadShell>();
  for (const shell of shells) all.set(shell.id, shell);
  const query = options.query.trim().toLowerCase();
  const searching = query !== "";
  const excerpts = options.excerpts ?? new Map<string, string>();
  const matches = (shell: ThreadShell) => titleMatches(shell, query) || excerpts.has(shell.id);
  const excerptOf = (shell: ThreadShell): ExcerptParts | null => {
    const text = searching && !titleMatches(shell, query) ? excerpts.get(shell.id) : undefined;
    return text === undefined ? null : excerptParts(text, query);
  };

  let visible: Set<string> | null = null;
  if (searching) {
    visible = new Set();
    for (const shell of all.values()) {
      if (!matches(shell)) continue;
      let current: ThreadShell | undefined = shell;
      while (current !== undefined && !visible.has(current.id)) {
        visible.add(current.id);
        const parentId: string | null = current.lineage?.parentThreadId ?? null;
        current = parentId ? all.get(parentId) : undefined;
      }
    }
  }

  const children = new Map<string, ThreadShell[]>();
  const rootsByProject = new Map<string, ThreadShell[]>();
  for (const shell of all.values()) {
    if (visible !== null && !visible.has(shell.id)) continue;
    const parentId = shell.lineage?.parentThreadId;
    if (parentId && all.has(parentId)) {
      const list = children.get(parentId) ?? [];
      list.push(shell);
      children.set(parentId, list);
    } else {
      const list = rootsByProject.get(shell.projectId) ?? [];
      list.push(shell);
      rootsByProject.set(shell.projectId, list);
    }
  }
  for (const list of children.values()) list.sort(byCreation);

  const headings: { id: string; title: string }[] = projects.map((p) => ({
    id: p.id,
    title: p.title,
  }));
  const listed = new Set(headings.map((h) => h.id));
  for (const projectId of rootsByProject.keys()) {
    if (!listed.has(projectId)) headings.push({ id: projectId, title: "Unlisted project" });
  }

  const rows: SidebarRow[] = [];
  for (const heading of headings) {
    const roots = (rootsByProject.get(heading.id) ?? []).sort(byActivity);
    if (searching && roots.length === 0) continue;
    const projectCollapsed = !searching && options.collapsed.has(heading.id);
    rows.push({
      kind: "project",
      key: `project:${heading.id}`,
      projectId: heading.id,
      title: heading.title,
      threadCount: countTree(roots, children),
      collapsed: projectCollapsed,
    });
    if (projectCollapsed) continue;
    const stack: { shell: ThreadShell; depth: number }[] = [];
    for (let i = roots.length - 1; i >= 0; i -= 1) stack.push({ shell: roots[i]!, depth: 0 });
    while (stack.length > 0) {
      const { shell, depth } = stack.pop()!;
      const kids = children.get(shell.id) ?? [];
      const collapsed = !searching && kids.length > 0 && options.collapsed.has(shell.id);
      const parentId = shell.lineage?.parentThreadId ?? null;
      rows.push({
        kind: "thread",
        key: `thread:${shell.id}`,
        shell,
        depth,
        relationship: shell.lineage?.relationshipToParent ?? null,
        orphan: parentId !== null && !all.has(parentId),
        childCount: kids.length,
        collapsed,
        context: searching && !matches(shell),
        excerpt: excerptOf(shell),
      });
      if (collapsed) continue;
      for (let i = kids.length - 1; i >= 0; i -= 1)
        stack.push({ shell: kids[i]!, depth: depth + 1 });
    }
  }
  return rows;
}

function countTree(roots: readonly ThreadShell[], children: Map<string, ThreadShell[]>): number {
  let count = 0;
  const stack = [...roots];
  while (stack.length > 0) {
    const shell = stack.pop()!;
    count += 1;
    stack.push(...(children.get(shell.id) ?? []));
  }
  return count;
}
