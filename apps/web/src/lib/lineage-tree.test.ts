import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildSidebarRows, type SidebarRow } from "./lineage-tree.ts";
import type { Project, ThreadShell } from "./types.ts";

const project = (id: string, title = id): Project =>
  ({ id, title, workspaceRoot: "/w", createdAt: "", updatedAt: "" }) as unknown as Project;

function shell(
  id: string,
  options: {
    parent?: string;
    relationship?: "fork" | "subagent";
    activity?: string;
    created?: string;
    title?: string;
    projectId?: string;
  } = {},
): ThreadShell {
  return {
    id,
    projectId: options.projectId ?? "prj_a",
    title: options.title ?? id,
    lineage: options.parent
      ? {
          parentThreadId: options.parent,
          relationshipToParent: options.relationship ?? "fork",
          rootThreadId: options.parent,
        }
      : null,
    status: "idle",
    pendingRequestCount: 0,
    lastActivityAt: options.activity ?? "2026-01-01T00:00:00.000Z",
    createdAt: options.created ?? "2026-01-01T00:00:00.000Z",
  } as unknown as ThreadShell;
}

const threadRows = (rows: SidebarRow[]) =>
  rows.flatMap((row) =>
    row.kind === "thread" ? [`${"  ".repeat(row.depth)}${row.shell.id}`] : [],
  );

const none = { query: "", collapsed: new Set<string>() };

describe("sidebar lineage tree", () => {
  it("nests forks and subagents under their source, roots by latest activity", () => {
    const rows = buildSidebarRows(
      [project("prj_a")],
      [
        shell("old", { activity: "2026-01-01T00:00:00.000Z" }),
        shell("new", { activity: "2026-01-03T00:00:00.000Z" }),
        shell("fork2", { parent: "old", created: "2026-01-02T00:00:00.000Z" }),
        shell("fork1", { parent: "old", created: "2026-01-01T01:00:00.000Z" }),
        shell("sub", { parent: "fork1", relationship: "subagent" }),
      ],
      none,
    );
    expect(threadRows(rows)).toEqual(["new", "old", "  fork1", "    sub", "  fork2"]);
    const sub = rows.find((r) => r.kind === "thread" && r.shell.id === "sub");
    expect(sub?.kind === "thread" && sub.relationship).toBe("subagent");
  });

  it("a fork whose source is hidden (archived) becomes a root, marked as such", () => {
    const rows = buildSidebarRows([project("prj_a")], [shell("f", { parent: "gone" })], none);
    const row = rows.find((r) => r.kind === "thread");
    expect(row?.kind === "thread" && row.orphan).toBe(true);
  });

  it("collapsing hides descendants; a search shows matches with their ancestors", () => {
    const shells = [
      shell("root", { title: "Refactor parser", activity: "2026-01-02T00:00:00.000Z" }),
      shell("child", { parent: "root", title: "try lexer" }),
      shell("other", { title: "Docs" }),
    ];
    const collapsed = buildSidebarRows([project("prj_a")], shells, {
      query: "",
      collapsed: new Set(["root"]),
    });
    expect(threadRows(collapsed)).toEqual(["root", "other"]);
    const searched = buildSidebarRows([project("prj_a")], shells, {
      query: "LEXER",
      collapsed: new Set(["root", "prj_a"]),
    });
    expect(threadRows(searched)).toEqual(["root", "  child"]);
    const root = searched.find((r) => r.kind === "thread" && r.shell.id === "root");
    expect(root?.kind === "thread" && root.context).toBe(true);
  });

  it("issue 29: a thread the server found by a message matches, with its excerpt; title matches carry none", () => {
    const shells = [
      shell("said", { title: "Refactor parser", activity: "2026-01-02T00:00:00.000Z" }),
      shell("titled", { title: "Quokka notes" }),
      shell("other", { title: "Docs" }),
    ];
    const rows = buildSidebarRows([project("prj_a")], shells, {
      query: "quokka",
      collapsed: new Set(),
      excerpts: new Map([
        ["said", "teach the quokka"],
        ["titled", "the quokka too"],
      ]),
    });
    expect(threadRows(rows)).toEqual(["said", "titled"]);
    const excerpts = rows.flatMap((r) => (r.kind === "thread" ? [r.excerpt] : []));
    expect(excerpts).toEqual([{ before: "teach the ", match: "quokka", after: "" }, null]);
  });

  it("groups by project in project order and lists unknown projects last", () => {
    const rows = buildSidebarRows(
      [project("prj_b", "B"), project("prj_a", "A")],
      [shell("x", { projectId: "prj_a" }), shell("y", { projectId: "prj_zzz" })],
      none,
    );
    expect(rows.filter((r) => r.kind === "project").map((r) => r.key)).toEqual([
      "project:prj_b",
      "project:prj_a",
      "project:prj_zzz",
    ]);
  });

  it("property: every thread appears exactly once, after its parent, one level deeper", () => {
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 60 }), (parents) => {
        // Thread i's parent is some earlier thread (or none): any forest of forks.
        const shells = parents.map((p, i) =>
          shell(`t${i}`, p % 3 === 0 || i === 0 ? {} : { parent: `t${p % i}` }),
        );
        const rows = buildSidebarRows([project("prj_a")], shells, none);
        const threads = rows.filter((r) => r.kind === "thread");
        expect(threads.map((r) => r.shell.id).sort()).toEqual(shells.map((s) => s.id).sort());
        const position = new Map(threads.map((r, i) => [r.shell.id, i]));
        for (const row of threads) {
          const parentId = row.shell.lineage?.parentThreadId;
          if (!parentId) continue;
          const parentRow = threads[position.get(parentId)!]!;
          expect(position.get(parentId)!).toBeLessThan(position.get(row.shell.id)!);
          expect(row.depth).toBe(parentRow.depth + 1);
        }
      }),
    );
  });

  it("a build grows with the list, not with its square (20,000 threads against 2,000, same run)", () => {
    const forest = (n: number) =>
      Array.from({ length: n }, (_, i) =>
        shell(`t${i}`, i % 4 === 0 ? {} : { parent: `t${i - (i % 4)}` }),
      );
    const build = (shells: ThreadShell[]) => {
      const started = performance.now();
      const rows = buildSidebarRows([project("prj_a")], shells, {
        query: "t99",
        collapsed: new Set(),
      });
      const all = buildSidebarRows([project("prj_a")], shells, none);
      const took = performance.now() - started;
      expect(all).toHaveLength(shells.length + 1);
      expect(rows.length).toBeGreaterThan(1);
      return took;
    };
    const small = forest(2_000);
    const large = forest(20_000);
    for (let warm = 0; warm < 3; warm += 1) build(small) + build(large);
    // Rounds interleaved and the fastest of each kept: the least disturbed by the machine.
    let smallBest = Number.POSITIVE_INFINITY;
    let largeBest = Number.POSITIVE_INFINITY;
    for (let round = 0; round < 9; round += 1) {
      smallBest = Math.min(smallBest, build(small));
      largeBest = Math.min(largeBest, build(large));
    }
    // Linear is ×10 (15–35 seen, with the sort and the cache); every pair compared is ×100.
    expect(largeBest / Math.max(smallBest, 0.05)).toBeLessThan(60);
  });
});
