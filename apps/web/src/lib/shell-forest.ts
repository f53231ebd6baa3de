import { type ExcerptParts, excerptParts } from "./excerpt.ts";
import type { SidebarOptions, SidebarRow } from "./lineage-tree.ts";
import { type ProjectRow, SidebarRowList, type ThreadRow } from "./sidebar-row-list.ts";
import type { Project, ThreadShell } from "./types.ts";

type Tree = { roots: Map<string, ThreadShell[]>; children: Map<string, ThreadShell[]> };
/** What a search adds to each thread row. */
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
 * One thread list as the sidebar reads it (`buildSidebarRows` says what the rows are). Issue 29:
 * at 100,000 threads a build from scratch cost 30-100 ms per keystroke (a copy of the list, every
 * title lower-cased, every thread sorted, every row made), and the list is built twice per search
 * (the text typed, then the server's message matches). The shells store replaces its Map
 * whenever a row changes, so one forest per Map keeps what does not depend on the query: the Map
 * itself (not copied), the lower-cased titles (made at the first search), the last query's title
 * matches (the message matches arriving for the same query only add to them) and the full list's
 * rows (a cleared search box shows them again at no cost). A search sorts only what it shows, and
 * rows are made as they are drawn (SidebarRowList).
 */
export class ShellForest {
  private readonly byId: ReadonlyMap<string, ThreadShell>;
  private readonly list: readonly ThreadShell[];
  private lowered: readonly string[] | null = null;
  /** The latest list before this one whose titles were lower-cased, to take those from. */
  private inherited: { list: readonly ThreadShell[]; lowered: readonly string[] } | null;
  private matched: TitleMatches | null = null;
  private tree: Tree | null = null;
  private full: {
    projects: readonly Project[];
    collapsed: ReadonlySet<string>;
    rows: SidebarRowList;
  } | null = null;

  /**
   * A Map is taken as the list, keyed by thread id, and must not change afterwards. With the
   * forest of the list before, a title it lower-cased is not lower-cased again: the store's Map
   * keeps each row in its place when others change or are added, so the row at the same place,
   * the same object, has the same title (a pointer compare, where a WeakMap would hash).
   */
  constructor(
    shells: ReadonlyMap<string, ThreadShell> | Iterable<ThreadShell>,
    previous?: ShellForest,
  ) {
    if (shells instanceof Map) this.byId = shells as ReadonlyMap<string, ThreadShell>;
    else {
      const all = new Map<string, ThreadShell>();
      for (const shell of shells as Iterable<ThreadShell>) all.set(shell.id, shell);
      this.byId = all;
    }
    this.list = Array.from(this.byId.values());
    // Only the list and its titles are kept, never the forest: no chain of old lists.
    this.inherited = previous?.lowered
      ? { list: previous.list, lowered: previous.lowered }
      : (previous?.inherited ?? null);
  }

  /** The rows, every one made. */
  rows(projects: readonly Project[], options: SidebarOptions): SidebarRow[] {
    return this.view(projects, options).toArray();
  }

  /** The rows, made as read; the same list again for the full list with the same arguments. */
  view(projects: readonly Project[], options: SidebarOptions): SidebarRowList {
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
  ): SidebarRowList {
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
    return this.build(projects, tree, null, {
      context: (shell) => !titled.set.has(shell) && !excerpts.has(shell.id),
      excerpt: (shell) => {
        const text = titled.set.has(shell) ? undefined : excerpts.get(shell.id);
        return text === undefined ? null : excerptParts(text, query);
      },
    });
  }

  /** Lower-cased once per list: a keystroke then costs one `includes` per thread. */
  private titleMatches(query: string): TitleMatches {
    if (this.matched?.query === query) return this.matched;
    if (this.lowered === null) {
      const before = this.inherited;
      this.inherited = null;
      this.lowered = this.list.map((shell, i) =>
        before?.list[i] === shell ? before.lowered[i]! : shell.title.toLowerCase(),
      );
    }
    const lowered = this.lowered;
    const shells: ThreadShell[] = [];
    for (let i = 0; i < this.list.length; i += 1) {
      const shell = this.list[i]!;
      // Ids are ASCII (ids.ts), so lower-casing keeps their length: only an id as long as the
      // query can equal it.
      if (
        lowered[i]!.includes(query) ||
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

  private isRoot(shell: ThreadShell): boolean {
    const parentId = shell.lineage?.parentThreadId;
    return !(parentId && this.byId.has(parentId));
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

  /** The order of the rows, depth first; thread rows are made when read. */
  private build(
    projects: readonly Project[],
    tree: Tree,
    collapsedIds: ReadonlySet<string> | null,
    search: Search | null,
  ): SidebarRowList {
    const headings = projects.map((p) => ({ id: p.id as string, title: p.title }));
    const listed = new Set(headings.map((h) => h.id));
    for (const projectId of tree.roots.keys()) {
      if (!listed.has(projectId)) headings.push({ id: projectId, title: "Unlisted project" });
    }
    const isCollapsed = (shell: ThreadShell, kids: readonly ThreadShell[] | undefined) =>
      kids !== undefined && kids.length > 0 && (collapsedIds?.has(shell.id) ?? false);
    const entries: (ProjectRow | ThreadShell)[] = [];
    const depths: number[] = [];
    const stack: ThreadShell[] = [];
    const stackDepths: number[] = [];
    for (const heading of headings) {
      const roots = tree.roots.get(heading.id) ?? [];
      if (search !== null && roots.length === 0) continue;
      const collapsed = collapsedIds?.has(heading.id) ?? false;
      const row: ProjectRow = {
        kind: "project",
        key: `project:${heading.id}`,
        projectId: heading.id,
        title: heading.title,
        threadCount: 0,
        collapsed,
      };
      entries.push(row);
      depths.push(-1);
      if (collapsed) {
        row.threadCount = countTree(roots, tree.children);
        continue;
      }
      const first = entries.length;
      let hid = false;
      // Each root's tree depth first; most threads are roots without forks, so a root goes on
      // the stack only with its descendants.
      for (const root of roots) {
        stack.push(root);
        stackDepths.push(0);
        while (stack.length > 0) {
          const shell = stack.pop()!;
          const depth = stackDepths.pop()!;
          entries.push(shell);
          depths.push(depth);
          const kids = tree.children.get(shell.id);
          if (kids === undefined) continue;
          if (isCollapsed(shell, kids)) {
            hid = true;
            continue;
          }
          for (let i = kids.length - 1; i >= 0; i -= 1) {
            stack.push(kids[i]!);
            stackDepths.push(depth + 1);
          }
        }
      }
      // Every thread of the project is listed unless a thread in it is collapsed.
      row.threadCount = hid ? countTree(roots, tree.children) : entries.length - first;
    }
    return new SidebarRowList(entries, depths, (shell, depth): ThreadRow => {
      const kids = tree.children.get(shell.id);
      const parentId = parentOf(shell);
      return {
        kind: "thread",
        key: `thread:${shell.id}`,
        shell,
        depth,
        relationship: shell.lineage?.relationshipToParent ?? null,
        orphan: parentId !== null && !this.byId.has(parentId),
        childCount: kids?.length ?? 0,
        collapsed: isCollapsed(shell, kids),
        context: search?.context(shell) ?? false,
        excerpt: search?.excerpt(shell) ?? null,
      };
    });
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
