import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { excerptParts } from "./excerpt.ts";
import { buildSidebarRows, type SidebarOptions, type SidebarRow } from "./lineage-tree.ts";
import { ShellForest } from "./shell-forest.ts";
import type { Project, ThreadShell } from "./types.ts";

/**
 * The build as it was before the forest (issue 29): everything from scratch, in the plainest
 * order. Kept as the oracle the forest must agree with, row for row.
 */
function oracleRows(
  projects: readonly Project[],
  shells: readonly ThreadShell[],
  options: SidebarOptions,
): SidebarRow[] {
  const all = new Map<string, ThreadShell>(shells.map((s) => [s.id, s]));
  const query = options.query.trim().toLowerCase();
  const searching = query !== "";
  const excerpts = options.excerpts ?? new Map<string, string>();
  const titled = (s: ThreadShell) =>
    s.title.toLowerCase().includes(query) || s.id.toLowerCase() === query;
  const matches = (s: ThreadShell) => titled(s) || excerpts.has(s.id);
  const visible = new Set<string>();
  for (const shell of all.values()) {
    if (!searching || !matches(shell)) continue;
    for (let s: ThreadShell | undefined = shell; s && !visible.has(s.id); ) {
      visible.add(s.id);
      const parentId: string | null | undefined = s.lineage?.parentThreadId;
      s = parentId ? all.get(parentId) : undefined;
    }
  }
  const shown = [...all.values()].filter((s) => !searching || visible.has(s.id));
  const isChild = (s: ThreadShell) =>
    !!s.lineage?.parentThreadId && all.has(s.lineage.parentThreadId);
  const kidsOf = (id: string) =>
    shown
      .filter((s) => isChild(s) && s.lineage?.parentThreadId === id)
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || (a.id < b.id ? -1 : 1));
  const rootsOf = (projectId: string) =>
    shown
      .filter((s) => !isChild(s) && s.projectId === projectId)
      .sort((a, b) => b.lastActivityAt.localeCompare(a.lastActivityAt) || (a.id < b.id ? -1 : 1));
  const size = (s: ThreadShell): number => 1 + kidsOf(s.id).reduce((n, k) => n + size(k), 0);
  const unlisted = [...new Set(shown.filter((s) => !isChild(s)).map((s) => s.projectId))]
    .filter((id) => !projects.some((p) => p.id === id))
    .map((id) => ({ id, title: "Unlisted project" }));
  const rows: SidebarRow[] = [];
  const visit = (shell: ThreadShell, depth: number) => {
    const kids = kidsOf(shell.id);
    const collapsed = !searching && kids.length > 0 && options.collapsed.has(shell.id);
    const parentId = shell.lineage?.parentThreadId ?? null;
    const text = searching && !titled(shell) ? excerpts.get(shell.id) : undefined;
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
      excerpt: text === undefined ? null : excerptParts(text, query),
    });
    if (!collapsed) for (const kid of kids) visit(kid, depth + 1);
  };
  for (const heading of [...projects.map((p) => ({ id: p.id, title: p.title })), ...unlisted]) {
    const roots = rootsOf(heading.id);
    if (searching && roots.length === 0) continue;
    const collapsed = !searching && options.collapsed.has(heading.id);
    const threadCount = roots.reduce((n, r) => n + size(r), 0);
    rows.push({
      kind: "project",
      key: `project:${heading.id}`,
      projectId: heading.id,
      title: heading.title,
      threadCount,
      collapsed,
    });
    if (!collapsed) for (const root of roots) visit(root, 0);
  }
  return rows;
}

const PROJECTS = ["prj_a", "prj_b"].map((id) => ({ id, title: id }) as unknown as Project);
const WORDS = ["Parser", "lexer", "docs", "Quokka", "fix"];

/** A random forest over two listed projects and two unlisted ones, with lost parents. */
const shellsArb = fc
  .array(
    fc.record({
      parent: fc.nat(40),
      lost: fc.boolean(),
      project: fc.nat(3),
      word: fc.nat(WORDS.length - 1),
      activity: fc.nat(5),
      created: fc.nat(5),
    }),
    { maxLength: 40 },
  )
  .map((specs) =>
    specs.map((spec, i): ThreadShell => {
      const parent = spec.parent % 4 === 0 || i === 0 ? null : `t${spec.parent % i}`;
      const parentThreadId = spec.lost && parent ? "gone" : parent;
      return {
        id: `t${i}`,
        projectId: ["prj_a", "prj_b", "prj_x", "prj_y"][spec.project],
        title: `${WORDS[spec.word]} ${i}`,
        lineage: parentThreadId
          ? {
              parentThreadId,
              relationshipToParent: i % 3 ? "fork" : "subagent",
              rootThreadId: "t0",
            }
          : null,
        lastActivityAt: `2026-01-0${spec.activity + 1}`,
        createdAt: `2026-01-0${spec.created + 1}`,
      } as unknown as ThreadShell;
    }),
  );

/** What the sidebar asks of one list in a row: queries typed, answers arriving, folds, clears. */
const optionsArb = fc.array(
  fc.record({
    query: fc.constantFrom("", "", "lexer", "PARSER", "qu", " docs ", "t3", "T0", "zzz"),
    collapsed: fc.subarray(["prj_a", "prj_x", "t0", "t1", "t2", "t5"]),
    excerpts: fc.option(fc.subarray(["t1", "t4", "t7", "gone", "t12"]), { nil: undefined }),
    // The list changing first, as the store changes it: a row replaced, added or removed.
    change: fc.option(
      fc.record({ op: fc.constantFrom("retitle", "add", "remove"), at: fc.nat(60) }),
      { nil: undefined },
    ),
  }),
  { minLength: 1, maxLength: 8 },
);

/** A new Map with one row replaced (retitled), added or removed, the store's way. */
function changed(
  shells: ReadonlyMap<string, ThreadShell>,
  change: { op: string; at: number },
): Map<string, ThreadShell> {
  const next = new Map(shells);
  const list = [...shells.values()];
  const shell = list[change.at % Math.max(1, list.length)];
  if (change.op === "add") {
    const id = `n${change.at}`;
    const parentThreadId = shell?.id ?? "gone";
    next.set(id, {
      ...(shell ?? list[0]),
      id,
      projectId: shell?.projectId ?? "prj_a",
      title: `${WORDS[change.at % WORDS.length]} added`,
      lineage: { parentThreadId, relationshipToParent: "fork", rootThreadId: parentThreadId },
      lastActivityAt: "2026-01-09",
      createdAt: "2026-01-09",
    } as ThreadShell);
  } else if (shell !== undefined && change.op === "retitle") {
    next.set(shell.id, { ...shell, title: `${WORDS[change.at % WORDS.length]} renamed` });
  } else if (shell !== undefined) next.delete(shell.id);
  return next;
}

describe("issue 29: the sidebar's forest", () => {
  it("property: rows from a reused forest equal the plain build, whatever the sequence", () => {
    fc.assert(
      fc.property(shellsArb, optionsArb, (initial, sequence) => {
        let map = new Map<string, ThreadShell>(initial.map((s) => [s.id, s]));
        let forest = new ShellForest(map);
        const collapsedSets = new Map<string, ReadonlySet<string>>();
        for (const step of sequence) {
          if (step.change) {
            map = changed(map, step.change);
            forest = new ShellForest(map, forest);
          }
          const shells = [...map.values()];
          // The same set object for the same folds, as React state keeps it between renders.
          const key = step.collapsed.join();
          if (!collapsedSets.has(key)) collapsedSets.set(key, new Set(step.collapsed));
          const options: SidebarOptions = {
            query: step.query,
            collapsed: collapsedSets.get(key)!,
            ...(step.excerpts && {
              excerpts: new Map(step.excerpts.map((id) => [id, `said: the lexer and ${id}`])),
            }),
          };
          const expected = oracleRows(PROJECTS, shells, options);
          expect(forest.rows(PROJECTS, options)).toEqual(expected);
          expect(buildSidebarRows(PROJECTS, shells, options)).toEqual(expected);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("a keystroke reads no title again, the message matches re-read none, rows are made as read", () => {
    let titleReads = 0;
    let rowsMade = 0;
    const shells = Array.from({ length: 1_000 }, (_, i) => {
      // Only making a row reads the relationship: it counts the rows made.
      const lineage = { parentThreadId: "gone", rootThreadId: "gone" };
      Object.defineProperty(lineage, "relationshipToParent", {
        get: () => {
          rowsMade += 1;
          return "fork";
        },
      });
      const shell = { id: `t${i}`, projectId: "prj_a", lineage, lastActivityAt: "", createdAt: "" };
      return Object.defineProperty(shell, "title", {
        get: () => {
          titleReads += 1;
          return `Thread ${i}`;
        },
      }) as unknown as ThreadShell;
    });
    const forest = new ShellForest(new Map(shells.map((s) => [s.id, s])));
    const collapsed = new Set<string>();
    const full = forest.view(PROJECTS, { query: "", collapsed });
    expect(full.length).toBe(1_002); // two project headings
    expect(rowsMade).toBe(0);
    expect(full.at(7)).toBe(full.at(7));
    expect(rowsMade).toBe(1);

    forest.view(PROJECTS, { query: "thread 99", collapsed });
    expect(titleReads).toBe(1_000);
    const found = forest.rows(PROJECTS, {
      query: "thread 99",
      collapsed,
      excerpts: new Map([["t5", "thread 99 said"]]),
    });
    forest.view(PROJECTS, { query: "thread 4", collapsed });
    expect(titleReads).toBe(1_000);
    expect(found.filter((r) => r.kind === "thread")).toHaveLength(12);
    expect(forest.view(PROJECTS, { query: "", collapsed })).toBe(full);
  });
});
