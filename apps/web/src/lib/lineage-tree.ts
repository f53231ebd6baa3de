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

type ProjectRow = Extract<SidebarRow, { kind: "project" }>;
type Tree = { roots: Map<string, ThreadShell[]>; children: Map<string, ThreadShell[]> };
/** What a search adds to each thread row; null when not searching. */
type Search = {
  context(shell: ThreadShell): boolean;
  excerpt(shell: ThreadShell): ExcerptParts | null;
};
type TitleMatches = { query: string; shells: ThreadShell[]; set: Set<ThreadShell> };

const NO_EXCERPTS: ReadonlyMap<string, string> = new Map();
const byActivity = (a: ThreadShell, b: ThreadShell) =>
  a.lastActivityAt < b.lastActivityAt ? 1 : a.lastActivityAt > b.lastActivityAt ? -1 : cmp(a, b);
const byCreation = (a: ThreadShell, b: ThreadShell) =>
  a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : cmp(a, b);
const cmp = (a: ThreadShell, b: ThreadShell) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
const parentOf = (shell: ThreadShell): string | null => shell.lineage?.parentThreadId ?? null;

/**
 * Projects, each with its threads as a lineage tree: roots by most recent activity, forks and
 * subagents nested under their source in creation order. With a query, only matching threads and
 * the ancestors that give them context remain, and collapsing is ignored so every match shows.
 * Iterative throughout: a 64-deep fork chain costs no recursion. A list that is rendered again
 * and again (the sidebar's) passes a `ShellForest`, which keeps work between builds.
 */
export function buildSidebarRows(
  projects: readonly Project[],
  shells: ShellForest | Iterable<ThreadShell>,
  options: SidebarOptions,
): SidebarRow[] {
  return (shells instanceof ShellForest ? shells : new ShellForest(shells)).rows(projects, options);
}

/**
 * One thread list as the sidebar reads it. Issue 29: at 100,000 threads a build from scratch cost
 * 30-100 ms per keystroke (a copy of the list, every title lower-cased, every thread sorted), and
 * the list is built twice per search (the text typed, then the server's message matches). The
 * shells store replaces its Map whenever a row changes, so one forest per Map can keep what does
 * not depend on the query: the Map itself (not copied), the lower-cased titles (made at the first
 * search), the last query's title matches (the message matches arriving for the same query only
 * add to them), and the full list's rows (clearing the search box shows them again at no cost).
 * A search sorts only what it shows.
 */
export class ShellForest {
  private readonly byId: ReadonlyMap<string, ThreadShell>;
  private readonly list: readonly ThreadShell[];
  private lowered: readonly string[] | null = null;
  private matched: TitleMatches | null = null;
  private tree: Tree | null = null;
  private full: {
    projects: readonly Project[];
    collapsed: ReadonlySet<string>;
    rows: SidebarRow[];
  } | null = null;

  /** A Map is taken as the list, keyed by thread id, and must not change afterwards. */
  constructor(shells: ReadonlyMap<string, ThreadShell> | Iterable<ThreadShell>) {
    if (shells instanceof Map) this.byId = shells as ReadonlyMap<string, ThreadShell>;
    else {
      const all = new Map<string, ThreadShell>();
      for (const shell of shells as Iterable<ThreadShell>) all.set(shell.id, shell);
      this.byId = all;
    }
    this.list = Array.from(this.byId.values());
  }

  /** The sidebar's rows; the same array again for the full list with the same arguments. */
  rows(projects: readonly Project[], options: SidebarOptions): SidebarRow[] {
    const query = options.query.trim().toLowerCase();
    if (query !== "") return this.searched(projects, query, options.excerpts ?? NO_EXCERPTS);
    const full = this.full;
    if (full?.projects === projects && full.collapsed === options.collapsed) return full.rows;
    const rows = this.build(projects, this.sortedTree(), options.collapsed, null);
    this.full = { projects, collapsed: options.collapsed, rows };
    return rows;
  }

  private searched(
    projects: readonly Project[],
    query: string,
    excerpts: ReadonlyMap<string, string>,
  ): SidebarRow[] {
    const titled = this.titleMatches(query);
    // A match and its ancestors are shown; a walk stops at a thread already shown (its
    // ancestors are too), so each thread is visited once.
    const visible = new Set<ThreadShell>();
    const show = (shell: ThreadShell | undefined) => {
      while (shell !== undefined && !visible.has(shell)) {
        visible.add(shell);
        const parentId = parentOf(shell);
        shell = parentId ? this.byId.get(parentId) : undefined;
      }
    };
    for (const shell of titled.shells) show(shell);
    for (const id of excerpts.keys()) show(this.byId.get(id));

    const tree: Tree = { roots: new Map(), children: new Map() };
    for (const shell of visible) this.place(tree, shell);
    for (const list of tree.children.values()) list.sort(byCreation);
    for (const list of tree.roots.values()) list.sort(byActivity);
    if (unlistedCount(projects, tree) > 1) this.inListOrder(tree, visible);
    const search: Search = {
      context: (shell) => !titled.set.has(shell) && !excerpts.has(shell.id),
      excerpt: (shell) => {
        const text = titled.set.has(shell) ? undefined : excerpts.get(shell.id);
        return text === undefined ? null : excerptParts(text, query);
      },
    };
    return this.build(projects, tree, null, search);
  }

  /** Lower-cased once per list: a keystroke then costs one `includes` per thread. */
  private titleMatches(query: string): TitleMatches {
    if (this.matched?.query === query) return this.matched;
    this.lowered ??= this.list.map((shell) => shell.title.toLowerCase());
    const shells: ThreadShell[] = [];
    for (let i = 0; i < this.list.length; i += 1) {
      const shell = this.list[i]!;
      // Ids are ASCII (ids.ts), so lower-casing keeps their length: only an id as long as the
      // query can equal it.
      if (
        this.lowered[i]!.includes(query) ||
        (shell.id.length === query.length && shell.id.toLowerCase() === query)
      ) {
        shells.push(shell);
      }
    }
    this.matched = { query, shells, set: new Set(shells) };
    return this.matched;
  }

  /** Roots by project (in order of first root), children by parent, as the full list has them. */
  private sortedTree(): Tree {
    if (this.tree !== null) return this.tree;
    const tree: Tree = { roots: new Map(), children: new Map() };
    for (const shell of this.list) this.place(tree, shell);
    for (const list of tree.children.values()) list.sort(byCreation);
    for (const list of tree.roots.values()) list.sort(byActivity);
    this.tree = tree;
    return tree;
  }

  private place(tree: Tree, shell: ThreadShell): void {
    const root = this.isRoot(shell);
    const group = root ? tree.roots : tree.children;
    const key = root ? shell.projectId : parentOf(shell)!;
    const list = group.get(key);
    if (list === undefined) group.set(key, [shell]);
    else list.push(shell);
  }

  /**
   * Projects not in the project list are headed in the order their first root comes in the
   * thread list; a search collects its threads in another order, so it restores that one (rare:
   * two projects the list has not loaded yet).
   */
  private inListOrder(tree: Tree, visible: ReadonlySet<ThreadShell>): void {
    const ordered = new Map<string, ThreadShell[]>();
    for (const shell of this.list) {
      if (ordered.size === tree.roots.size) break;
      if (!visible.has(shell) || ordered.has(shell.projectId) || !this.isRoot(shell)) continue;
      ordered.set(shell.projectId, tree.roots.get(shell.projectId)!);
    }
    tree.roots = ordered;
  }

  private isRoot(shell: ThreadShell): boolean {
    const parentId = shell.lineage?.parentThreadId;
    return !(parentId && this.byId.has(parentId));
  }

  private build(
    projects: readonly Project[],
    tree: Tree,
    collapsed: ReadonlySet<string> | null,
    search: Search | null,
  ): SidebarRow[] {
    const headings: { id: string; title: string }[] = projects.map((p) => ({
      id: p.id,
      title: p.title,
    }));
    const listed = new Set(headings.map((h) => h.id));
    for (const projectId of tree.roots.keys()) {
      if (!listed.has(projectId)) headings.push({ id: projectId, title: "Unlisted project" });
    }
    const rows: SidebarRow[] = [];
    for (const heading of headings) {
      const roots = tree.roots.get(heading.id) ?? [];
      if (search !== null && roots.length === 0) continue;
      const projectCollapsed = collapsed?.has(heading.id) ?? false;
      const row: ProjectRow = {
        kind: "project",
        key: `project:${heading.id}`,
        projectId: heading.id,
        title: heading.title,
        threadCount: 0,
        collapsed: projectCollapsed,
      };
      rows.push(row);
      const shown = projectCollapsed
        ? -1
        : this.appendThreads(rows, roots, tree, collapsed, search);
      // Every thread of the project was listed unless something was collapsed.
      row.threadCount = shown >= 0 ? shown : countTree(roots, tree.children);
    }
    return rows;
  }

  /** Appends the threads under `roots` depth first; the count appended, or -1 if any hid some. */
  private appendThreads(
    rows: SidebarRow[],
    roots: readonly ThreadShell[],
    tree: Tree,
    collapsedIds: ReadonlySet<string> | null,
    search: Search | null,
  ): number {
    let count = 0;
    let hid = false;
    const shells: ThreadShell[] = [];
    const depths: number[] = [];
    for (let i = roots.length - 1; i >= 0; i -= 1) {
      shells.push(roots[i]!);
      depths.push(0);
    }
    while (shells.length > 0) {
      const shell = shells.pop()!;
      const depth = depths.pop()!;
      const kids = tree.children.get(shell.id);
      const childCount = kids?.length ?? 0;
      const collapsed = childCount > 0 && (collapsedIds?.has(shell.id) ?? false);
      const parentId = parentOf(shell);
      rows.push({
        kind: "thread",
        key: `thread:${shell.id}`,
        shell,
        depth,
        relationship: shell.lineage?.relationshipToParent ?? null,
        orphan: parentId !== null && !this.byId.has(parentId),
        childCount,
        collapsed,
        context: search?.context(shell) ?? false,
        excerpt: search?.excerpt(shell) ?? null,
      });
      count += 1;
      if (collapsed) hid = true;
      if (collapsed || kids === undefined) continue;
      for (let i = kids.length - 1; i >= 0; i -= 1) {
        shells.push(kids[i]!);
        depths.push(depth + 1);
      }
    }
    return hid ? -1 : count;
  }
}

function unlistedCount(projects: readonly Project[], tree: Tree): number {
  if (tree.roots.size < 2) return 0;
  const listed = new Set<string>(projects.map((p) => p.id));
  let count = 0;
  for (const projectId of tree.roots.keys()) if (!listed.has(projectId)) count += 1;
  return count;
}

function countTree(roots: readonly ThreadShell[], children: Map<string, ThreadShell[]>): number {
  let count = 0;
  const stack = [...roots];
  while (stack.length > 0) {
    const shell = stack.pop()!;
    count += 1;
    for (const kid of children.get(shell.id) ?? []) stack.push(kid);
  }
  return count;
}
