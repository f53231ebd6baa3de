/**
 * Issue 29 micro-bench, in node: what one search costs `buildSidebarRows` at 100,000 threads, step
 * by step as the sidebar meets them: the list changes (a page of threads lands), a query is typed,
 * the server's message matches arrive for it, the search box is cleared. Two ways, rounds
 * interleaved so load hits both alike, medians printed:
 * - reused: one `ShellForest` per list, as the sidebar holds it (it makes the rows it draws);
 * - scratch: every build from the list's values, as the sidebar built before the forest;
 * - with SKEIN_SIDEBAR_BASELINE_REV=<git rev>, also lineage-tree.ts as it was at that commit
 *   (one from before the forest, e.g. 7ea309d: its own imports are read from this checkout).
 * Prints figures only (no rows for `pnpm bench`: ui_sidebar_search_ms is the measure; this says
 * where its time goes). `../api/node_modules/.bin/tsx bench/sidebar-rows.bench.ts` in apps/web;
 * SKEIN_SIDEBAR_THREADS, SKEIN_SIDEBAR_ROUNDS size it.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { buildSidebarRows, type SidebarOptions } from "../src/lib/lineage-tree.ts";
import { ShellForest } from "../src/lib/shell-forest.ts";
import type { Project, ThreadShell } from "../src/lib/types.ts";

const THREADS = Number(process.env.SKEIN_SIDEBAR_THREADS ?? 100_000);
const ROUNDS = Number(process.env.SKEIN_SIDEBAR_ROUNDS ?? 15);
const WEB_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** Rows the sidebar draws at once (a 900 px window of 42 px rows, with overscan). */
const DRAWN = 30;
const pad = (n: number) => String(n).padStart(5, "0");
const idOf = (n: number) => `thr_${pad(n)}${"x".repeat(20)}`;

/** The UI bench's history (bench/sidebar-search.ts), newest first, with every tenth a fork. */
function history(threads: number): Map<string, ThreadShell> {
  const shells = new Map<string, ThreadShell>();
  for (let n = threads - 1; n >= 0; n -= 1) {
    const at = new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString();
    const parent = n % 10 === 5 ? idOf(n - 5) : null;
    shells.set(idOf(n), {
      id: idOf(n),
      projectId: "prj_big",
      title: `Thread ${pad(n)}`,
      lineage: parent && {
        parentThreadId: parent,
        relationshipToParent: "fork",
        rootThreadId: parent,
      },
      status: "idle",
      pendingRequestCount: 0,
      lastActivityAt: at,
      createdAt: at,
    } as unknown as ThreadShell);
  }
  return shells;
}

type Build = (shells: ReadonlyMap<string, ThreadShell>) => (options: SidebarOptions) => unknown;
const STEPS = ["list changed", "query typed", "messages found", "search cleared"] as const;

/** One search as the sidebar lives it; ms per step. */
function search(build: Build, shells: ReadonlyMap<string, ThreadShell>, n: number): number[] {
  const collapsed = new Set<string>();
  const query = `module ${pad(n)}`;
  const steps: SidebarOptions[] = [
    { query: "", collapsed },
    { query, collapsed },
    { query, collapsed, excerpts: new Map([[idOf(n), `Please look at ${query} and tidy`]]) },
    { query: "", collapsed },
  ];
  const times: number[] = [];
  let rowsOf: ((options: SidebarOptions) => unknown) | null = null;
  for (const options of steps) {
    const started = performance.now();
    rowsOf ??= build(shells);
    rowsOf(options);
    times.push(performance.now() - started);
  }
  return times;
}

async function baselineAt(rev: string): Promise<Build> {
  const source = execFileSync("git", ["show", `${rev}:apps/web/src/lib/lineage-tree.ts`], {
    cwd: WEB_DIR,
    encoding: "utf8",
  }).replaceAll('"./', `"${path.join(WEB_DIR, "src/lib")}/`);
  const file = path.join(mkdtempSync(path.join(tmpdir(), "skein-sidebar-")), "lineage-tree.ts");
  writeFileSync(file, source);
  const old = (await import(pathToFileURL(file).href)) as {
    buildSidebarRows: typeof buildSidebarRows;
  };
  return (shells) => (options) => old.buildSidebarRows(PROJECTS, shells.values(), options);
}

const PROJECTS = [{ id: "prj_big", title: "Big project" }] as unknown as Project[];
const ways: [string, Build][] = [
  [
    "reused",
    (shells) => {
      const forest = new ShellForest(shells);
      return (options) => {
        // The sidebar draws a screen of rows: those are made, the others never are.
        const rows = forest.view(PROJECTS, options);
        for (let i = 0; i < Math.min(rows.length, DRAWN); i += 1) rows.at(i);
      };
    },
  ],
  ["scratch", (shells) => (options) => buildSidebarRows(PROJECTS, shells.values(), options)],
];
const rev = process.env.SKEIN_SIDEBAR_BASELINE_REV;
if (rev) ways.push([`at ${rev}`, await baselineAt(rev)]);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const times = new Map(ways.map(([name]) => [name, STEPS.map(() => [] as number[])]));
for (let round = 0; round < ROUNDS; round += 1) {
  // A new Map each round, as the store makes one per change (nothing carried between rounds).
  const shells = new Map(history(THREADS));
  const n = (round * 7919) % THREADS;
  for (const [name, build] of round % 2 ? [...ways].reverse() : ways) {
    const steps = search(build, shells, n - (n % 10));
    for (const [step, ms] of steps.entries()) times.get(name)![step]!.push(ms);
  }
}
console.log(
  `${THREADS} threads, ${ROUNDS} rounds, load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}`,
);
for (const [name, steps] of times) {
  const cells = steps.map((xs, step) => `${STEPS[step]} ${median(xs).toFixed(1)}`);
  console.log(`${name.padEnd(12)} median ms: ${cells.join(", ")}`);
}
