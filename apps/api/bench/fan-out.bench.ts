/**
 * Issue 19 rows (B9), through the real orchestrator, a real SQLite store and real git:
 * - fanout_start_ms: `thread.fanOut` to 8 isolated forks of a 5,000-file repository, until it
 *   answers (8 worktrees checked out, 8 forks and messages recorded);
 * - merge_back_ms: a bring-back with `code: "squash"` of a fork that changed 50 files, until it
 *   answers (conflict check, merge, files written, run recorded).
 * Providers are scripted: these rows measure Skein and git, not a model.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { openSqliteEventStore } from "@skein/db";
import type { ThreadId } from "@skein/domain";
import { createScriptedProvider } from "@skein/scripted-provider";
import { createOrchestrator, type Orchestrator } from "../src/orchestrator/index.ts";
import { benchSize, writeBenchRows } from "./bench-rows.ts";

const FILES = benchSize(5_000, 200);
const PER_DIR = 100;
const FORKS = 8;
const CHANGED = 50;
// Rounds are slow on a busy machine (5,000-file checkouts); SKEIN_BENCH_ROUNDS trims them.
const ROUNDS = Number(process.env.SKEIN_BENCH_ROUNDS ?? benchSize(3, 1));
const FANOUT_TARGET_MS = 2_000;
const MERGE_TARGET_MS = 1_000;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const fileName = (i: number) => `dir${Math.floor(i / PER_DIR)}/file${i % PER_DIR}.ts`;

function buildRepository(root: string): void {
  for (let i = 0; i < FILES; i++) {
    const file = path.join(root, fileName(i));
    if (i % PER_DIR === 0) mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, `export const value${i} = ${i};\n// padding ${"x".repeat(i % 200)}\n`);
  }
  const git = (...args: string[]) => execFileSync("git", args, { cwd: root, stdio: "ignore" });
  git("init", "--quiet");
  git("add", "-A");
  git("-c", "user.name=bench", "-c", "user.email=bench@skein", "commit", "--quiet", "-m", "init");
}

async function waitForForks(o: Orchestrator, forks: readonly ThreadId[]) {
  for (const id of forks) {
    const state = await o.repository.thread(id);
    const runId = state.runOrder.at(-1);
    if (runId) await o.waitForRun(runId);
  }
}

async function main() {
  const scratch = mkdtempSync(path.join(tmpdir(), "skein-bench-fanout-"));
  const dataDir = path.join(scratch, "data");
  const repo = path.join(scratch, "repo");
  mkdirSync(repo);
  buildRepository(repo);
  const store = openSqliteEventStore({ dataDir });
  const codex = createScriptedProvider({ provider: "codex" });
  const claude = createScriptedProvider({ provider: "claude" });
  const o = await createOrchestrator({
    store,
    adapters: { codex, claude },
    dataDir,
    sessionIdleMs: 0,
    fanOutConcurrency: 2,
  });
  try {
    const { projectId } = await o.createProject({ name: "bench", workspaceRoot: repo });
    const fanOutMs: number[] = [];
    const mergeMs: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const { threadId } = await o.createThread({ projectId, provider: "codex" });
      const first = await o.sendMessage({ threadId, text: "ready" });
      await o.waitForRun(first.runId);

      const started = performance.now();
      const { forks } = await o.fanOut({
        threadId,
        text: "go",
        targets: Array.from({ length: FORKS }, (_, i) => ({
          provider: i % 2 ? ("claude" as const) : ("codex" as const),
        })),
        isolated: true,
      });
      fanOutMs.push(performance.now() - started);
      await waitForForks(
        o,
        forks.map((f) => f.threadId),
      );

      // One fork changes 50 files (scripted writes in its worktree), then comes back with them.
      const fork = await o.forkThread({ threadId, isolatedWorkspace: true });
      codex.enqueue(
        Array.from({ length: CHANGED }, (_, k) => ({
          type: "file_change" as const,
          path: fileName((round * 997 + k * 89) % FILES),
          diff: "",
          content: `// changed by the fork in round ${round}\n`,
        })),
      );
      const work = await o.sendMessage({ threadId: fork.threadId, text: "change 50 files" });
      await o.waitForRun(work.runId);
      await o.repository.thread(fork.threadId);
      const mergeStarted = performance.now();
      const back = await o.sendMessage({
        threadId,
        text: "bring it back",
        bringBackFrom: fork.threadId,
        code: "squash",
      });
      mergeMs.push(performance.now() - mergeStarted);
      if (back.code?.files.length !== CHANGED) {
        throw new Error(`expected ${CHANGED} files brought back, got ${back.code?.files.length}`);
      }
      await o.waitForRun(back.runId);
    }
    const fanout = Math.round(median(fanOutMs));
    const merge = Math.round(median(mergeMs));
    writeBenchRows("fan-out.json", [
      {
        name: "fanout_start_ms",
        value: fanout,
        unit: "ms",
        target: `<= ${FANOUT_TARGET_MS}`,
        pass: fanout <= FANOUT_TARGET_MS,
      },
      {
        name: "merge_back_ms",
        value: merge,
        unit: "ms",
        target: `<= ${MERGE_TARGET_MS}`,
        pass: merge <= MERGE_TARGET_MS,
      },
    ]);
    console.log(`fan-out rounds: ${fanOutMs.map((ms) => ms.toFixed(0)).join(", ")} ms`);
    console.log(`merge-back rounds: ${mergeMs.map((ms) => ms.toFixed(0)).join(", ")} ms`);
  } finally {
    await o.shutdown();
    await store.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}

await main();
